"""The story itself: copy in two languages, its desk, bylines, tags and hero image."""

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.html import strip_tags
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from taggit.managers import TaggableManager

from arabic import normalize, search_fold
from arabic.slugs import unicode_slug

from ..body import lead_text, sanitize_html
from .queryset import ArticleQuerySet
from .status import Status


class Article(models.Model):
    class Language(models.TextChoices):
        ARABIC = "ar", _("Arabic")
        ENGLISH = "en", _("English")

    headline = models.CharField(_("headline"), max_length=300, blank=True)
    kicker = models.CharField(
        _("kicker"),
        max_length=120,
        blank=True,
        help_text=_("Short label above the headline."),
    )
    summary = models.TextField(_("summary"), blank=True)
    body = models.TextField(
        _("body"),
        blank=True,
        help_text=_(
            "Write and format the story here. The toolbar's post and image buttons "
            "place one of the story's social posts, or a library image, at the cursor."
        ),
    )
    slug = models.SlugField(_("slug"), max_length=100, allow_unicode=True, blank=True)
    language = models.CharField(
        _("original language"), max_length=5, choices=Language, default=Language.ARABIC
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status, default=Status.DRAFT, db_index=True
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    embargo_until = models.DateTimeField(
        _("embargo until"),
        null=True,
        blank=True,
        help_text=_(
            "Keeps the story out of every public page, list, feed and search until "
            "this moment, even once published; it lifts by itself."
        ),
    )
    section = models.ForeignKey(
        "articles.Section",
        on_delete=models.PROTECT,
        related_name="articles",
        null=True,
        blank=True,
        verbose_name=_("section"),
    )
    is_breaking = models.BooleanField(_("breaking news"), default=False)
    hero_image = models.ForeignKey(
        "images.Image",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hero_of",
        verbose_name=_("hero image"),
        help_text=_("Chosen from the image library; “+” uploads a new one."),
    )
    hero_caption = models.CharField(
        _("caption in this story"),
        max_length=300,
        blank=True,
        help_text=_("Leave empty to use the image's own caption."),
    )
    people = models.ManyToManyField(
        "identity.Person",
        through="articles.ArticlePerson",
        related_name="articles",
        blank=True,
    )
    tags = TaggableManager(_("tags"), blank=True)
    search_text = models.TextField(editable=False, blank=True)
    # PostgreSQL's full-text index of the folded copy (articles.search_index); on other
    # databases the column stays empty and search reads search_text instead.
    search_vector = SearchVectorField(null=True, editable=False)
    # The folded headline in the story's own language: finds a story imported twice
    # without scanning every article.
    headline_key = models.CharField(
        max_length=300, editable=False, blank=True, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("created by"),
    )
    updated_at = models.DateTimeField(auto_now=True)
    # Counts the saves made through the services; a form carries the number it was
    # opened at, so a save based on an older version is never applied silently.
    version = models.PositiveIntegerField(default=1, editable=False)

    objects = ArticleQuerySet.as_manager()

    # What public output shows of the story itself (read by the identity gate); the
    # hero image is a row of its own, which story_rows() brings along.
    public_fields = (
        "kicker",
        "headline",
        "summary",
        "body",
        "slug",
        "hero_caption",
    )
    # Printed one after another at the top of the page: a name split between them
    # is read whole (identity gate).
    printed_together = (("kicker", "headline", "summary"),)

    class Meta:
        ordering = ["-published_at", "-pk"]
        verbose_name = _("article")
        verbose_name_plural = _("articles")
        indexes = [
            models.Index(fields=["status", "-published_at"]),
            # Created on PostgreSQL only (see migration 0012).
            GinIndex(fields=["search_vector"], name="article_search_vector"),
            # Each public list reads its order straight off one of these, from the
            # top or from a keyset cursor, without sorting or counting the archive
            # (docs/performance.md has the plans). Partial: drafts never list.
            models.Index(
                F("is_breaking").desc(),
                F("published_at").desc(),
                F("id").desc(),
                name="article_home",
                condition=Q(status="published"),
            ),
            models.Index(
                F("published_at").desc(),
                F("id").desc(),
                name="article_latest",
                condition=Q(status="published"),
            ),
            models.Index(
                "section",
                F("published_at").desc(),
                F("id").desc(),
                name="article_section_latest",
                condition=Q(status="published"),
            ),
            # The admin's changelist order, drafts (no date) first as PostgreSQL
            # sorts them.
            models.Index(
                F("published_at").desc(), F("id").desc(), name="article_desk_order"
            ),
            # Trigrams of the folded text for the admin's substring search;
            # created on PostgreSQL only (see its migration).
            GinIndex(
                fields=["search_text"],
                name="article_search_text_trgm",
                opclasses=["gin_trgm_ops"],
            ),
        ]
        permissions = [
            ("edit_any_article", "Can edit any story, not only own drafts"),
            ("review_article", "Can approve stories or send them back"),
            ("publish_article", "Can publish and schedule articles"),
            ("unpublish_article", "Can take published articles off the site"),
            ("kill_article", "Can kill a story (legal or ethical removal)"),
        ]

    def __str__(self) -> str:
        return self.headline or f"#{self.pk}"

    @classmethod
    def from_db(cls, db, field_names, values):
        article = super().from_db(db, field_names, values)
        # The headlines as loaded, so save() can tell whether a slug still follows
        # its headline (read from `values`: touching a deferred field would query).
        loaded = dict(zip(field_names, values, strict=False))
        article._loaded_headlines = {
            code: loaded[f"headline_{code}"]
            for code, _name in settings.LANGUAGES
            if f"headline_{code}" in loaded
        }
        return article

    def get_absolute_url(self) -> str:
        return reverse(
            "articles:detail", kwargs={"pk": self.pk, "slug": self.slug or "-"}
        )

    @property
    def is_public(self) -> bool:
        """The same rule as ArticleQuerySet.published(), for one loaded story."""
        now = timezone.now()
        return (
            self.status == Status.PUBLISHED
            and self.published_at is not None
            and self.published_at <= now
            and not self.is_embargoed
        )

    @property
    def is_embargoed(self) -> bool:
        return self.embargo_until is not None and self.embargo_until > timezone.now()

    @property
    def is_scheduled(self) -> bool:
        return (
            self.status == Status.PUBLISHED
            and self.published_at is not None
            and self.published_at > timezone.now()
        )

    @property
    def shown_language(self) -> str:
        """The language the headline is shown in for the active edition."""
        language = get_language() or settings.LANGUAGE_CODE
        if getattr(self, f"headline_{language}", ""):
            return language
        return self.language

    @property
    def description(self) -> str:
        """What the story says of itself where a teaser goes (meta description,
        social cards, feeds): its summary, or else its first paragraph, shortened."""
        return self.summary or lead_text(self.body)  # type: ignore[attr-defined]

    @property
    def shown_direction(self) -> str:
        return "rtl" if self.shown_language == "ar" else "ltr"

    def clean(self) -> None:
        if not getattr(self, f"headline_{self.language}", ""):
            raise ValidationError(
                {
                    f"headline_{self.language}": _(
                        "A headline in the story's language is required."
                    )
                }
            )
        if self.status == Status.PUBLISHED and not self.published_at:
            self.published_at = timezone.now()

    def derive_fields(self) -> None:
        """Fill what a save derives from the row itself: sanitized bodies, slugs,
        the publication time, the duplicate key and the folded search text.

        save() calls it; bulk writers (seed_newsroom) call it before bulk_create so
        their rows are the same as saved ones.
        """
        for code, _name in settings.LANGUAGES:
            body = getattr(self, f"body_{code}", "")
            if body:
                setattr(self, f"body_{code}", sanitize_html(body))
            self._derive_slug(code)
        if self.status == Status.PUBLISHED and not self.published_at:
            self.published_at = timezone.now()
        headline = getattr(self, f"headline_{self.language}", "")
        self.headline_key = normalize(headline)[:300]
        for name, value in self.search_columns().items():
            setattr(self, name, value)

    def search_columns(self) -> dict[str, str]:
        """The folded search text derived from the story's words."""
        text = " ".join(
            strip_tags(getattr(self, f"{field}_{code}", "") or "")
            for field in ("kicker", "headline", "summary", "body")
            for code, _name in settings.LANGUAGES
        )
        return {"search_text": search_fold(text)}

    def save(self, *args, index: bool = True, **kwargs) -> None:
        """Save with the derived fields; `index=False` leaves the search vector to a
        later save in the same change (a service that writes the row twice)."""
        self.derive_fields()
        super().save(*args, **kwargs)
        from ..search_index import index_article  # the index reads this model

        if index:
            index_article(self)
        self._loaded_headlines = {
            code: getattr(self, f"headline_{code}", "")
            for code, _ in settings.LANGUAGES
        }

    def _derive_slug(self, code: str) -> None:
        """Make the slug from the headline, and remake it when the headline changes.

        A slug the editor typed by hand stays; one made from an earlier headline
        follows the new one, so no earlier wording survives in the address (old
        addresses still redirect, since articles are found by number).
        """
        headline = getattr(self, f"headline_{code}", "") or ""
        slug = getattr(self, f"slug_{code}", "") or ""
        loaded = getattr(self, "_loaded_headlines", {}).get(code)
        follows = slug == unicode_slug(loaded or "")
        if headline and (not slug or (follows and loaded != headline)):
            setattr(self, f"slug_{code}", unicode_slug(headline))
