"""Reader-facing pages: home, articles, lists by section, tag and person, and the
previews of a story before it is published (for editors and through share links)."""

import logging
from collections.abc import Sequence
from datetime import date

from django.conf import settings
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.dateparse import parse_date
from django.utils.decorators import method_decorator
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.generic import DetailView, ListView
from taggit.models import Tag

from newsroom.text import safe_url

from . import search
from .identity import IdentityGate, story_rows
from .models import (
    Article,
    Person,
    PreviewLink,
    PreviewLinkClosed,
    Section,
    Status,
)
from .rendering import (
    CorrectionItem,
    body_items,
    correction_items,
    direction,
    field_language,
    json_ld,
)

logger = logging.getLogger(__name__)

PAGE_SIZE = 20
RELATED_STORIES = 5


def other_languages_urls(obj) -> dict[str, str]:
    """The object's URL in every edition, for hreflang and the language switch."""
    urls = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            urls[code] = obj.get_absolute_url()
    return urls


class ArticleListView(ListView):
    """A paginated list of published teasers in the active edition."""

    model = Article
    paginate_by = PAGE_SIZE
    template_name = "articles/article_list.html"
    context_object_name = "articles"

    def published(self):
        return (
            Article.objects.published()
            .available_in(get_language() or settings.LANGUAGE_CODE)
            .for_listing()
        )

    def get_queryset(self):
        return self.published().latest_first()

    def feed(self) -> tuple[str, str] | None:
        """This list's RSS feed, as (address, title), for readers' feed finders."""
        return None

    def get_context_data(self, **kwargs):
        feed = self.feed()
        if feed:
            url, title = feed
            kwargs.update(
                feed_url=self.request.build_absolute_uri(url), feed_title=title
            )
        return super().get_context_data(**kwargs)


class HomeView(ArticleListView):
    template_name = "articles/home.html"

    def get_queryset(self):
        return self.published().breaking_first()

    def feed(self) -> tuple[str, str]:
        return reverse("articles:feed"), gettext("Newsroom")


class SectionView(ArticleListView):
    def get_queryset(self):
        self.section = get_object_or_404(Section, slug=self.kwargs["slug"])
        return super().get_queryset().filter(section=self.section)

    def feed(self) -> tuple[str, str]:
        url = reverse("articles:section-feed", kwargs={"slug": self.section.slug})
        return url, self.section.name

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            heading=self.section.name,
            list_kind="section",
            description=self.section.description,
            alternate_urls=other_languages_urls(self.section),
            **kwargs,
        )


class TagView(ArticleListView):
    # A tag used only on drafts must not show that the story is coming.
    allow_empty = False

    def get_queryset(self):
        self.tag = get_object_or_404(Tag, slug=self.kwargs["slug"])
        return super().get_queryset().filter(tags=self.tag)

    def feed(self) -> tuple[str, str]:
        return reverse(
            "articles:tag-feed", kwargs={"slug": self.tag.slug}
        ), self.tag.name

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            heading=self.tag.name, list_kind="tag", **kwargs
        )


class PersonView(ArticleListView):
    template_name = "articles/person_detail.html"
    # Someone named only in drafts (often a protected source) has no public page yet.
    allow_empty = False

    def get(self, request, *args, **kwargs):
        self.person = get_object_or_404(Person, pk=kwargs["pk"])
        if kwargs["slug"] != self.person.slug:
            return redirect(self.person.get_absolute_url(), permanent=True)
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return super().get_queryset().filter(people_named__person=self.person)

    def feed(self) -> tuple[str, str]:
        url = reverse(
            "articles:person-feed",
            kwargs={"pk": self.person.pk, "slug": self.person.slug},
        )
        return url, self.person.display_name

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            person_name=self.person.display_name,
            person_description=public_description(self.person),
            alternate_urls=other_languages_urls(self.person),
            **kwargs,
        )


def date_param(value: str) -> date | None:
    """A YYYY-MM-DD query parameter, or None when it is missing or not a date."""
    try:
        return parse_date(value or "")
    except ValueError:  # well formed but impossible, such as 2025-02-30
        return None


class SearchView(ArticleListView):
    """Published stories of this edition matching `?q=`, best match first, narrowed
    by `?section=slug`, `?from=` and `?to=` (YYYY-MM-DD)."""

    template_name = "articles/search.html"

    def get_queryset(self):
        params = self.request.GET
        self.query = params.get("q", "")[: search.MAX_QUERY_LENGTH]
        self.filters = {
            "section": params.get("section", "")[:100],
            "date_from": date_param(params.get("from", "")),
            "date_to": date_param(params.get("to", "")),
        }
        return search.search_articles(
            self.query,
            language=get_language() or settings.LANGUAGE_CODE,
            section=self.filters["section"] or None,
            date_from=self.filters["date_from"],
            date_to=self.filters["date_to"],
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(
            search_query=self.query,
            searched=bool(search.query_terms(self.query)),
            **self.filters,
            **kwargs,
        )
        language = get_language() or settings.LANGUAGE_CODE
        for article in context["articles"]:
            article.snippet = search.article_snippet(
                article, self.query, language=language
            )
        return context


def public_description(person: Person) -> str:
    """The person's description, withheld if it would reveal a protected legal name."""
    return "" if person.reveals_identity(person.description) else person.description


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

    def get_context_data(self, **kwargs):
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
                "hero_alt",
            )
        }
        image_url = (
            self.request.build_absolute_uri(article.hero_image.url)
            if article.hero_image
            else ""
        )
        corrections = correction_items(article.corrections.all())
        bylines = [b.display_name for b in article.bylines.all() if b.display_name]
        credits = [
            {"source": a.source, "role": a.role, "url": safe_url(a.original_url)}
            for a in attributions
        ]
        return super().get_context_data(
            related=self.related(article),
            body=body_items(
                article.body,
                list(article.social_posts.all()),
                rtl=direction(languages["body"]) == "rtl",
            ),
            bylines=bylines,
            people=list(article.people_named.all()),
            tags=list(article.tags.all()),
            attributions=credits,
            hreflang_languages=[
                code
                for code, _name in settings.LANGUAGES
                if getattr(article, f"headline_{code}", "")
            ],
            canonical_url=canonical,
            own_url=own_url,
            image_url=image_url,
            languages=languages,
            directions={field: direction(code) for field, code in languages.items()},
            shown_language=article.shown_language,
            shown_direction=article.shown_direction,
            is_fallback=article.shown_language != active,
            corrections=corrections,
            alternate_urls=self.edition_urls(),
            json_ld=json_ld(
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
            **kwargs,
        )


class ArticleDetailView(ArticlePageMixin, DetailView):
    """One published article; any other slug redirects to the canonical address."""

    def get(self, request, *args, **kwargs):
        story = Article.objects.published().for_detail().filter(pk=kwargs["pk"])
        self.object = story.first()
        if self.object is None:
            if Article.objects.filter(pk=kwargs["pk"], status=Status.KILLED).exists():
                # Gone for good, and nothing of it is shown, not even the headline.
                return render(request, "articles/article_killed.html", status=410)
            raise Http404
        if kwargs.get("slug") != (self.object.slug or "-"):
            return redirect(self.object.get_absolute_url(), permanent=True)
        return self.render_to_response(self.get_context_data(object=self.object))


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


# ------------------------------------------------------------ previews

NOINDEX = "noindex, nofollow"


class PreviewMixin(ArticlePageMixin):
    """An article page read before publication: marked as a preview, and never
    indexed or cached, whatever the answer."""

    template_name = "articles/article_preview.html"

    @method_decorator(never_cache)
    def dispatch(self, request, *args, **kwargs):
        response = super().dispatch(request, *args, **kwargs)
        response.headers["X-Robots-Tag"] = NOINDEX
        return response

    def unavailable(self, status: int) -> TemplateResponse:
        """The same short page for every link that cannot show its story."""
        return TemplateResponse(
            self.request, "articles/preview_unavailable.html", status=status
        )


class SharedPreviewView(PreviewMixin, DetailView):
    """A story opened with a share link, by a reader who needs no account.

    A forged, tampered or unknown link answers 404, an expired or revoked one 410,
    and a story that would show a protected legal name 403; none of these pages
    says anything about the story.
    """

    def get(self, request, *args, **kwargs):
        try:
            link = PreviewLink.objects.get_signed(kwargs["signed"])
        except PreviewLink.DoesNotExist:
            return self.unavailable(404)
        except PreviewLinkClosed:
            return self.unavailable(410)
        self.object = Article.objects.for_detail().get(pk=link.article_id)
        if self.object.status == Status.KILLED:
            return self.unavailable(410)  # killed is gone, for previews too
        # The reader is public: the gate runs on every opening, since a person may
        # have become protected after the link was made.
        if IdentityGate.load().leaks(story_rows(self.object)):
            logger.warning(
                "Preview link #%s withheld story #%s: it holds a protected legal name.",
                link.pk,
                link.article_id,
            )
            return self.unavailable(403)
        context = self.get_context_data(object=self.object, preview_link=link)
        return self.render_to_response(context)

    def edition_urls(self) -> dict[str, str]:
        return {}  # the language switch then keeps the signed address


class ArticlePreviewView(PreviewMixin, DetailView):
    """The story for its editors, in the public templates: as the change form holds
    it (POST; nothing is saved) or as saved (GET).

    Attached to the article admin, which passes itself as `model_admin`; `?language=`
    shows another edition.
    """

    model_admin = None

    def dispatch(self, request, *args, **kwargs):
        language = request.GET.get("language")
        if language not in dict(settings.LANGUAGES):
            language = get_language()
        with translation.override(language):
            response = super().dispatch(request, *args, **kwargs)
            # Rendered here, while the edition's language is active.
            return response.render() if hasattr(response, "render") else response

    def story(self, request, object_id: str) -> Article:
        """The saved story, if the user may view it."""
        model_admin = self.model_admin
        if not model_admin.has_view_permission(request):
            raise PermissionDenied
        article = model_admin.get_object(request, unquote(object_id))
        if article is None:
            raise Http404
        if not model_admin.has_view_permission(request, article):
            raise PermissionDenied
        return article

    def get(self, request, object_id):
        self.object = self.story(request, object_id)
        return self.render_to_response(self.get_context_data(object=self.object))

    def post(self, request, object_id):
        article = self.story(request, object_id)
        if not self.model_admin.has_change_permission(request, article):
            raise PermissionDenied
        stored_image = article.hero_image.name
        form_class = self.model_admin.get_form(request, article, change=True)
        form = form_class(request.POST, request.FILES, instance=article)
        if not form.is_valid():
            return self.form_invalid(form)
        self.object = form.instance
        if not self.object.hero_image._committed:
            # A new upload has no address until it is saved.
            self.object.hero_image = stored_image
        context = self.get_context_data(object=self.object, preview_unsaved=True)
        return self.render_to_response(context)

    def form_invalid(self, form) -> TemplateResponse:
        """A small admin page saying the form cannot be previewed, and why."""
        errors = [
            (
                form.fields[name].label if name in form.fields else "",
                [message for error in problems for message in error.messages],
            )
            for name, problems in form.errors.as_data().items()
        ]
        context = {
            **self.model_admin.admin_site.each_context(self.request),
            "title": gettext("The story cannot be previewed"),
            "errors": errors,
        }
        return TemplateResponse(
            self.request, "admin/articles/article/preview_invalid.html", context
        )

    def edition_urls(self) -> dict[str, str]:
        url = reverse(
            "admin:articles_article_preview",
            args=[self.object.pk],
            current_app=self.model_admin.admin_site.name,
        )
        return {
            code: f"{url}?{urlencode({'language': code})}"
            for code, _name in settings.LANGUAGES
        }
