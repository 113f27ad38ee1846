"""The article page, and the NewsArticle data it carries."""

from collections.abc import Sequence
from functools import cache

from django.conf import settings
from django.db import connections, router
from django.db.models.functions import Now
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.http import http_date
from django.utils.translation import get_language, gettext
from django.views.generic import DetailView

from images.renditions import images_with_renditions, social_card_url
from newsroom import generations, prepared
from newsroom.text import safe_url

from .. import fragments
from ..body import embedded_ids
from ..models import Article, Status
from ..navigation import navigation_part
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


# Stands for the story's pk while the gate's SQL is compiled (no story has it).
_PK_MARK = -7_301_999


@cache
def _gate_sql(alias: str) -> tuple[str, tuple, int, tuple[str, ...], dict]:
    """The SQL of `published().for_gate()` for one story, compiled once per process
    and database: building it (modeltranslation adds each language's columns) cost
    more than running it. "Now" is the database's clock, so the SQL stays the same
    from one request to the next (and PostgreSQL runs it prepared, planned once per
    connection: newsroom/prepared.py); the rule is still `published()`'s own.

    Returns the SQL, its parameters, the position of the story's pk in them, the
    names of the fields it selects, in order, and the converters of their values.

    Django has no public API for a queryset's SQL, selected columns and converters;
    this reads the compiler's (get_compiler(), as_sql(), select, get_converters()),
    checked against Django 5.2. tests/articles/test_gate.py pins what it relies on:
    test_the_gate_reads_the_story_as_the_orm_does compares every field read.
    """
    story = Article.objects.for_gate().published(at=Now()).filter(pk=_PK_MARK)
    compiler = story.order_by().query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    (position,) = [i for i, value in enumerate(params) if value == _PK_MARK]
    columns = [column for column, _sql, _alias in compiler.select]
    fields = tuple(column.target.attname for column in columns)
    return sql, tuple(params), position, fields, compiler.get_converters(columns)


def public_story(pk: int) -> Article | None:
    """The story if readers may see it now, with the few columns of for_gate()."""
    if not 0 < pk < 2**63:  # no row has it, and databases refuse such a number
        return None
    alias = router.db_for_read(Article)
    sql, params, position, fields, converters = _gate_sql(alias)
    params = params[:position] + (pk,) + params[position + 1 :]
    # Straight through the cursor: a raw queryset cost more than the query.
    connection = connections[alias]
    row = prepared.fetch_one(connection, "newsroom_story_gate", sql, params)
    if row is None:
        return None
    values = list(row)
    for index, (functions, column) in converters.items():
        for convert in functions:
            values[index] = convert(values[index], column, connection)
    return Article.from_db(alias, fields, values)


class ArticlePageMixin:
    """The article page, built from `self.object`: the public page and the previews
    share it, so a story is put together one way wherever it is shown."""

    template_name = "articles/article_detail.html"
    context_object_name = "article"

    def edition_urls(self) -> dict[str, str]:
        """This page in every edition, for hreflang and the language switch."""
        return other_languages_urls(self.object)

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

    def related(self, article: Article) -> list[Article]:
        """Up to five published stories sharing its tags or people."""
        language = get_language() or settings.LANGUAGE_CODE
        stories = Article.objects.published().available_in(language).for_listing()
        return list(stories.related_to(article)[:RELATED_STORIES])

    def story_context(self) -> dict:
        """What the story's fragments show, read from `self.object` and its rows."""
        article = self.object
        active = get_language() or settings.LANGUAGE_CODE
        attributions = list(article.attributions.all())
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
        corrections = correction_items(article.corrections.all())
        bylines = [b.display_name for b in article.bylines.all() if b.display_name]
        credits = [
            {"source": a.source, "role": a.role, "url": safe_url(a.original_url)}
            for a in attributions
        ]
        return {
            "article": article,
            "body": body_items(
                article.body,
                list(article.social_posts.all()),
                images=images_with_renditions(embedded_ids(article.body, "image")),
                rtl=direction(languages["body"]) == "rtl",
            ),
            "bylines": bylines,
            "people": list(article.people_named.all()),
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
            "json_ld": json_ld(
                news_article_data(
                    article,
                    canonical,
                    image_url,
                    corrections,
                    authors=bylines,
                    publisher=self.publisher(),
                    based_on=[
                        a["url"] for a in credits if a["url"] and a["role"] != "cited"
                    ],
                    cited=[
                        a["url"] for a in credits if a["url"] and a["role"] == "cited"
                    ],
                )
            ),
        }

    def story_fragments(self) -> dict:
        """The story rendered: its title, meta tags and article element, with the
        edition links the page's head needs. Plain data, so it can be cached."""
        article = self.object
        context = self.story_context()
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
        }

    def related_fragment(self) -> str:
        """The related stories, rendered."""
        return render_to_string(
            "articles/fragments/related.html",
            {"related": self.related(self.object)},
            self.request,
        )

    def page_fragments(self) -> tuple[dict, str]:
        """The story's fragments and the related stories, rendered."""
        return self.story_fragments(), self.related_fragment()

    def get_context_data(self, **kwargs):
        story, related_html = self.page_fragments()
        return super().get_context_data(
            fragments=story,
            related_html=related_html,
            hreflang_languages=story["hreflang_languages"],
            alternate_urls=story["alternate_urls"],
            **kwargs,
        )


class ArticleDetailView(ArticlePageMixin, DetailView):
    """One published article; any other slug redirects to the canonical address.

    Whether the story is public is read from the database on every request (one
    query by primary key); what it shows comes from cached fragments
    (articles/fragments.py), rendered from its rows only when the story, or
    anything it shows, has changed.
    """

    # Reads no query parameter: every query string is the same page to the cache.
    query_parameters = ()

    def get(self, request, *args, **kwargs):
        self.object = public_story(kwargs["pk"])
        if self.object is None:
            if Article.objects.filter(pk=kwargs["pk"], status=Status.KILLED).exists():
                # Gone for good, and nothing of it is shown, not even the headline.
                return render(request, "articles/article_killed.html", status=410)
            raise Http404
        if kwargs.get("slug") != (self.object.slug or "-"):
            return redirect(self.object.get_absolute_url(), permanent=True)
        response = self.render_to_response(self.get_context_data(object=self.object))
        # With the ETag, lets ConditionalGetMiddleware answer If-Modified-Since.
        response["Last-Modified"] = http_date(self.object.updated_at.timestamp())
        return response

    def page_fragments(self) -> tuple[dict, str]:
        # With the menu and banner, in one round trip to the cache.
        story, related_html, self.navigation_html = generations.cached(
            fragments.story_part(self.object, self.request, self._rendered_story),
            fragments.related_part(self.object, self.related_fragment),
            navigation_part(),
        )
        return story, related_html

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)  # reads page_fragments()
        context["navigation_html"] = self.navigation_html
        return context

    def _rendered_story(self) -> dict:
        # The story and its rows are read only here, when its fragments are
        # rendered (the gate has just found it public); the related stories, if
        # they are rendered too, reuse its tags and people.
        self.object = Article.objects.for_detail().get(pk=self.object.pk)
        return self.story_fragments()


def news_article_data(
    article: Article,
    url: str,
    image_url: str,
    corrections: Sequence[CorrectionItem] = (),
    *,
    authors: Sequence[str] = (),
    publisher: dict | None = None,
    based_on: Sequence[str] = (),
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
        "description": article.summary,
        "inLanguage": article.shown_language,
        "datePublished": article.published_at,
        "dateModified": article.updated_at,
        "mainEntityOfPage": url,
        "isAccessibleForFree": True,
    }
    if image_url:
        data["image"] = [image_url]
    if authors:
        data["author"] = [{"@type": "Person", "name": name} for name in authors]
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
