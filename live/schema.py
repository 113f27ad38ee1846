"""A live coverage in schema.org's words: the story becomes a LiveBlogPosting."""

from core.text import cut_at_word

from .reading import LiveFeed

HEADLINE_LETTERS = 110


def live_blog_data(data: dict, article, feed: LiveFeed) -> dict:
    """`data` (the story's NewsArticle) as a LiveBlogPosting with its coverage
    times and the entries the page shows as `liveBlogUpdate`."""
    if not feed:
        return data
    coverage = feed.coverage
    page_url = data.get("mainEntityOfPage", "")
    data = {**data, "@type": "LiveBlogPosting"}
    data["coverageStartTime"] = coverage.started_at
    if coverage.ended_at:
        data["coverageEndTime"] = coverage.ended_at
    data["liveBlogUpdate"] = [
        {
            "@type": "BlogPosting",
            "headline": entry.headline or cut_at_word(entry.text, HEADLINE_LETTERS),
            "datePublished": entry.posted_at,
            "dateModified": entry.corrected_at or entry.posted_at,
            "articleBody": entry.text,
            "url": f"{page_url}#{entry.anchor}",
        }
        for entry in sorted(
            feed.pinned + feed.entries, key=lambda e: (e.posted_at, e.pk), reverse=True
        )
    ]
    return data
