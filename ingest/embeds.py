"""One embed code, post URL or copied post → a ParsedPost; pure, no database.

Posts are kept as data (text, author, handle, date, links), never as the platform's
markup: every embed ships a <script>, and none may be stored or rendered.
"""

import re
from dataclasses import asdict, dataclass, field
from datetime import date
from urllib.parse import parse_qs, unquote, urlsplit

from django.utils.translation import gettext as _

from articles.models import Platform

from .htmltext import KNOWN_WIDGETS, Element, read_elements
from .problems import Problem, error, warning
from .text import (
    DateProblem,
    analyse_post_text,
    detect_language,
    parse_date,
    strip_tag_like,
    trim_url,
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
    position: int = 0
    line: int | None = None
    link_card: bool = False

    def as_dict(self) -> dict:
        data = asdict(self)
        data["platform"] = str(self.platform)
        data["posted_at"] = self.posted_at.isoformat() if self.posted_at else None
        return data


def finish_post(post: ParsedPost, extra_links: list[str] = ()) -> ParsedPost:
    """Fill links, media, hashtags and language from the post's text."""
    post.text = strip_tag_like(post.text).strip()
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


# ----------------------------------------------------------------------------- URLs

_YOUTUBE_ID_RE = re.compile(r"^[A-Za-z0-9_-]{11}$")
_FACEBOOK_PAGES = {"permalink.php", "story.php", "watch", "reel", "share", "photo.php"}


def post_from_url(url: str) -> ParsedPost | None:
    """The post a URL points at (x.com, youtu.be, t.me …), or None for other links."""
    parts = urlsplit(trim_url(url.strip()))
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower()
    for prefix in ("www.", "m.", "mobile.", "web."):
        host = host.removeprefix(prefix)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    query = parse_qs(parts.query)
    if host in ("x.com", "twitter.com"):
        return _x_post(segments)
    if host == "instagram.com":
        return _instagram_post(segments)
    if host in ("facebook.com", "fb.com", "fb.watch"):
        return _facebook_post(host, segments, query, url)
    if host in ("youtube.com", "youtube-nocookie.com", "youtu.be", "music.youtube.com"):
        return _youtube_post(host, segments, query)
    if host in ("tiktok.com", "vm.tiktok.com"):
        return _tiktok_post(host, segments)
    if host in ("t.me", "telegram.me"):
        return _telegram_post(segments)
    return None


def _x_post(segments: list[str]) -> ParsedPost | None:
    if (
        len(segments) >= 3
        and segments[1] in ("status", "statuses")
        and segments[2].isdigit()
    ):
        handle = "" if segments[0] == "i" else segments[0]
        who = handle or "i/web"
        return ParsedPost(
            Platform.X, url=f"https://x.com/{who}/status/{segments[2]}", handle=handle
        )
    return None


def _instagram_post(segments: list[str]) -> ParsedPost | None:
    for index, segment in enumerate(segments[:-1]):
        if segment in ("p", "reel", "reels", "tv"):
            handle = segments[0] if index == 1 else ""
            kind = "reel" if segment == "reels" else segment
            return ParsedPost(
                Platform.INSTAGRAM,
                url=f"https://www.instagram.com/{kind}/{segments[index + 1]}/",
                handle=handle,
            )
    return None


def _facebook_post(host, segments, query, url) -> ParsedPost | None:
    if host == "fb.watch":
        return ParsedPost(Platform.FACEBOOK, url=url.strip()) if segments else None
    if segments and segments[0] == "plugins" and query.get("href"):
        return post_from_url(query["href"][0])
    is_post = segments and (
        segments[0] in _FACEBOOK_PAGES
        or any(s in ("posts", "videos", "photos", "permalink") for s in segments)
    )
    if not is_post:
        return None
    handle = "" if segments[0] in _FACEBOOK_PAGES else segments[0]
    clean = urlsplit(url.strip())
    keep = {k: v for k, v in query.items() if k in ("story_fbid", "id", "v", "fbid")}
    tail = "&".join(f"{k}={v[0]}" for k, v in keep.items())
    address = f"https://www.facebook.com{clean.path}" + (f"?{tail}" if tail else "")
    return ParsedPost(Platform.FACEBOOK, url=address, handle=handle)


def _youtube_post(host, segments, query) -> ParsedPost | None:
    video = ""
    if host == "youtu.be" and segments:
        video = segments[0]
    elif query.get("v"):
        video = query["v"][0]
    elif len(segments) >= 2 and segments[0] in ("embed", "shorts", "live", "v"):
        video = segments[1]
    if not _YOUTUBE_ID_RE.match(video):
        return None
    return ParsedPost(Platform.YOUTUBE, url=f"https://www.youtube.com/watch?v={video}")


def _tiktok_post(host, segments) -> ParsedPost | None:
    if host == "vm.tiktok.com" and segments:
        return ParsedPost(Platform.TIKTOK, url=f"https://vm.tiktok.com/{segments[0]}/")
    if len(segments) >= 3 and segments[0].startswith("@") and segments[1] == "video":
        handle = segments[0][1:]
        return ParsedPost(
            Platform.TIKTOK,
            url=f"https://www.tiktok.com/@{handle}/video/{segments[2]}",
            handle=handle,
        )
    return None


def _telegram_post(segments: list[str]) -> ParsedPost | None:
    if segments and segments[0] == "s":
        segments = segments[1:]
    if len(segments) >= 2 and segments[1].isdigit():
        channel = segments[0]
        return ParsedPost(
            Platform.TELEGRAM,
            url=f"https://t.me/{channel}/{segments[1]}",
            handle=channel,
        )
    return None


# ------------------------------------------------------------------ X's text form

# "— Display Name (@handle) December 12, 2024", optionally followed by the post's URL
# (our own export writes it there; X's copied text loses it).
SIGNATURE_RE = re.compile(
    r"^\s*(?:[—–―]|&mdash;|-{1,2})\s*(?P<name>[^\n()]*?)\s*"
    r"\(@(?P<handle>[A-Za-z0-9_.]{1,100})\)\s*"
    r"(?P<date>[^\n]*?)\s*(?P<url>https?://\S+)?\s*$"
)


def post_from_signature(
    text: str, signature: re.Match, *, line: int | None, signature_line: int | None
) -> tuple[ParsedPost, list[Problem]]:
    """A post from its copied text and the "— Name (@handle) Date" line under it."""
    problems = []
    url = signature["url"] or ""
    recognized = post_from_url(url) if url else None
    if url and not recognized:
        problems.append(
            warning(
                _(
                    "The address after the date is not a post URL the "
                    "importer knows; it was kept as the post's link."
                ),
                signature_line,
            )
        )
    post = recognized or ParsedPost(Platform.X, url=url)
    post.author_name = signature["name"].strip()
    post.handle = signature["handle"]
    post.text = text
    post.line = line
    try:
        post.posted_at = parse_date(signature["date"])
    except DateProblem as exc:
        problems.append(error(str(exc), signature_line))
    return finish_post(post), problems


# ------------------------------------------------------------------ embed HTML

_SHARED_BY_RE = re.compile(
    r"(?:A post shared by|Post shared by|منشور تمت مشاركته بواسطة)"
    r"\s*(?P<name>[^()\n]*?)\s*\(@(?P<handle>[A-Za-z0-9_.]+)\)",
    re.I,
)
_VIEW_ON_INSTAGRAM_RE = re.compile(
    r"View this post on Instagram|عرض هذا المنشور على Instagram", re.I
)
_CREDIT_RE = re.compile(
    r"[—–-]?\s*(?P<name>[^()\n]*?)\s*\(@(?P<handle>[A-Za-z0-9_.]+)\)"
)


def posts_from_html(
    markup: str, *, line: int = 1
) -> tuple[list[ParsedPost], list[Problem]]:
    """Every post in a piece of pasted embed code, and what was dropped from it."""
    posts, problems = [], []
    for element in read_elements(markup):
        where = line + element.line - 1
        post, found = _post_from_element(element, where)
        problems += found
        if post:
            posts.append(post)
    return posts, _unique_problems(problems)


def _post_from_element(element: Element, line: int) -> tuple[ParsedPost | None, list]:
    problems = _removed_problems(element, line)
    classes = element.classes
    if element.tag == "script":
        return _telegram_widget(element, line), problems
    if "twitter-tweet" in classes or "twitter-video" in classes:
        post, more = _x_embed(element, line)
    elif "instagram-media" in classes:
        post, more = _instagram_embed(element, line), []
    elif "tiktok-embed" in classes:
        post, more = _tiktok_embed(element, line), []
    else:
        post, more = _recognized_by_url(element, line), []
    problems += more
    if post is None:
        post = _link_card(element, line)
        if post:
            problems.append(
                warning(
                    _(
                        "This embed code was not recognized; it was kept as "
                        "a link card."
                    ),
                    line,
                )
            )
        elif element.text or element.tag not in ("#text", "script", "style"):
            problems.append(
                warning(
                    _("This pasted code had no post or link to keep and was left out."),
                    line,
                )
            )
    return post, problems


def _removed_problems(element: Element, line: int) -> list[Problem]:
    problems = []
    unknown_scripts = [
        s
        for s in element.scripts
        if not any(widget in s.get("src", "") for widget in KNOWN_WIDGETS)
    ]
    if unknown_scripts:
        problems.append(
            warning(
                _(
                    "A <script> in the pasted code was removed; scripts are "
                    "never stored."
                ),
                line,
            )
        )
    handlers = sorted({r for r in element.removed if r.endswith("=")})
    if handlers:
        problems.append(
            warning(
                _("Event handlers (%(names)s) in the pasted code were removed.")
                % {"names": ", ".join(handlers)},
                line,
            )
        )
    schemes = sorted({r for r in element.removed if r.endswith(":")})
    if schemes:
        problems.append(
            warning(
                _("Unsafe links (%(schemes)s) in the pasted code were removed.")
                % {"schemes": ", ".join(schemes)},
                line,
            )
        )
    return problems


def _x_embed(element: Element, line: int) -> tuple[ParsedPost, list[Problem]]:
    status = [href for href, _t in element.anchors if "/status/" in href]
    post = (post_from_url(status[-1]) if status else None) or ParsedPost(Platform.X)
    post.line = line
    post.language = element.language
    post.text = element.first_paragraph or ""
    tail = "".join(element.after_first_paragraph)
    credit = _CREDIT_RE.search(tail)
    if credit:
        post.author_name = credit["name"].strip(" —–-\u00a0")
        post.handle = credit["handle"]
    problems = []
    date_text = [text for href, text in element.anchors if "/status/" in href]
    try:
        post.posted_at = parse_date(date_text[-1]) if date_text else None
    except DateProblem as exc:
        problems.append(error(str(exc), line))
    links = [
        href
        for href, text in element.anchors
        if href and not _is_x_page(href) and "pic.twitter.com" not in text
    ]
    media = [
        f"https://{t}" for _h, t in element.anchors if t.startswith("pic.twitter.com")
    ]
    post.media_urls = media
    return finish_post(post, links), problems


def _is_x_page(href: str) -> bool:
    host = (urlsplit(href).hostname or "").removeprefix("www.").removeprefix("mobile.")
    return host in ("x.com", "twitter.com")


def _instagram_embed(element: Element, line: int) -> ParsedPost:
    candidates = [element.attrs.get("data-instgrm-permalink", ""), *element.urls]
    post = _first_post(candidates, Platform.INSTAGRAM) or ParsedPost(Platform.INSTAGRAM)
    post.line = line
    text = _VIEW_ON_INSTAGRAM_RE.sub("\n", element.text)
    shared = _SHARED_BY_RE.search(text)
    if shared:
        post.author_name = shared["name"]
        post.handle = post.handle or shared["handle"]
    keep = [
        part for part in text.split("\n") if part and not _SHARED_BY_RE.search(part)
    ]
    post.text = "\n".join(keep)
    post.posted_at = _iso_date(element.times)
    return finish_post(post)


def _tiktok_embed(element: Element, line: int) -> ParsedPost:
    candidates = [element.attrs.get("cite", ""), *element.urls]
    post = _first_post(candidates, Platform.TIKTOK) or ParsedPost(Platform.TIKTOK)
    post.line = line
    drop = {f"@{post.handle}"} if post.handle else set()
    drop |= {text for _href, text in element.anchors if text.startswith("♬")}
    post.text = "\n".join(
        part for part in element.text.split("\n") if part.strip() not in drop
    )
    for dropped in drop:
        post.text = post.text.replace(dropped, "").strip()
    return finish_post(post)


def _telegram_widget(element: Element, line: int) -> ParsedPost | None:
    target = element.attrs.get("data-telegram-post", "").strip().strip("/")
    if not target:
        return None
    post = post_from_url(f"https://t.me/{target}")
    if post:
        post.line = line
        finish_post(post)
    return post


def _recognized_by_url(element: Element, line: int) -> ParsedPost | None:
    """Facebook, YouTube and anything else whose code links to a known post URL."""
    hrefs = [href for href, _t in element.anchors if href]
    post = _first_post([element.attrs.get("data-href", ""), *element.urls, *hrefs])
    if post is None:
        return None
    post.line = line
    if element.tag == "iframe":
        post.text = element.attrs.get("title", "")
        if post.text.lower() in ("youtube video player", "embedded content"):
            post.text = ""
    else:
        post.text = element.first_paragraph or element.text
    post.posted_at = _iso_date(element.times)
    return finish_post(post)


def _link_card(element: Element, line: int) -> ParsedPost | None:
    hrefs = [href for href, _t in element.anchors if href]
    urls = [u for u in [*element.urls, *hrefs] if len(u) <= MAX_URL_LENGTH]
    text = element.text
    if not urls and not (text and element.tag != "#text"):
        return None
    post = ParsedPost(
        Platform.OTHER,
        url=urls[0] if urls else "",
        text=text,
        line=line,
        link_card=True,
    )
    return finish_post(post)


def _first_post(
    candidates: list[str], platform: str | None = None
) -> ParsedPost | None:
    for candidate in candidates:
        post = post_from_url(candidate) if candidate else None
        if post and (platform is None or post.platform == platform):
            return post
    return None


def _iso_date(values: list[str]) -> date | None:
    for value in values:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            continue
    return None


def _unique_problems(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


# ------------------------------------------------------------------ pasted anything


def recognize_paste(paste: str) -> tuple[ParsedPost | None, list[Problem]]:
    """The post in what an editor pasted: embed code, a post URL or X's copied text."""
    paste = paste.replace("\r\n", "\n").strip()
    if not paste:
        return None, []
    if "<" in paste and ">" in paste:
        posts, problems = posts_from_html(paste)
        return (posts[0] if posts else None), problems
    if re.fullmatch(r"\S+", paste):
        return post_from_url(paste), []
    lines = paste.split("\n")
    for index in range(len(lines) - 1, -1, -1):
        signature = SIGNATURE_RE.match(lines[index])
        if signature:
            text = "\n".join(lines[:index]).strip()
            return post_from_signature(
                text, signature, line=1, signature_line=index + 1
            )
    return None, []
