"""Partners who receive our stories, their API keys, and the release log they sync
from."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Partner(models.Model):
    """An outlet, app or aggregator that receives our stories through the API.

    What it receives is decided by one rule (`distribution.rules`): its sections,
    the sources whose copy it takes, and the sources whose rights it holds.
    """

    name = models.CharField(_("name"), max_length=200, unique=True)
    active = models.BooleanField(
        _("active"),
        default=True,
        help_text=_("An inactive partner's keys are refused until it is active again."),
    )
    sections = models.ManyToManyField(
        "articles.Section",
        blank=True,
        related_name="+",
        verbose_name=_("sections"),
        help_text=_("Only stories of these sections. Leave empty for every section."),
    )
    sources = models.ManyToManyField(
        "sources.Source",
        blank=True,
        related_name="+",
        verbose_name=_("sources it takes"),
        help_text=_(
            "Only stories whose credited sources are all among these (our own "
            "copy, crediting none, always qualifies). Leave empty for any source."
        ),
    )
    rights_sources = models.ManyToManyField(
        "sources.Source",
        blank=True,
        related_name="+",
        verbose_name=_("rights held"),
        help_text=_(
            "The sources whose rights and usage terms this partner holds. A story "
            "crediting any other source is never sent to it."
        ),
    )
    rate_limit = models.PositiveIntegerField(
        _("requests per minute"),
        default=120,
        help_text=_("Requests over this many in a minute are answered 429."),
    )
    contact = models.TextField(
        _("contact"),
        blank=True,
        help_text=_("Who to call about this partner's access: name, e-mail, phone."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("partner")
        verbose_name_plural = _("partners")

    def __str__(self) -> str:
        return self.name


class PartnerKeyQuerySet(models.QuerySet):
    def live(self) -> "PartnerKeyQuerySet":
        """Keys that open the API (revoked ones never do)."""
        return self.filter(revoked_at__isnull=True)


class PartnerKey(models.Model):
    """One API key of a partner: its prefix names it, its secret is kept only as
    a SHA-256 digest (the full key is shown once, when it is made)."""

    partner = models.ForeignKey(
        Partner,
        on_delete=models.CASCADE,
        related_name="keys",
        verbose_name=_("partner"),
    )
    prefix = models.CharField(_("prefix"), max_length=16, unique=True, editable=False)
    digest = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("created by"),
    )
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    objects = PartnerKeyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")

    def __str__(self) -> str:
        return f"{self.prefix}…"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class Event(models.TextChoices):
    """What happened to a story, as a partner is told."""

    PUBLISHED = "published", _("Published")
    UPDATED = "updated", _("Updated")
    CORRECTED = "corrected", _("Corrected")
    UNPUBLISHED = "unpublished", _("Unpublished")
    KILLED = "killed", _("Killed")


class Release(models.Model):
    """One change a partner must see, of one story in one edition.

    The log only grows. Partners sync by walking it in (visible_at, id) order: a
    scheduled story's row carries its publication time as `visible_at` and sorts
    there, so it appears after every cursor handed out before that time.
    """

    # A release outlives its story: partners given a story that is then deleted
    # still need its tombstone, so the row keeps the story's number (no database
    # constraint, nothing cascades) and is marked `gone`.
    article = models.ForeignKey(
        "articles.Article",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="releases",
    )
    gone = models.BooleanField(default=False, editable=False)
    language = models.CharField(max_length=5)
    event = models.CharField(max_length=20, choices=Event)
    # The story's version at the change (ninjs `version`).
    version = models.PositiveIntegerField()
    version_created = models.DateTimeField()
    # When partners may see it: the change's time, or the later publication time
    # or embargo lift of a scheduled or embargoed story.
    visible_at = models.DateTimeField()
    # When its webhook deliveries were made (or found to be none): the sweep
    # (`send_webhooks`) fans out only releases still without it.
    fanned_out_at = models.DateTimeField(null=True, editable=False)

    class Meta:
        ordering = ["visible_at", "pk"]
        verbose_name = _("release")
        verbose_name_plural = _("releases")
        indexes = [
            # The sync's order, from the top or from a cursor.
            models.Index(fields=["visible_at", "id"], name="release_sync"),
            # "Is there a newer release of this edition?"
            models.Index(
                fields=["article", "language", "visible_at", "id"],
                name="release_edition",
            ),
        ]
        constraints = [
            # A change announced twice (a save and its embargo) is one release.
            models.UniqueConstraint(
                fields=["article", "language", "version", "event"],
                name="one_release_per_version_and_event",
            )
        ]

    def __str__(self) -> str:
        return f"#{self.article_id}/{self.language} v{self.version} {self.event}"


class WebhookEndpoint(models.Model):
    """A partner's HTTPS address that is told of the events it chose, each
    delivery signed with the endpoint's secret (Standard Webhooks' scheme)."""

    partner = models.ForeignKey(
        Partner,
        on_delete=models.CASCADE,
        related_name="webhooks",
        verbose_name=_("partner"),
    )
    url = models.URLField(
        _("address"),
        max_length=500,
        help_text=_("The partner's HTTPS address that receives the events."),
    )
    events = models.JSONField(
        _("events"),
        default=list,
        help_text=_("What the partner is told of."),
    )
    active = models.BooleanField(_("active"), default=True)
    # The signing secret ("whsec_" + base64), shown once. It must be kept in the
    # clear: the sender signs with it.
    secret = models.CharField(max_length=100, editable=False)
    # The secret replaced by the last rotation: deliveries carry a signature by
    # each until it expires, so the partner can switch without losing one.
    previous_secret = models.CharField(max_length=100, blank=True, editable=False)
    previous_secret_expires_at = models.DateTimeField(null=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["partner__name", "pk"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return f"{self.partner} → {self.url}"


class Delivery(models.Model):
    """One event sent (or to be sent) to one endpoint: its exact body, kept so
    every try and a replay send the same bytes under the same id."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed after its last try")

    endpoint = models.ForeignKey(
        WebhookEndpoint,
        on_delete=models.CASCADE,
        related_name="deliveries",
        verbose_name=_("webhook"),
    )
    release = models.ForeignKey(
        Release,
        on_delete=models.CASCADE,
        related_name="deliveries",
        verbose_name=_("release"),
    )
    event = models.CharField(_("event"), max_length=20, choices=Event)
    # The idempotency id (`webhook-id`): the same for every try and replay.
    message_id = models.CharField(_("message id"), max_length=40, unique=True)
    body = models.TextField(editable=False)
    status = models.CharField(
        _("status"), max_length=20, choices=Status, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("tries"), default=0)
    next_attempt_at = models.DateTimeField(_("next try"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("delivered"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="delivery_due")
        ]
        constraints = [
            # A release reaches an endpoint once (a replay sends the same row).
            models.UniqueConstraint(
                fields=["endpoint", "release"], name="one_delivery_per_release"
            )
        ]

    def __str__(self) -> str:
        return f"{self.message_id} ({self.get_event_display()})"


class DeliveryAttempt(models.Model):
    """One try of a delivery and what the partner's server answered."""

    delivery = models.ForeignKey(
        Delivery,
        on_delete=models.CASCADE,
        related_name="tries",
        verbose_name=_("webhook delivery"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    status_code = models.PositiveSmallIntegerField(_("answer"), null=True)
    response = models.TextField(_("response"), blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    duration_ms = models.PositiveIntegerField(_("time (ms)"), default=0)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("try")
        verbose_name_plural = _("tries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.status_code or self.error}"
