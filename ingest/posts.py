"""A social post as the importer recognizes it, from a URL or from X's copied text.

Posts are kept as data (text, author, handle, date, links), never as the platform's
markup: every embed ships a <script>, and none may be stored or rendered. What a URL
means per platform lives in `articles.platforms`; embed code is read in `embeds`.
"""

import re
from dataclasses import asdict, dataclass, field
from datetime import date

from django.utils.translation import gettext as _

from articles import platforms
from articles.models import Platform
from core.text import separate_tokens, trim_url

from .problems import Problem, error, warning
from .text import (
    DateProblem,
    analyse_post_text,
    detect_language,
    parse_date,
    strip_tag_like,
)

MAX_URL_LENGTH = 500  # SocialPost.url


@dataclass
class ParsedPost:
    """A social post as recognized in pasted copy, before it is saved."""

    platform: str
    url: str = ""
    author_name: str = ""
    handle: str = ""
    posted_at: date | None = None
    text: str = ""
    language: str = ""
    hashtags: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    media_urls: list[str] = field(default_factory=list)
    # The paragraph the post follows (0 = before the first); the lead's body
    # placement converts this at merge.
    position: int = 0
    line: int | None = None
    link_card: bool = False

    @property
    def platform_label(self) -> str:
        """The platform's name, as the admin shows it ("X", "Instagram")."""
        try:
            return str(Platform(self.platform).label)
        except ValueError:
            return str(self.platform)

    def as_dict(self) -> dict:
        data = asdict(self)
        data["platform"] = str(self.platform)
        data["posted_at"] = self.posted_at.isoformat() if self.posted_at else None
        return data


def finish_post(post: ParsedPost, extra_links: list[str] = ()) -> ParsedPost:
    """Fill links, media, hashtags and language from the post's text."""
    # A link, handle or hashtag glued to its neighbour (X's copied text, or the
    # words of embed code read without its markup) is set apart by a space.
    post.text = separate_tokens(strip_tag_like(post.text)).strip()
    links, media, hashtags = analyse_post_text(post.text)
    post.links = list(dict.fromkeys([*extra_links, *links]))
    post.media_urls = list(dict.fromkeys([*post.media_urls, *media]))
    post.hashtags = list(dict.fromkeys([*post.hashtags, *hashtags]))
    post.language = post.language or detect_language(post.text)
    post.author_name = strip_tag_like(post.author_name).strip()[:200]
    post.handle = post.handle.strip().lstrip("@")[:100]
    if len(post.url) > MAX_URL_LENGTH:
        post.url = ""
    return post


def post_from_url(url: str) -> ParsedPost | None:
    """The post a URL points at (x.com, youtu.be, t.me …), or None for other links."""
    if len(url) > 4 * MAX_URL_LENGTH:
        return None
    ref = platforms.post_from_url(trim_url(url.strip()))
    if ref is None:
        return None
    return ParsedPost(Platform(ref.platform), url=ref.url, handle=ref.handle)


# ------------------------------------------------------------------ X's text form

# "— Display Name (@handle) December 12, 2024", optionally followed by the post's URL
# (our own export writes it there; X's copied text loses it). Each part is matched
# without overlap (the name cannot hold "(", the rest is split in Python), so a long
# line costs one pass, never a backtracking search.
_SIGNATURE_RE = re.compile(
    r"^\s*(?:[—–―]|&mdash;|-{1,2})(?P<name>[^\n()]*)"
    r"\(@(?P<handle>[A-Za-z0-9_.]{1,100})\)(?P<rest>[^\n]*)$"
)
MAX_SIGNATURE = 400  # longer lines are prose, not a post's signature


@dataclass(frozen=True)
class Signature:
    name: str
    handle: str
    date: str
    url: str


_DASHES = ("—", "–", "―", "&mdash;")  # not "-": a list item may end in a link


def read_signature(line: str) -> Signature | None:
    """The parts of a "— Name (@handle) Date [URL]" line, or None.

    Without a handle, the line must end with a post's URL ("— Name Date URL", as the
    export writes a post whose author has no handle)."""
    if len(line) > MAX_SIGNATURE:
        return None
    if "(@" not in line:
        return _signature_without_handle(line)
    match = _SIGNATURE_RE.match(line)
    if not match:
        return None
    rest = match["rest"].split()
    url = rest.pop() if rest and re.match(r"https?://", rest[-1]) else ""
    return Signature(match["name"].strip(), match["handle"], " ".join(rest), url)


def _signature_without_handle(line: str) -> Signature | None:
    text = line.strip()
    dash = next((d for d in _DASHES if text.startswith(d)), None)
    words = text[len(dash) :].split() if dash else []
    if len(words) < 2 or post_from_url(words[-1]) is None:
        return None
    url, words = words[-1], words[:-1]
    for size in (3, 2):  # "December 12, 2024", "١٢ ديسمبر ٢٠٢٤" or "12 Dec"
        if len(words) > size:
            try:
                if parse_date(" ".join(words[-size:])):
                    return Signature(
                        " ".join(words[:-size]), "", " ".join(words[-size:]), url
                    )
            except DateProblem:
                continue
    return Signature(" ".join(words), "", "", url)


def post_from_signature(
    text: str, signature: Signature, *, line: int | None, signature_line: int | None
) -> tuple[ParsedPost, list[Problem]]:
    """A post from its copied text and the "— Name (@handle) Date" line under it."""
    problems = []
    url = signature.url
    recognized = post_from_url(url) if url else None
    if url and not recognized:
        problems.append(
            warning(
                _(
                    "The address after the date is not a post URL the "
                    "importer knows; it was kept as the post's link."
                ),
                signature_line,
                code="unknown_post_url",
                url=url,
            )
        )
    post = recognized or ParsedPost(Platform.X, url=url)
    post.author_name = signature.name
    post.handle = signature.handle or post.handle
    post.text = text
    post.line = line
    try:
        post.posted_at = parse_date(signature.date)
    except DateProblem as exc:
        problems.append(error(str(exc), signature_line, code="bad_date"))
    return finish_post(post), problems
