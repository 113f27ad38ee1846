"""Pasted story text → ParsedStory: pure, no database.

The shape editors paste (the seed story is the reference):

    [kicker]                       ← optional, a short first line above the headline
    Headline
    [summary lines]                ← optional, lines right under the headline

    Paragraph …

    Post text with links and #hashtags pic.twitter.com/…

    — Display Name (@handle) December 12, 2024

    <blockquote class="instagram-media" …>…</blockquote><script …></script>

    المصدر: موقع 24

Blocks are separated by blank lines; embed code may span lines and blank lines.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date

from django.utils.translation import gettext as _

from arabic import normalize
from articles.body import paragraphs_to_html
from core.text import HASHTAG_RE, URL_RE

from .budget import check_budget
from .credits import (
    REPUBLISHED,
    AttributionCandidate,
    CreditLine,
    credit_line_names,
    dateline_names,
    is_agencies_line,
)
from .embeds import posts_from_html
from .html import html_region_end, looks_like_page, markup_to_text, page_to_text
from .posts import (
    ParsedPost,
    finish_post,
    post_from_signature,
    post_from_url,
    read_signature,
)
from .problems import Problem, error, warning
from .text import DateProblem, analyse_post_text, detect_language, parse_date, tag_name

MAX_HEADLINE = 300  # Article.headline
MAX_KICKER = 120  # Article.kicker

_EMBED_START_RE = re.compile(
    r"^<\s*(blockquote|iframe|div|script|figure|embed|object|img|video|audio|svg|style"
    r"|noscript|form|link|meta|a|section|center|table|template)\b",
    re.IGNORECASE,
)
_INLINE_MARKUP_RE = re.compile(r"<\s*/?\s*[A-Za-z][^<>]*>|<!--")


@dataclass
class LinkPost:
    """A supported platform's post URL inside a line of prose."""

    url: str
    position: int  # the post would follow paragraph `position` (1 = the first)
    line: int

    def as_dict(self) -> dict:
        return {"url": self.url, "position": self.position, "line": self.line}


_BREAKING = {"عاجل", "breaking", "breakingnews", "breaking news", "عاجل جدا"}
# What separates a label from the line it heads: "عاجل | …", "BREAKING: …", "عاجل - …".
_LABEL_END_RE = re.compile(r"[|:：\-–—]")


def is_breaking_tag(hashtag: str) -> bool:
    """ "#عاجل", "#Breaking", "#BreakingNews": a flag, not a subject."""
    return normalize(tag_name(hashtag)).lower() in _BREAKING


def says_breaking(line: str) -> bool:
    """Whether a line is, or opens with, the label "عاجل"/"breaking": "عاجل: …",
    "#عاجل | …", "BREAKING - …", or the kicker "عاجل" alone. A word inside the
    sentence ("breaking the silence") is not the label."""
    label = _LABEL_END_RE.split(line.strip(), maxsplit=1)[0]
    return is_breaking_tag(label.strip(" #\u200f\u200e"))


@dataclass
class ParsedStory:
    headline: str = ""
    headline_line: int = 1
    kicker: str = ""
    summary: str = ""
    paragraphs: list[str] = field(default_factory=list)
    paragraph_lines: list[int] = field(default_factory=list)
    language: str = "ar"
    posts: list[ParsedPost] = field(default_factory=list)
    attributions: list[AttributionCandidate] = field(default_factory=list)
    credit_lines: list[CreditLine] = field(default_factory=list)
    hashtags: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # Post URLs inside a line of prose: the editor embeds each there or keeps the link.
    link_posts: list["LinkPost"] = field(default_factory=list)

    @property
    def tags(self) -> list[str]:
        """Suggested tags: the story's own hashtags, once; an embedded post keeps
        its hashtags, and "#عاجل"/"#breaking" is a flag, never a tag."""
        names = [tag_name(h) for h in self.hashtags if not is_breaking_tag(h)]
        return [n for n in dict.fromkeys(names) if n]

    @property
    def calls_itself_breaking(self) -> bool:
        """Whether the story's own copy calls it breaking news: its kicker,
        headline or dateline opens with "عاجل"/"breaking", or it carries the
        hashtag itself. A post it quotes does not count: the post's urgency is the
        post's (suggestions.breaking_reason weighs a recent post apart)."""
        own_lines = [self.kicker, self.headline, *self.paragraphs[:1]]
        return any(says_breaking(line) for line in own_lines if line) or any(
            is_breaking_tag(h) for h in self.hashtags
        )

    def body_html(self, paragraphs: list[str] | None = None) -> str:
        return paragraphs_to_html(
            "\n\n".join(self.paragraphs if paragraphs is None else paragraphs)
        )

    def segments(self) -> Iterator[tuple[int, str, str]]:
        """(line, text, where) for every line of copy, to search for names."""
        if self.kicker:
            yield self.headline_line - 1, self.kicker, _("kicker")
        yield self.headline_line, self.headline, _("headline")
        for offset, text in enumerate(self.summary.split("\n") if self.summary else []):
            yield self.headline_line + 1 + offset, text, _("summary")
        for number, (start, text) in enumerate(
            zip(self.paragraph_lines, self.paragraphs, strict=True), start=1
        ):
            for offset, part in enumerate(text.split("\n")):
                yield start + offset, part, _("paragraph %(n)s") % {"n": number}
        for number, post in enumerate(self.posts, start=1):
            for offset, part in enumerate(post.text.split("\n")):
                yield (
                    (post.line or 0) + offset,
                    part,
                    _("social post %(n)s") % {"n": number},
                )


def parse_story(text: str) -> ParsedStory:
    """Recognize the parts of a pasted story; problems carry line numbers."""
    story = ParsedStory()
    if looks_like_page(text):
        text = page_to_text(text)
        story.problems.append(
            warning(
                _(
                    "The input was read as an HTML page; line numbers refer to the "
                    "text taken from it."
                ),
                code="read_as_page",
            )
        )
    lines = text.split("\n")
    blocks = list(_blocks(lines, story))
    if not blocks or blocks[0][0] != "text":
        story.problems.append(
            error(_("The first line must be the headline."), 1, code="no_headline")
        )
        return story
    _read_headline(blocks[0][1], blocks[0][2], story)
    for kind, block, start in blocks[1:]:
        check_budget()
        if kind == "html":
            _read_embed(block, start, story)
        else:
            _read_text_block(block, start, story)
    _read_dateline(story)
    if not story.paragraphs:
        story.problems.append(
            error(
                _("There are no paragraphs after the headline."),
                story.headline_line,
                code="no_paragraphs",
            )
        )
    story.language = (
        detect_language(" ".join([story.headline, *story.paragraphs])) or "ar"
    )
    for paragraph in story.paragraphs:
        story.hashtags += analyse_post_text(paragraph)[2]
    story.hashtags = list(dict.fromkeys(story.hashtags))
    return story


def _blocks(
    lines: list[str], story: ParsedStory
) -> Iterator[tuple[str, list[str], int]]:
    """("text" | "html", lines, first line number) for each block of the input."""
    index = 0
    while index < len(lines):
        check_budget()
        line = lines[index].strip()
        if not line:
            index += 1
        elif _EMBED_START_RE.match(line):
            end, closed = html_region_end(lines, index)
            if not closed:
                story.problems.append(
                    warning(
                        _(
                            "The embed code starting here is not closed; it was read "
                            "up to line %(end)s."
                        )
                        % {"end": end},
                        index + 1,
                        code="unclosed_embed",
                        end=end,
                    )
                )
            yield "html", lines[index:end], index + 1
            index = end
        else:
            end = index
            while (
                end < len(lines)
                and lines[end].strip()
                and not _EMBED_START_RE.match(lines[end].strip())
            ):
                end += 1
            yield "text", [plain.strip() for plain in lines[index:end]], index + 1
            index = end


def _plain(line: str, number: int, story: ParsedStory) -> str:
    """A line of copy without markup: pasted tags are dropped, their text kept."""
    if not _INLINE_MARKUP_RE.search(line):
        return line
    story.problems.append(
        warning(
            _("HTML markup in this line was removed."), number, code="markup_removed"
        )
    )
    return markup_to_text(line).replace("\n", " ")


def _read_headline(block: list[str], start: int, story: ParsedStory) -> None:
    block = [_plain(line, start + i, story) for i, line in enumerate(block)]
    first = 0
    if len(block) >= 2 and _is_kicker(block[0], block[1]):
        story.kicker = block[0]
        first = 1
    story.headline = block[first]
    story.headline_line = start + first
    story.summary = "\n".join(block[first + 1 :])
    if len(story.headline) > MAX_HEADLINE:
        story.problems.append(
            error(
                _(
                    "The headline is %(length)s characters long; the limit is "
                    "%(limit)s. "
                    "Is there a blank line missing after it?"
                )
                % {"length": len(story.headline), "limit": MAX_HEADLINE},
                story.headline_line,
                code="headline_too_long",
                length=len(story.headline),
                limit=MAX_HEADLINE,
            )
        )


def _is_kicker(line: str, next_line: str) -> bool:
    """A short label over a longer headline, such as "عاجل" or "Exclusive"."""
    return (
        len(line.split()) <= 4
        and len(line) <= MAX_KICKER
        and len(line) * 2 <= len(next_line)
        and not line.rstrip().endswith((".", "؟", "?", "!", ":"))
    )


def _read_embed(block: list[str], start: int, story: ParsedStory) -> None:
    posts, problems = posts_from_html("\n".join(block), line=start)
    story.problems += problems
    for post in posts:
        post.position = len(story.paragraphs)
        story.posts.append(post)


def _read_text_block(block: list[str], start: int, story: ParsedStory) -> None:
    block = [_plain(line, start + i, story) for i, line in enumerate(block)]
    block = [line for line in block if line]
    if not block:
        return
    signature = read_signature(block[-1])
    if signature:
        _read_signed_post(block, start, signature, story)
    elif len(block) == 1 and _read_credit_line(block[0], start, story):
        return
    elif all(_is_hashtags(line) for line in block):
        for line in block:
            story.hashtags += analyse_post_text(line)[2]
    elif _bare_post(block, start, story):
        return
    else:
        story.paragraphs.append("\n".join(block))
        story.paragraph_lines.append(start)
        _find_link_posts(block, start, story)


def _find_link_posts(block: list[str], start: int, story: ParsedStory) -> None:
    """Post URLs the paragraph mentions ("Watch the video: https://…")."""
    for offset, line in enumerate(block):
        if "://" not in line:
            continue
        for match in URL_RE.finditer(line):
            post = post_from_url(match.group())
            if post is not None and post.url:
                story.link_posts.append(
                    LinkPost(post.url, len(story.paragraphs), start + offset)
                )


def _read_signed_post(block, start, signature, story: ParsedStory) -> None:
    signature_line = start + len(block) - 1
    if len(block) > 1:
        text, text_line = "\n".join(block[:-1]), start
    elif story.paragraphs:
        # X's copied form leaves a blank line between the post and its signature.
        text, text_line = story.paragraphs.pop(), story.paragraph_lines.pop()
    else:
        text, text_line = "", signature_line
    post, problems = post_from_signature(
        text, signature, line=text_line, signature_line=signature_line
    )
    post.position = len(story.paragraphs)
    story.posts.append(post)
    story.problems += problems


def _bare_post(block: list[str], start: int, story: ParsedStory) -> bool:
    """A post URL on its own line, with the post's text above it if any."""
    last = block[-1]
    if not URL_RE.fullmatch(last):
        return False
    post = post_from_url(last)
    if post is None:
        return False
    post.text = "\n".join(block[:-1])
    post.line = start
    post.position = len(story.paragraphs)
    story.posts.append(finish_post(post))
    return True


def _is_hashtags(line: str) -> bool:
    return bool(HASHTAG_RE.search(line)) and not HASHTAG_RE.sub("", line).strip(" ،,.")


def _read_credit_line(line: str, number: int, story: ParsedStory) -> bool:
    found = credit_line_names(line)
    if not found or not found[1]:
        return False
    role, names = found
    kind = "agencies" if is_agencies_line(line) else "source line"
    # A date among the names is when the original appeared, not an outlet.
    dates = {name: _date_in(name) for name in names}
    published_on = next((day for day in dates.values() if day), None)
    names = [name for name in names if not dates[name]]
    for name in names:
        url = name if URL_RE.fullmatch(name) else ""
        story.attributions.append(
            AttributionCandidate(name, role, number, url, kind, published_on)
        )
    story.credit_lines.append(CreditLine(line, number, len(story.paragraphs), names))
    return True


def _date_in(name: str) -> date | None:
    try:
        return parse_date(name)
    except DateProblem:
        return None


def _read_dateline(story: ParsedStory) -> None:
    if not story.paragraphs:
        return
    for name in dateline_names(story.paragraphs[0]):
        story.attributions.insert(
            0,
            AttributionCandidate(
                name, REPUBLISHED, story.paragraph_lines[0], kind="dateline"
            ),
        )
