"""How stories are read: what readers may see, lists, related stories, the desk."""

from datetime import timedelta

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from .status import Status

# What a teaser shows of its hero image (the image's search text stays unread).
_TEASER_IMAGE_FIELDS = [
    "hero_image",
    "hero_image__file",
    "hero_image__width",
    "hero_image__height",
    "hero_image__is_graphic",
    "hero_image__alt_text",
    *[f"hero_image__alt_text_{code}" for code, _name in settings.LANGUAGES],
]

# Related stories are chosen among this many of the newest stories sharing a tag or
# a person with the one shown.
RELATED_POOL = 500


def relating(article: models.Model) -> dict[type[models.Model], list]:
    """What a story's related stories share with it (`related_to`): the primary
    keys of its tags and of the people it names, by model."""
    tags = article.tags.all()
    named = article.people_named.all()
    person = named.model._meta.get_field("person").related_model
    return {
        tags.model: [tag.pk for tag in tags],
        person: [link.person_id for link in named],
    }


def readers_see(at) -> models.Q:
    """What published() keeps, as a condition: published, dated `at` or earlier,
    and not under an embargo that has yet to lift."""
    return models.Q(status=Status.PUBLISHED, published_at__lte=at) & ~models.Q(
        embargo_until__gt=at
    )


class ArticleQuerySet(models.QuerySet):
    def published(self, *, at=None) -> "ArticleQuerySet":
        """Articles readers may see: published, dated now or earlier, and not under
        an embargo that has yet to lift. Every public output reads this."""
        return self.filter(readers_see(at or timezone.now()))

    def scheduled(self, *, at=None) -> "ArticleQuerySet":
        """Published stories that go live later by themselves."""
        return self.filter(
            status=Status.PUBLISHED, published_at__gt=at or timezone.now()
        )

    def embargoed(self, *, at=None) -> "ArticleQuerySet":
        """Stories held back until their embargo lifts, whatever their status."""
        return self.filter(embargo_until__gt=at or timezone.now()).exclude(
            status=Status.KILLED
        )

    def drafts_of(self, user) -> "ArticleQuerySet":
        """Drafts `user` started or is in the byline of: the desk's "my drafts"."""
        from .byline import Byline

        signed = Byline.objects.filter(user=user).order_by().values("article_id")
        return self.filter(status=Status.DRAFT).filter(
            models.Q(created_by=user) | models.Q(pk__in=signed)
        )

    def available_in(self, language: str) -> "ArticleQuerySet":
        """Articles with a headline written in `language`, for that edition's lists."""
        return self.exclude(**{f"headline_{language}": ""}).exclude(
            **{f"headline_{language}__isnull": True}
        )

    def latest_first(self, *, by_index: bool = True) -> "ArticleQuerySet":
        """Newest first. With `by_index=False` the same order is read from an
        expression no index holds: PostgreSQL then fetches the rows the other
        conditions pick (a search's matches in a slice of dates) and sorts them,
        rather than walk the newest-first index testing story after story."""
        if by_index:
            return self.order_by("-published_at", "-pk")
        published = models.F("published_at") + models.Value(timedelta(0))
        return self.order_by(published.desc(), "-pk")

    def for_listing(self, *also: str) -> "ArticleQuerySet":
        """What a list of teasers shows, fetched in a fixed number of queries;
        `also` names further fields to load (search results load the body)."""
        return (
            self.select_related("section", "hero_image")
            .prefetch_related("hero_image__renditions")
            .only(
                *also,
                *[f"headline_{code}" for code, _name in settings.LANGUAGES],
                *[f"slug_{code}" for code, _name in settings.LANGUAGES],
                *[f"summary_{code}" for code, _name in settings.LANGUAGES],
                *[f"kicker_{code}" for code, _name in settings.LANGUAGES],
                "headline",
                "slug",
                "summary",
                "kicker",
                "language",
                "published_at",
                "is_breaking",
                "section__name",
                "section__slug",
                "status",
                *_TEASER_IMAGE_FIELDS,
            )
        )

    def related_to(self, article: models.Model) -> "ArticleQuerySet":
        """Stories sharing tags or people with `article`, the most shared first,
        among the RELATED_POOL newest that share any.

        The pool is read from the tag and people link tables' indexes, so the query
        never joins the archive: joining every story to its tags and people and
        filtering on either took seconds at 100,000 stories.
        """
        from taggit.models import TaggedItem

        from .person import ArticlePerson

        tag_ids, person_ids = relating(article).values()
        kind = ContentType.objects.get_for_model(self.model)
        tagged = TaggedItem.objects.filter(content_type=kind, tag_id__in=tag_ids)
        named = ArticlePerson.objects.filter(person_id__in=person_ids)
        parts = [
            links.order_by().values_list(column, flat=True)
            for links, ids, column in (
                (tagged, tag_ids, "object_id"),
                (named, person_ids, "article_id"),
            )
            if ids
        ]
        if not parts:
            return self.none()
        pool = parts[0].union(*parts[1:]) if len(parts) > 1 else parts[0]
        pool = pool.order_by(f"-{pool.query.values_select[0]}")[:RELATED_POOL]
        shared = [
            Coalesce(
                Subquery(
                    links.filter(**{column: OuterRef("pk")})
                    .order_by()
                    .values(column)
                    .annotate(n=models.Count("pk"))
                    .values("n")
                ),
                0,
            )
            for links, column in ((tagged, "object_id"), (named, "article_id"))
        ]
        return (
            self.exclude(pk=article.pk)
            .filter(pk__in=pool)
            .annotate(shared=shared[0] + shared[1])
            .order_by("-shared", "-published_at", "-pk")
        )

    def tagged(self, tag) -> "ArticleQuerySet":
        """Articles carrying `tag`.

        A semi-join ("id IN (the tag's rows)") rather than a join, so PostgreSQL can
        walk the latest-first index and stop after a page, instead of fetching and
        sorting every story the tag was ever put on.
        """
        from taggit.models import TaggedItem

        kind = ContentType.objects.get_for_model(self.model)
        rows = TaggedItem.objects.filter(tag=tag, content_type=kind)
        return self.filter(pk__in=rows.order_by().values("object_id"))

    def naming(self, person) -> "ArticleQuerySet":
        """Articles naming `person` (a semi-join, as in `tagged`)."""
        from .person import ArticlePerson

        links = ArticlePerson.objects.filter(person=person)
        return self.filter(pk__in=links.order_by().values("article_id"))

    def breaking_first(self) -> "ArticleQuerySet":
        """Breaking news on top, then the latest."""
        return self.order_by("-is_breaking", "-published_at", "-pk")

    def for_detail(self) -> "ArticleQuerySet":
        """Everything the article page shows, in a fixed number of queries: the
        story's section and hero image, its tags and each declared part."""
        from ..parts import story_parts

        parts = story_parts()
        return (
            self.select_related(
                "section",
                "hero_image",
                *[name for part in parts for name in part.selected],
            )
            .defer("search_text", "search_vector")
            .prefetch_related(
                "hero_image__renditions",
                *[part.prefetch() for part in parts if part.prefetched],
                "tags",
            )
        )

    def for_gate(self) -> "ArticleQuerySet":
        """The few columns the article page reads on every request: whether the
        story is public, its address and what its cached fragments are keyed by."""
        return self.only(
            "status",
            "published_at",
            "embargo_until",
            "language",
            "version",
            "updated_at",
            "slug",
            *[f"slug_{code}" for code, _name in settings.LANGUAGES],
        )
