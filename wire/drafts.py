"""An agency item as the importer reads copy, and what the wire adds to the draft
beyond the copy: section, summary, embargo, the agency's credit and byline."""

import difflib
from collections.abc import Callable
from datetime import datetime

from django.utils.html import escape

from articles.body import split_blocks
from articles.models import Article, Byline, Section
from articles.services import StoryEdit
from ingest.export import block_text
from ingest.html import page_to_text
from ingest.result import ImportResult
from sources.models import Attribution

from .formats import WireItem
from .models import AgencyItem, Channel, TopicSection


def item_copy(item: WireItem) -> str:
    """The item as an editor would paste it: the headline, then the body's
    paragraphs and embed codes (a post's embed becomes a social post), the
    agency's dateline opening the first paragraph as the desk prints it."""
    blocks = page_to_text(f"<h1>{escape(item.headline)}</h1>\n{item.body_html}").split(
        "\n\n"
    )
    dateline = item.dateline.strip()
    if dateline and len(blocks) > 1 and not blocks[1].startswith(("<", dateline)):
        blocks[1] = f"{dateline} – {blocks[1]}"
    return "\n\n".join(blocks)


def section_for(item: WireItem, channel: Channel | None) -> Section | None:
    """The section of the first subject editors mapped, else the channel's."""
    codes = item.topic_codes
    if codes:
        mapped = {
            m.code: m.section
            for m in TopicSection.objects.filter(code__in=codes).select_related(
                "section"
            )
        }
        for code in codes:
            if code in mapped:
                return mapped[code]
    return channel.section if channel is not None else None


def wire_prepare(
    agency_item: AgencyItem, item: WireItem, *, now: datetime
) -> Callable[[StoryEdit, ImportResult], None]:
    """The import's `prepare` hook for `item`: what the agency's metadata says."""
    channel = agency_item.channel
    role = channel.role if channel is not None else Attribution.Role.REPUBLISHED
    section = section_for(item, channel)

    def prepare(edit: StoryEdit, result: ImportResult) -> None:
        article = edit.article
        article.section = section
        code = article.language
        if item.summary and not getattr(article, f"summary_{code}"):
            setattr(article, f"summary_{code}", item.summary)
        if item.embargo and item.embargo > now:
            article.embargo_until = item.embargo
        credits = [row for row in edit.changed if isinstance(row, Attribution)]
        if not any(
            row.source_id == agency_item.source_id and row.role == role
            for row in credits
        ):
            for row in credits:
                row.position += 1
            edit.changed.append(
                Attribution(
                    article=article, source=agency_item.source, role=role, position=0
                )
            )
        if item.byline:
            edit.changed.append(Byline(article=article, name=item.byline, position=0))
        # The tags the importer proposes are taken (as `--accept-tags`); new
        # people stay proposals for the editor, who knows who they are.
        edit.tags = list(result.tags)

    return prepare


def story_paragraphs(article: Article) -> list[str]:
    """The text of each block of the story's body, as an editor reads it."""
    body = getattr(article, f"body_{article.language}") or ""
    return [block_text(b) for b in split_blocks(body) if not b.startswith("<figure")]


def update_diff(article: Article, item: WireItem) -> list[tuple[str, str]]:
    """The agency's new version against the story, line by line: ("-", old),
    ("+", new) or (" ", same), headline first."""
    old = [getattr(article, f"headline_{article.language}"), *story_paragraphs(article)]
    copy = item_copy(item).split("\n\n")
    lines = []
    for line in difflib.ndiff(old, [part.strip() for part in copy if part.strip()]):
        if line[:1] in "+- ":
            lines.append((line[:1], line[2:]))
    return lines
