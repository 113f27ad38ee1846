"""Writing an article back out in the plain-text shape the importer reads."""

import html
import re

from django.utils import timezone
from django.utils.html import strip_tags

from arabic.dates import MONTHS_EN
from articles.body import embed_reference, split_blocks
from articles.models import Article, SocialPost


def block_text(block: str) -> str:
    return html.unescape(strip_tags(re.sub(r"<br\s*/?>", "\n", block))).strip()


def story_export(*, article: Article) -> str:
    """The article in the plain-text shape the importer reads back."""
    code = article.language
    lines = []
    kicker = getattr(article, f"kicker_{code}", "") or ""
    summary = getattr(article, f"summary_{code}", "") or ""
    if kicker:
        lines.append(kicker)
    lines.append(getattr(article, f"headline_{code}", "") or "")
    if summary:
        lines += [line.strip() for line in summary.splitlines() if line.strip()]
    blocks = ["\n".join(lines)]
    posts = {post.pk: post for post in article.social_posts.all()}
    post_tags = {tag for post in posts.values() for tag in post.hashtags}
    for block in split_blocks(getattr(article, f"body_{code}", "") or ""):
        reference = embed_reference(block)
        if reference is None:
            blocks.append(block_text(block))
        elif reference[0] == "post" and reference[1] in posts:
            blocks.append(_export_post(posts.pop(reference[1])))
    blocks += [_export_post(post) for post in posts.values()]
    tags = [
        t.name for t in article.tags.all() if t.name.replace(" ", "_") not in post_tags
    ]
    if tags:
        blocks.append(" ".join("#" + t.replace(" ", "_") for t in tags))
    blocks += _export_credits(article, code)
    return "\n\n".join(b for b in blocks if b) + "\n"


def _export_post(post: SocialPost) -> str:
    when = ""
    day = timezone.localtime(post.posted_at).date() if post.posted_at else None
    day = day or post.posted_on
    if day:
        when = f"{MONTHS_EN[day.month - 1].capitalize()} {day.day}, {day.year}"
    if post.handle:
        signature = f"— {post.author_name} (@{post.handle}) {when} {post.url}"
        return "\n\n".join(
            p for p in [post.text.strip(), " ".join(signature.split())] if p
        )
    if post.author_name and post.url:
        # No handle: the author still travels, on a signature line ending in the URL.
        signature = " ".join(f"— {post.author_name} {when} {post.url}".split())
        return "\n\n".join(p for p in [post.text.strip(), signature] if p)
    return "\n".join(p for p in [post.text.strip(), post.url] if p)


def _export_credits(article: Article, code: str) -> list[str]:
    labels = {
        "ar": {"via": "نقلاً عن", "cited": "بحسب", "other": "المصدر"},
        "en": {"via": "Via", "cited": "According to", "other": "Source"},
    }[code if code == "en" else "ar"]
    groups: dict[str, list[str]] = {}
    for attribution in article.attributions.select_related("source"):
        source = attribution.source
        name = getattr(source, f"name_{code}", "") or source.name
        label = labels.get(attribution.role, labels["other"])
        groups.setdefault(label, []).append(name)
    separator = "، " if code == "ar" else ", "
    return [f"{label}: {separator.join(names)}" for label, names in groups.items()]
