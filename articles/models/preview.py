"""Share links: a story shown, before it is published, to whoever holds the link."""

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# How long a link works unless the editor asks for another lifetime.
PREVIEW_HOURS = 48
# A link outlives its story's review by weeks at most; a longer one is forgotten.
PREVIEW_MAX_HOURS = 30 * 24
SIGNING_SALT = "articles.preview"


def new_token() -> str:
    """A random token nobody can guess; the link carries it signed."""
    return secrets.token_urlsafe(24)


def default_expiry() -> datetime:
    return timezone.now() + timedelta(hours=PREVIEW_HOURS)


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=SIGNING_SALT)


class PreviewLinkClosed(Exception):
    """The link existed but no longer opens its story: expired or revoked."""


class PreviewLinkQuerySet(models.QuerySet):
    def active(self, *, at: datetime | None = None) -> "PreviewLinkQuerySet":
        """Links that still open their story: neither revoked nor expired."""
        return self.filter(revoked_at__isnull=True, expires_at__gt=at or timezone.now())

    def get_signed(self, signed: str) -> "PreviewLink":
        """The link a signed token names.

        Raises PreviewLink.DoesNotExist for a forged, tampered or unknown token and
        PreviewLinkClosed for a link that expired or was revoked. The signature may
        be no older than the link's lifetime, and the row decides the rest.
        """
        try:
            token = _signer().unsign(signed)
            link = self.get(token=token)
            _signer().unsign(signed, max_age=link.expires_at - link.created_at)
        except signing.SignatureExpired as expired:
            raise PreviewLinkClosed from expired
        except signing.BadSignature as forged:
            raise self.model.DoesNotExist from forged
        if not link.is_active():
            raise PreviewLinkClosed
        return link


class PreviewLink(models.Model):
    """A link that shows a story, as last saved, to readers without an account."""

    article = models.ForeignKey(
        "articles.Article",
        on_delete=models.CASCADE,
        related_name="preview_links",
        verbose_name=_("article"),
    )
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"), default=default_expiry)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    objects = PreviewLinkQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("preview link")
        verbose_name_plural = _("preview links")

    def __str__(self) -> str:
        # Never the token: this is what the audit trail and messages show.
        return _("Preview link #%(id)s") % {"id": self.pk}

    def is_active(self, *, at: datetime | None = None) -> bool:
        return self.revoked_at is None and self.expires_at > (at or timezone.now())

    def signed_token(self) -> str:
        """The token as the link carries it, signed now."""
        return _signer().sign(self.token)

    def get_absolute_url(self) -> str:
        return reverse("articles:preview", kwargs={"signed": self.signed_token()})
