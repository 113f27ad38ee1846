"""Lists of published teasers: home, sections, tags and people."""

from django.conf import settings
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language, gettext
from django.views.generic import ListView
from taggit.models import Tag

from articles.models import Article, Section
from core.pagination import BadCursor, CountlessPaginator, keyset_page
from edge.keys import HOME, LISTS, key_of, mark
from identity.cache import current_gate
from identity.models import Person

PAGE_SIZE = 20


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
    paginator_class = CountlessPaginator
    template_name = "articles/article_list.html"
    context_object_name = "articles"
    # The list's order, newest first, which its "older stories" cursors follow; a
    # matching index in articles.models.article keeps every page one indexed read.
    keyset = ("-published_at", "-pk")
    # What paginate_queryset() reads; the page cache keys pages on these alone and
    # drops any other parameter (publishing/page_cache.py).
    query_parameters = ("page", "before", "after")

    def published(self):
        return (
            Article.objects.published()
            .available_in(get_language() or settings.LANGUAGE_CODE)
            .for_listing()
        )

    def get_queryset(self):
        return self.published().latest_first()

    def paginate_queryset(self, queryset, page_size):
        """Keyset pages (`?before=` / `?after=` cursors) unless an old `?page=`
        address asks for a numbered page, which still answers."""
        params = self.request.GET
        if not self.keyset or "page" in params:
            return super().paginate_queryset(queryset, page_size)
        try:
            page = keyset_page(
                queryset,
                self.keyset,
                per_page=page_size,
                before=params.get("before", ""),
                after=params.get("after", ""),
            )
        except BadCursor:
            raise Http404(gettext("This list has no such page.")) from None
        if not page.object_list and page.has_previous():
            raise Http404(gettext("This list has no such page."))
        return None, page, page.object_list, page.has_other_pages()

    def feed(self) -> tuple[str, str] | None:
        """This list's RSS feed, as (address, title), for readers' feed finders."""
        return None

    def get_context_data(self, **kwargs):
        return super().get_context_data(page_feed=self.feed(), **kwargs)

    def edge_keys(self) -> set[str]:
        """The list's own key (edge.keys): its section, tag, person or source."""
        return {LISTS}

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        shown = context.get(self.context_object_name) or ()
        return mark(response, {*self.edge_keys(), *map(key_of, shown)})


class HomeView(ArticleListView):
    template_name = "articles/home.html"
    keyset = ("-is_breaking", "-published_at", "-pk")

    def get_queryset(self):
        return self.published().breaking_first()

    def edge_keys(self) -> set[str]:
        return {LISTS, HOME}

    def feed(self) -> tuple[str, str]:
        return reverse("articles:feed"), gettext("Newsroom")


class SectionView(ArticleListView):
    def get_queryset(self):
        self.section = get_object_or_404(Section, slug=self.kwargs["slug"])
        return super().get_queryset().filter(section=self.section)

    def feed(self) -> tuple[str, str]:
        url = reverse("articles:section-feed", kwargs={"slug": self.section.slug})
        return url, self.section.name

    def edge_keys(self) -> set[str]:
        return {LISTS, key_of(self.section)}

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
        return super().get_queryset().tagged(self.tag)

    def feed(self) -> tuple[str, str]:
        return reverse(
            "articles:tag-feed", kwargs={"slug": self.tag.slug}
        ), self.tag.name

    def edge_keys(self) -> set[str]:
        return {LISTS, key_of(self.tag)}

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
        return super().get_queryset().naming(self.person)

    def feed(self) -> tuple[str, str]:
        url = reverse(
            "articles:person-feed",
            kwargs={"pk": self.person.pk, "slug": self.person.slug},
        )
        return url, self.person.display_name

    def edge_keys(self) -> set[str]:
        return {LISTS, key_of(self.person)}

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            person_name=self.person.display_name,
            person_description=public_description(self.person),
            alternate_urls=other_languages_urls(self.person),
            **kwargs,
        )


def public_description(person: Person) -> str:
    """The person's description, withheld if it would reveal a protected legal name."""
    if person.identity_protected and current_gate().reveals(person, person.description):
        return ""
    return person.description
