"""A story put together for a page, and the NewsArticle data it carries."""

from collections.abc import Sequence

from django.conf import settings
from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext

from articles.body import embedded_ids
from articles.models import Article
from articles.models.queryset import relating
from articles.parts import story_parts
from core.text import safe_url
from edge.keys import key_of
from images.renditions import images_with_renditions, social_card_url
from sources.models import Attribution

from ..presentation import presentation_of
from ..rendering import (
    CorrectionItem,
    body_items,
    correction_items,
    direction,
    field_language,
    json_ld,
)
from .lists import other_languages_urls

RELATED_STORIES = 5
ORIGINAL, REPUBLISHED, CITED = (
    Attribution.Role.ORIGINAL,
    Attribution.Role.REPUBLISHED,
    Attribution.Role.CITED,
)


class StoryPage:
    """One story put together for a page: the public page (which keeps what this
    renders in the cache), the share-link preview and the editors' preview all
    render a story through this class, so it is shown one way wherever it is shown.

    `edition_urls` are the page's addresses in each edition (hreflang and the
    language switch); by default the public page's.
    """

    def __init__(self, request, article: Article, *, edition_urls=None):
        self.request = request
        self.article = article
        self._edition_urls = edition_urls

    def edition_urls(self) -> dict[str, str]:
        """This page in every edition, for hreflang and the language switch."""
        if self._edition_urls is None:
            return other_languages_urls(self.article)
        return self._edition_urls

    def publisher(self) -> dict:
        """The newsroom as schema.org's publisher, with its logo."""
        return {
            "@type": "NewsMediaOrganization",
            "name": gettext("Newsroom"),
            "url": self.request.build_absolute_uri("/"),
            "logo": {
                "@type": "ImageObject",
                "url": self.request.build_absolute_uri(
                    static("img/publisher-logo.png")
                ),
                "width": 600,
                "height": 60,
            },
        }

    def related(self) -> list[Article]:
        """Up to five published stories sharing its tags or people."""
        language = get_language() or settings.LANGUAGE_CODE
        stories = Article.objects.published().available_in(language).for_listing()
        # Read once for the choice and the page's keys (related_shown).
        prefetch_related_objects([self.article], "tags", "people_named")
        return list(stories.related_to(self.article)[:RELATED_STORIES])

    def context(self) -> dict:
        """What the story's fragments show, read from the story and its rows."""
        article = self.article
        active = get_language() or settings.LANGUAGE_CODE
        # Each declared part's rows (articles.parts): the page reads nothing else
        # of the story, so it shows nothing the identity gate did not read.
        shown = [(part, presentation_of(part)) for part in story_parts()]
        rows = {
            part.relation: on_page.page_rows(part, article) for part, on_page in shown
        }
        attributions = rows.get("attributions", [])
        # Rows a part shows in its own place (a post in a live entry).
        shown_elsewhere: dict[str, set] = {}
        for part, on_page in shown:
            if on_page.shows is not None:
                for relation, pks in on_page.shows(rows[part.relation]).items():
                    shown_elsewhere.setdefault(relation, set()).update(pks)
        own_url = self.request.build_absolute_uri(article.get_absolute_url())
        canonical = next(
            (
                safe_url(a.original_url)
                for a in attributions
                if a.is_canonical and safe_url(a.original_url)
            ),
            own_url,
        )
        languages = {
            field: field_language(article, field)
            for field in (
                "headline",
                "kicker",
                "summary",
                "body",
                "hero_caption",
            )
        }
        hero = article.hero_image
        hero_caption = article.hero_caption
        if hero is not None:
            languages["hero_alt"] = field_language(hero, "alt_text")
            if not hero_caption:
                hero_caption = hero.caption
                languages["hero_caption"] = field_language(hero, "caption")
        card = social_card_url(hero)
        image_url = self.request.build_absolute_uri(card) if card else ""
        corrections = correction_items(rows["corrections"])
        bylines = [b.display_name for b in rows["bylines"] if b.display_name]
        credits = [
            {"source": a.source, "role": a.role, "url": safe_url(a.original_url)}
            for a in attributions
        ]
        description = article.description
        return {
            "article": article,
            "description": description,
            "body": body_items(
                article.body,
                [
                    post
                    for post in rows["social_posts"]
                    if post.pk not in shown_elsewhere.get("social_posts", ())
                ],
                images=images_with_renditions(embedded_ids(article.body, "image")),
                rtl=direction(languages["body"]) == "rtl",
            ),
            "bylines": bylines,
            "people": rows["people_named"],
            "tags": list(article.tags.all()),
            "attributions": credits,
            "canonical_url": canonical,
            "own_url": own_url,
            "image_url": image_url,
            "hero": hero,
            "hero_caption": hero_caption,
            "languages": languages,
            "directions": {field: direction(code) for field, code in languages.items()},
            "shown_language": article.shown_language,
            "shown_direction": article.shown_direction,
            "is_fallback": article.shown_language != active,
            "corrections": corrections,
            # Parts that bring their own template (the story template lays out
            # the others itself).
            "more_parts": [
                {"template": on_page.template, "rows": rows[part.relation]}
                for part, on_page in shown
                if on_page.template and rows[part.relation]
            ],
            "json_ld": json_ld(
                self.schema_data(
                    article,
                    rows,
                    canonical,
                    image_url,
                    corrections,
                    description=description,
                    authors=authors(bylines, attributions),
                    publisher=self.publisher(),
                    based_on=[
                        original_work(a) for a in attributions if a.role != CITED
                    ],
                    cited=[
                        a["url"] for a in credits if a["url"] and a["role"] == CITED
                    ],
                )
            ),
        }

    def schema_data(self, article: Article, rows: dict, *args, **kwargs) -> dict:
        """The story's NewsArticle data, as each part that says so changes it (a
        live coverage makes it a LiveBlogPosting with its updates)."""
        data = news_article_data(article, *args, **kwargs)
        for part in story_parts():
            on_page = presentation_of(part)
            if on_page.schema is not None:
                data = on_page.schema(data, article, rows[part.relation])
        return data

    def fragments(self) -> dict:
        """The story rendered: its title, meta tags and article element, with the
        edition links the page's head needs. Plain data, so it can be cached."""
        article = self.article
        context = self.context()
        return {
            "title": article.headline,
            "meta": render_to_string(
                "articles/fragments/meta.html", context, self.request
            ),
            "story": render_to_string(
                "articles/fragments/story.html", context, self.request
            ),
            "hreflang_languages": [
                code
                for code, _name in settings.LANGUAGES
                if getattr(article, f"headline_{code}", "")
            ],
            "alternate_urls": self.edition_urls(),
            "feed": self.section_feed(),
        }

    def section_feed(self) -> tuple[str, str] | None:
        """The story's section's feed, offered beside the edition's."""
        section = self.article.section
        if section is None:
            return None
        url = reverse("articles:section-feed", kwargs={"slug": section.slug})
        return url, section.name

    def related_html(self) -> str:
        """The related stories, rendered."""
        return self.related_shown()[0]

    def related_shown(self) -> tuple[str, frozenset[str]]:
        """The related stories, rendered, and the surrogate keys (edge.keys) a page
        showing them is purged by: theirs, and those of the tags and people that
        choose them, which a story joining them carries."""
        related = self.related()
        html = render_to_string(
            "articles/fragments/related.html", {"related": related}, self.request
        )
        keys = {key_of(story) for story in related}
        for model, pks in relating(self.article).items():
            keys.update(key_of(model, pk) for pk in pks)
        return html, frozenset(keys)


def page_context(story: dict, related_html: str) -> dict:
    """What the article page's template reads of a rendered story."""
    return {
        "fragments": story,
        "page_feed": story.get("feed"),
        "related_html": related_html,
        "hreflang_languages": story["hreflang_languages"],
        "alternate_urls": story["alternate_urls"],
    }


def story_page_context(request, article: Article, *, edition_urls=None) -> dict:
    """A story rendered for the article page's template: the one function the
    previews call (the public page renders the same parts, through its cache)."""
    page = StoryPage(request, article, edition_urls=edition_urls)
    return page_context(page.fragments(), page.related_html())


def authors(bylines: Sequence[str], attributions: Sequence) -> list[dict]:
    """The story's authors for schema.org: its bylines' public names; copy without
    a byline is the work of the outlets it is republished from or credits as the
    original reporting."""
    if bylines:
        return [{"@type": "Person", "name": name} for name in bylines]
    return [
        _organization(a.source)
        for a in attributions
        if a.role in (REPUBLISHED, ORIGINAL)
    ]


def original_work(attribution) -> dict:
    """The work a story is based on: its address and date where the desk knows
    them, and always the outlet that published it."""
    work = {"@type": "CreativeWork", "publisher": _organization(attribution.source)}
    url = safe_url(attribution.original_url)
    if url:
        work["url"] = url
    if attribution.original_published_on:
        work["datePublished"] = attribution.original_published_on
    return work


def _organization(source) -> dict:
    organization = {"@type": "NewsMediaOrganization", "name": source.name}
    homepage = safe_url(source.homepage)
    if homepage:
        organization["url"] = homepage
    return organization


def news_article_data(
    article: Article,
    url: str,
    image_url: str,
    corrections: Sequence[CorrectionItem] = (),
    *,
    description: str = "",
    authors: Sequence[dict] = (),
    publisher: dict | None = None,
    based_on: Sequence[dict] = (),
    cited: Sequence[str] = (),
) -> dict:
    """schema.org NewsArticle data: the bylines' public names are the only people
    it names (never the people in the story, protected or not).

    `dateModified` follows the latest correction, since adding one touches the story;
    `isBasedOn` and `citation` are the original reporting the story credits.
    """
    data = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": article.headline,
        "description": description,
        "inLanguage": article.shown_language,
        "datePublished": article.published_at,
        "dateModified": article.updated_at,
        "mainEntityOfPage": url,
        "isAccessibleForFree": True,
    }
    if image_url:
        data["image"] = [image_url]
    if authors:
        data["author"] = list(authors)
    if publisher:
        data["publisher"] = publisher
    if based_on:
        data["isBasedOn"] = list(based_on)
    if cited:
        data["citation"] = list(cited)
    if corrections:
        data["correction"] = [
            {
                "@type": "CorrectionComment",
                "text": correction.text,
                "datePublished": correction.created_at,
            }
            for correction in corrections
        ]
    return data
