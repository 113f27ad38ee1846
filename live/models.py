"""A live coverage: a story that carries short timestamped entries while news breaks.

The coverage (its state and times) is a row of its own beside the story; its entries
are a declared part of the story (live.apps), so the identity gate reads them, and
the page shows them, through the one declaration (articles.parts). Entries are rows,
not fields of the story: two editors adding entries at once never conflict with the
story's version, nor with each other.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from articles.body import sanitize_html

PAGE_SIZE = 50


class LiveCoverage(models.Model):
    """The live state of a story: started, paused, ended, and when."""

    class State(models.TextChoices):
        LIVE = "live", _("Live")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Ended")

    article = models.OneToOneField(
        "articles.Article",
        on_delete=models.CASCADE,
        related_name="live_coverage",
        verbose_name=_("article"),
    )
    state = models.CharField(_("live state"), max_length=10, choices=State)
    started_at = models.DateTimeField(_("coverage started"), default=timezone.now)
    ended_at = models.DateTimeField(_("coverage ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("live coverage")
        verbose_name_plural = _("live coverages")
        indexes = [models.Index(fields=["state"], name="live_coverage_state")]

    def __str__(self) -> str:
        return str(self.get_state_display())

    @property
    def is_running(self) -> bool:
        """Live or paused: readers' pages keep asking for updates."""
        return self.state != self.State.ENDED


class LiveEntryQuerySet(models.QuerySet):
    def newest_first(self) -> "LiveEntryQuerySet":
        return self.order_by("-posted_at", "-pk")


class ShownEntries(models.Manager.from_queryset(LiveEntryQuerySet)):
    """Entries not deleted: the only ones the page, the feed and the gate read (a
    deleted entry is kept for the record, never shown)."""

    def get_queryset(self) -> LiveEntryQuerySet:
        return super().get_queryset().filter(deleted_at__isnull=True)


class LiveEntry(models.Model):
    """One timestamped entry of a live coverage, written from the desk."""

    article = models.ForeignKey(
        "articles.Article",
        on_delete=models.CASCADE,
        related_name="live_entries",
        verbose_name=_("article"),
    )
    posted_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)
    headline = models.CharField(
        _("short headline"), max_length=200, blank=True, help_text=_("Optional.")
    )
    body = models.TextField(_("text"), blank=True)
    post = models.ForeignKey(
        "articles.SocialPost",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("social post"),
        help_text=_("A post of this story, shown in the entry."),
    )
    image = models.ForeignKey(
        "images.Image",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("image"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("author"),
    )
    is_key_event = models.BooleanField(_("key event"), default=False)
    is_pinned = models.BooleanField(_("pinned"), default=False)
    # A correction printed on the entry itself, as facts firm up.
    correction = models.TextField(_("correction"), blank=True)
    corrected_at = models.DateTimeField(_("corrected at"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)
    deleted_reason = models.CharField(
        _("reason for deleting"), max_length=300, blank=True
    )

    objects = ShownEntries()
    all_entries = models.Manager()

    # What the page prints of an entry (read by the identity gate): its texts, and
    # its author's name (staff names are printed as bylines are).
    public_fields = ("headline", "body", "correction", "author_name")
    public_field_labels = {"author_name": _("author")}
    printed_together = (("headline", "body"),)

    class Meta:
        # The related manager the story's part reads is the default one: not deleted.
        base_manager_name = "all_entries"
        ordering = ["-posted_at", "-pk"]
        verbose_name = _("live entry")
        verbose_name_plural = _("live entries")
        indexes = [
            models.Index(
                fields=["article", "-posted_at", "-id"],
                name="live_entry_newest",
                condition=models.Q(deleted_at__isnull=True),
            ),
            # The pinned few, without reading the coverage's thousands.
            models.Index(
                fields=["article"],
                name="live_entry_pinned",
                condition=models.Q(deleted_at__isnull=True, is_pinned=True),
            ),
        ]

    def __str__(self) -> str:
        return self.headline or f"#{self.pk}"

    @property
    def author_name(self) -> str:
        """The author's name as bylines print a staff member's."""
        if not self.author_id:
            return ""
        return self.author.get_full_name() or self.author.get_username()

    @property
    def anchor(self) -> str:
        """The entry's id in the page: its own address is the page's with it."""
        return f"entry-{self.pk}"

    def save(self, *args, **kwargs) -> None:
        # Only what the body editor can make is kept, in every language.
        for code, _name in settings.LANGUAGES:
            field = f"body_{code}"
            setattr(self, field, sanitize_html(getattr(self, field, "") or ""))
        super().save(*args, **kwargs)
