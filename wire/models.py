"""Agency channels, the items they bring and the editors' topic → section mapping."""

import os
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from arabic import search_fold
from articles import permissions as perms
from sources.models import Attribution, Source

from .fetching import address_refusal, host_of
from .folders import drop_folder
from .formats.item import CANCELED, USABLE, WITHHELD
from .formats.item import WireItem as ParsedItem

_AUTH_ENV_RE = re.compile(r"WIRE_[A-Z0-9_]{1,90}")


class Channel(models.Model):
    """Where one agency's copy comes in: a drop folder or a feed URL."""

    class Kind(models.TextChoices):
        FOLDER = "folder", _("Drop folder")
        FEED = "feed", _("HTTP(S) feed")

    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    source = models.ForeignKey(
        Source,
        on_delete=models.PROTECT,
        related_name="wire_channels",
        verbose_name=_("agency"),
        help_text=_("The source every item of this channel is credited to."),
    )
    role = models.CharField(
        _("attribution role"),
        max_length=20,
        choices=Attribution.Role,
        default=Attribution.Role.REPUBLISHED,
    )
    section = models.ForeignKey(
        "articles.Section",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("default section"),
        help_text=_("For items whose subjects map to no section."),
    )
    folder = models.CharField(
        _("drop folder"),
        max_length=500,
        blank=True,
        help_text=_(
            "A folder on the server the agency's files arrive in (over FTP/SFTP). "
            "Files are moved to processing/, then archive/ or rejected/ beside it."
        ),
    )
    url = models.URLField(
        _("feed URL"),
        max_length=500,
        blank=True,
        help_text=_("A NewsML-G2 or ninjs document (or a JSON list of ninjs items)."),
    )
    auth_env = models.CharField(
        _("credentials variable"),
        max_length=100,
        blank=True,
        help_text=_(
            "For a feed that asks for credentials: the name of an environment "
            "variable on the server (starting with WIRE_) holding the Authorization "
            "header's value, e.g. “Basic …” or “Bearer …”. The secret itself is "
            "never stored here."
        ),
    )
    picture_hosts = models.TextField(
        _("picture hosts"),
        blank=True,
        help_text=_(
            "Host names the agency's pictures are fetched from, one per line (e.g. "
            "media.agency.example). A feed's own host is always trusted; pictures "
            "elsewhere are refused and logged."
        ),
    )
    every_minutes = models.PositiveSmallIntegerField(
        _("poll every (minutes)"), default=5
    )
    active = models.BooleanField(_("active"), default=True)
    acting_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("acts as"),
        help_text=_(
            "The newsroom account that records the agency's updates and kills on "
            "drafts (a member of Editors); its permissions apply and the audit "
            "trail names it."
        ),
    )
    last_polled_at = models.DateTimeField(_("last polled"), null=True, blank=True)
    # The feed's validators (ETag, Last-Modified) from its last document read.
    feed_etag = models.CharField(max_length=200, blank=True, editable=False)
    feed_modified = models.CharField(max_length=100, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("wire channel")
        verbose_name_plural = _("wire channels")

    def __str__(self) -> str:
        return self.name

    def trusted_hosts(self) -> set[str]:
        """Where this channel's pictures may be fetched from."""
        hosts = {line.strip().lower() for line in self.picture_hosts.splitlines()}
        if self.url:
            hosts.add(host_of(self.url))
        return {host for host in hosts if host}

    def authorization(self) -> str:
        """The Authorization header's value for this channel's feed, if any."""
        if not _AUTH_ENV_RE.fullmatch(self.auth_env):
            return ""
        return os.environ.get(self.auth_env, "").strip()

    def clean(self) -> None:
        # Only WIRE_ variables: a channel must not send the server's own secrets
        # (SECRET_KEY, DATABASE_URL) to an address a source manager typed.
        if self.auth_env and not _AUTH_ENV_RE.fullmatch(self.auth_env):
            raise ValidationError(
                {
                    "auth_env": _(
                        "Name a variable starting with WIRE_, in capitals, digits "
                        "and underscores."
                    )
                }
            )
        if self.kind == self.Kind.FOLDER and not self.folder:
            raise ValidationError(
                {"folder": _("A drop folder channel needs its folder.")}
            )
        if self.kind == self.Kind.FEED and not self.url:
            raise ValidationError({"url": _("A feed channel needs the feed's URL.")})
        self._check_addresses()
        # The account writes the agency's versions into drafts and kills withdrawn
        # ones: without these, every update would fail in the log instead.
        user = self.acting_user if self.acting_user_id else None
        if user is not None and not (
            user.is_active
            and user.has_perm(perms.EDIT_ANY_ARTICLE)
            and user.has_perm(perms.KILL_ARTICLE)
        ):
            raise ValidationError(
                {
                    "acting_user": _(
                        "This account cannot edit and withdraw any draft; choose a "
                        "member of Editors."
                    )
                }
            )

    def _check_addresses(self) -> None:
        # The rules every poll applies again: a channel says no when it is saved.
        errors = {}
        if self.folder:
            try:
                drop_folder(self.folder)
            except ValueError as exc:
                errors["folder"] = str(exc)
        if self.url and (refusal := address_refusal(self.url)):
            errors["url"] = refusal
        refused = [
            host
            for host in self.trusted_hosts() - {host_of(self.url)}
            if address_refusal(f"https://{host}/")
        ]
        if refused:
            errors["picture_hosts"] = _(
                "Pictures are fetched from public hosts only: %(hosts)s is not "
                "on the public internet, or is unknown."
            ) % {"hosts": ", ".join(sorted(refused))}
        if errors:
            raise ValidationError(errors)


class ChannelLog(models.Model):
    """What happened to one file or poll of a channel: kept for the source manager."""

    class Level(models.TextChoices):
        INFO = "info", _("Information")
        ERROR = "error", _("Error")

    channel = models.ForeignKey(
        Channel, on_delete=models.CASCADE, related_name="log_entries"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    level = models.CharField(_("level"), max_length=10, choices=Level)
    file_name = models.CharField(_("file"), max_length=300, blank=True)
    message = models.TextField(_("message"))

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("channel log entry")
        verbose_name_plural = _("channel log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.message[:60]}"


class TopicSection(models.Model):
    """An IPTC Media Topic and the section its stories go to, kept by editors."""

    code = models.CharField(
        _("Media Topic code"),
        max_length=8,
        unique=True,
        help_text=_("Eight digits, e.g. 15000000 for sport."),
    )
    name = models.CharField(_("topic"), max_length=100, blank=True)
    section = models.ForeignKey(
        "articles.Section",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("section"),
    )

    class Meta:
        ordering = ["code"]
        verbose_name = _("Media Topic → section")
        verbose_name_plural = _("Media Topics → sections")

    def __str__(self) -> str:
        return f"{self.code} {self.name}".strip()

    def clean(self) -> None:
        if not (self.code.isascii() and self.code.isdigit() and len(self.code) == 8):
            raise ValidationError({"code": _("A Media Topic code is eight digits.")})


class AgencyItemQuerySet(models.QuerySet):
    def incoming(self) -> "AgencyItemQuerySet":
        """The editors' list: newest first, with what each row shows."""
        return (
            self.select_related("source")
            .defer("payload")
            .order_by("-received_at", "-pk")
        )


class Alert(models.TextChoices):
    """What an editor must know about the story an item became."""

    KILLED = "killed", _("killed by the agency")
    KILL_FAILED = "kill_failed", _("killed by the agency; the draft is not withdrawn")
    UPDATE_OFFERED = "update_offered", _("update offered")
    MERGE_FAILED = "merge_failed", _("update could not be merged")


class AgencyItem(models.Model):
    """The latest version of one agency item (its GUID), and the draft made of it."""

    class Status(models.TextChoices):
        USABLE = USABLE, _("usable")
        WITHHELD = WITHHELD, _("withheld by the agency")
        CANCELED = CANCELED, _("killed by the agency")

    source = models.ForeignKey(
        Source, on_delete=models.PROTECT, related_name="+", verbose_name=_("agency")
    )
    channel = models.ForeignKey(
        Channel, on_delete=models.SET_NULL, null=True, related_name="items"
    )
    guid = models.CharField(_("agency GUID"), max_length=250)
    version = models.PositiveIntegerField(_("agency version"))
    status = models.CharField(_("status"), max_length=10, choices=Status)
    headline = models.CharField(_("headline"), max_length=300)
    language = models.CharField(_("language"), max_length=5, blank=True)
    urgency = models.PositiveSmallIntegerField(_("urgency"), null=True, blank=True)
    received_at = models.DateTimeField(_("received"), db_index=True)
    payload = models.JSONField(editable=False)
    search_text = models.TextField(editable=False, blank=True)
    article = models.ForeignKey(
        "articles.Article",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="wire_items",
        verbose_name=_("story"),
    )
    # The story's version the wire last wrote: an editor's later changes are merged
    # with the agency's next version rather than overwritten.
    article_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # A newer agency version the editor has not applied (the story was published,
    # or the editor's changes collide with it).
    pending = models.JSONField(null=True, blank=True, editable=False)
    alert = models.CharField(_("alert"), max_length=20, choices=Alert, blank=True)
    # What went wrong when the wire could not write the story (an error message).
    alert_detail = models.TextField(blank=True, editable=False)

    objects = AgencyItemQuerySet.as_manager()

    class Meta:
        ordering = ["-received_at", "-pk"]
        verbose_name = _("wire item")
        verbose_name_plural = _("incoming wire")
        constraints = [
            models.UniqueConstraint(
                fields=["source", "guid"], name="one_wire_item_per_agency_guid"
            )
        ]
        indexes = [models.Index(fields=["language", "-received_at"])]

    def __str__(self) -> str:
        return self.headline

    @property
    def item(self) -> ParsedItem:
        return ParsedItem.from_json(self.payload)

    @property
    def alert_text(self) -> str:
        """The alert in the reader's language (stored as a code: polls run in
        no editor's language)."""
        pending = (self.pending or {}).get("version", self.version)
        if self.alert in (Alert.KILLED, Alert.KILL_FAILED):
            text = _(
                "The agency withdrew this item (version %(version)s, %(status)s): "
                "do not use it."
            ) % {"version": self.version, "status": self.get_status_display()}
            if self.alert == Alert.KILL_FAILED:
                text += " " + _("The draft could not be withdrawn: %(error)s") % {
                    "error": self.alert_detail
                }
            return text
        if self.alert == Alert.UPDATE_OFFERED:
            return _(
                "The agency sent version %(version)s of this published story: review "
                "the changes and apply them, or leave the story as it is."
            ) % {"version": pending}
        if self.alert == Alert.MERGE_FAILED:
            return _(
                "The agency's version %(version)s could not be merged into the draft "
                "(%(error)s); apply it by hand."
            ) % {"version": pending, "error": self.alert_detail}
        return ""

    @property
    def proposes_breaking(self) -> bool:
        return self.item.proposes_breaking

    def fill_from(self, item: ParsedItem) -> None:
        """Take `item`'s version as this row's (headline kept when a kill has none)."""
        self.version = item.version
        self.status = item.status
        self.headline = item.headline[:300] or self.headline
        self.language = item.language or self.language
        self.urgency = item.urgency
        if not item.is_kill:
            self.payload = item.as_json()
        self.search_text = search_fold(self.headline)
