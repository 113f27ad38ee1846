"""Embed code (and anything else an editor pastes as a post) → ParsedPosts.

Which platform an embed belongs to, and where its code keeps the post's URL, comes
from `articles.platforms`; what is read here is the text layout a few platforms'
embed code shares (X's signature under the text, Instagram's "shared by" line).
"""

import re
from datetime import date

from django.utils.translation import gettext as _

from articles import platforms
from articles.models import Platform

from .budget import ImportTooSlow, check_budget, time_budget
from .html import Element, read_elements
from .posts import (
    MAX_URL_LENGTH,
    ParsedPost,
    finish_post,
    post_from_signature,
    post_from_url,
    read_signature,
)
from .problems import Problem, error, warning
from .text import DateProblem, parse_date

# "A post shared by Name (@handle)": the name is bounded, so each phrase found costs
# at most 200 characters of scanning.
_SHARED_BY_RE = re.compile(
    r"(?:A post shared by|Post shared by|منشور تمت مشاركته بواسطة)"
    r"(?P<name>[^()\n]{0,200})\(@(?P<handle>[A-Za-z0-9_.]{1,100})\)",
    re.I,
)
_VIEW_ON_INSTAGRAM_RE = re.compile(
    r"View this post on Instagram|عرض هذا المنشور على Instagram", re.I
)
_HANDLE_RE = re.compile(r"\(@(?P<handle>[A-Za-z0-9_.]{1,100})\)")


def posts_from_html(
    markup: str, *, line: int = 1
) -> tuple[list[ParsedPost], list[Problem]]:
    """Every post in a piece of pasted embed code, and what was dropped from it."""
    posts, problems = [], []
    for element in read_elements(markup):
        check_budget()
        where = line + element.line - 1
        post, found = _post_from_element(element, where)
        problems += found
        if post:
            posts.append(post)
    return posts, list(dict.fromkeys(problems))


def _post_from_element(element: Element, line: int) -> tuple[ParsedPost | None, list]:
    problems = _removed_problems(element, line)
    if element.tag == "script":
        return _telegram_widget(element, line), problems
    spec = platforms.embed_platform(element.classes)
    more: list[Problem] = []
    if spec is not None and spec.key == "x":
        post, more = _x_embed(element, line)
    elif spec is not None and spec.key == "instagram":
        post = _instagram_embed(element, line)
    elif spec is not None and spec.key == "tiktok":
        post = _tiktok_embed(element, line)
    elif spec is not None:
        post = _permalink_embed(element, line, spec)
    else:
        post = _recognized_by_url(element, line)
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
                    code="embed_link_card",
                )
            )
        elif element.text or element.tag not in ("#text", "script", "style"):
            problems.append(
                warning(
                    _("This pasted code had no post or link to keep and was left out."),
                    line,
                    code="embed_dropped",
                )
            )
    return post, problems


def _removed_problems(element: Element, line: int) -> list[Problem]:
    problems = []
    if any(not platforms.is_known_widget(s.get("src", "")) for s in element.scripts):
        problems.append(
            warning(
                _(
                    "A <script> in the pasted code was removed; scripts are "
                    "never stored."
                ),
                line,
                code="script_removed",
            )
        )
    handlers = sorted({r for r in element.removed if r.endswith("=")})
    if handlers:
        problems.append(
            warning(
                _("Event handlers (%(names)s) in the pasted code were removed.")
                % {"names": ", ".join(handlers)},
                line,
                code="handlers_removed",
                names=", ".join(handlers),
            )
        )
    schemes = sorted({r for r in element.removed if r.endswith(":")})
    if schemes:
        problems.append(
            warning(
                _("Unsafe links (%(schemes)s) in the pasted code were removed.")
                % {"schemes": ", ".join(schemes)},
                line,
                code="unsafe_links_removed",
                schemes=", ".join(schemes),
            )
        )
    return problems


def _credit(tail: str) -> tuple[str, str] | None:
    """(name, handle) from "— Name (@handle)": the handle is found first, then the
    name is the text before it on its line, so no pattern scans for the name."""
    match = _HANDLE_RE.search(tail)
    if not match:
        return None
    before = tail[max(0, match.start() - 300) : match.start()].rsplit("\n", 1)[-1]
    before = before.rsplit(")", 1)[-1].rsplit("(", 1)[-1]
    return before.strip(" —–-\u00a0"), match["handle"]


def _x_embed(element: Element, line: int) -> tuple[ParsedPost, list[Problem]]:
    status = [href for href, _t in element.anchors if "/status/" in href]
    post = (post_from_url(status[-1]) if status else None) or ParsedPost(Platform.X)
    post.line = line
    post.language = element.language
    post.text = element.first_paragraph or ""
    credit = _credit("".join(element.after_first_paragraph))
    if credit:
        post.author_name, post.handle = credit
    problems = []
    date_text = [text for href, text in element.anchors if "/status/" in href]
    try:
        post.posted_at = parse_date(date_text[-1][:100]) if date_text else None
    except DateProblem as exc:
        problems.append(error(str(exc), line, code="bad_date"))
    links = [
        href
        for href, text in element.anchors
        if href and not _is_x_page(href) and "pic.twitter.com" not in text
    ]
    post.media_urls = [
        f"https://{t}" for _h, t in element.anchors if t.startswith("pic.twitter.com")
    ]
    return finish_post(post, links), problems


def _is_x_page(href: str) -> bool:
    spec = platforms.platform_for_host(href)
    return spec is not None and spec.key == "x"


def _instagram_embed(element: Element, line: int) -> ParsedPost:
    post = _permalink_embed(element, line, platforms.BY_KEY["instagram"])
    text = _VIEW_ON_INSTAGRAM_RE.sub("\n", element.text)
    shared = _SHARED_BY_RE.search(text)
    if shared:
        post.author_name = shared["name"].strip()
        post.handle = post.handle or shared["handle"]
    keep = [
        part for part in text.split("\n") if part and not _SHARED_BY_RE.search(part)
    ]
    post.text = "\n".join(keep)
    return finish_post(post)


def _tiktok_embed(element: Element, line: int) -> ParsedPost:
    post = _permalink_embed(element, line, platforms.BY_KEY["tiktok"])
    drop = {f"@{post.handle}"} if post.handle else set()
    drop |= {text for _href, text in element.anchors if text.startswith("♬")}
    post.text = "\n".join(
        part for part in element.text.split("\n") if part.strip() not in drop
    )
    for dropped in drop:
        post.text = post.text.replace(dropped, "").strip()
    return finish_post(post)


def _permalink_embed(element: Element, line: int, spec) -> ParsedPost:
    """A platform's embed code that names the post in an attribute (or a link)."""
    candidates = [element.attrs.get(a, "") for a in spec.permalink_attributes]
    hrefs = [href for href, _t in element.anchors if href]
    post = _first_post([*candidates, *element.urls, *hrefs], spec.key)
    post = post or ParsedPost(Platform(spec.key))
    post.line = line
    post.text = element.first_paragraph or element.text
    post.posted_at = _iso_date(element.times)
    return finish_post(post)


def _telegram_widget(element: Element, line: int) -> ParsedPost | None:
    target = element.attrs.get("data-telegram-post", "").strip().strip("/")
    if not target or len(target) > 200:
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
    post = ParsedPost(Platform.OTHER, url=urls[0] if urls else "", text=text, line=line)
    post.link_card = True
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


# ------------------------------------------------------------------ pasted anything

MAX_PASTE = 100_000


def recognize_paste(paste: str) -> tuple[ParsedPost | None, list[Problem]]:
    """The post in what an editor pasted: embed code, a post URL or X's copied text.

    Runs under the import's time budget; running past it is reported as a problem.
    """
    try:
        with time_budget():
            return _recognize_paste(paste)
    except ImportTooSlow as exc:
        message = _(
            "Reading what was pasted took longer than %(seconds)s seconds and was "
            "stopped; paste only the post's URL or embed code."
        ) % {"seconds": f"{exc.seconds:g}"}
        return None, [error(message, code="time_budget", seconds=exc.seconds)]


def _recognize_paste(paste: str) -> tuple[ParsedPost | None, list[Problem]]:
    paste = paste[:MAX_PASTE].replace("\r\n", "\n").strip()
    if not paste:
        return None, []
    if "<" in paste and ">" in paste:
        posts, problems = posts_from_html(paste)
        return (posts[0] if posts else None), problems
    if not any(c.isspace() for c in paste):
        return post_from_url(paste), []
    lines = paste.split("\n")
    for index in range(len(lines) - 1, -1, -1):
        signature = read_signature(lines[index])
        if signature:
            text = "\n".join(lines[:index]).strip()
            return post_from_signature(
                text, signature, line=1, signature_line=index + 1
            )
    return None, []
