"""The newsroom's audit trail: who changed what, and who saw a protected name."""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AuditEvent(models.Model):
    """One thing an editor did, written in the same transaction as the change.

    `object_repr` is the object's public description (a protected person appears by
    the pseudonym), so reading the trail never reveals a legal name.
    """

    class Action(models.TextChoices):
        CREATED = "created", _("Created")
        CHANGED = "changed", _("Changed")
        DELETED = "deleted", _("Deleted")
        SUBMITTED = "submitted", _("Submitted for review")
        APPROVED = "approved", _("Approved")
        SENT_BACK = "sent_back", _("Sent back to draft")
        PUBLISHED = "published", _("Published")
        SCHEDULED = "scheduled", _("Scheduled")
        UNPUBLISHED = "unpublished", _("Unpublished")
        KILLED = "killed", _("Killed")
        EMBARGO = "embargo", _("Embargo changed")
        RESTORED = "restored", _("Revision restored")
        IMPORTED = "imported", _("Imported")
        CORRECTED = "corrected", _("Correction added")
        ROLES_CHANGED = "roles_changed", _("Roles changed")
        PROTECTED = "protected", _("Identity protected")
        LEGAL_NAME_VIEWED = "legal_name_viewed", _("Legal name viewed")
        PREVIEW_SHARED = "preview_shared", _("Preview link shared")
        PREVIEW_REVOKED = "preview_revoked", _("Preview link revoked")
        LOGGED_IN = "logged_in", _("Logged in")
        LOGIN_FAILED = "login_failed", _("Login failed")
        LOCKED_OUT = "locked_out", _("Locked out")
        PASSWORD_CHANGED = "password_changed", _("Password changed")
        TWO_FACTOR_ENROLLED = "two_factor_enrolled", _("Two-factor sign-in set up")

    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    # Kept apart from the foreign key so the trail survives a deleted account.
    actor_name = models.CharField(_("user name"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=30, choices=Action)
    content_type = models.ForeignKey(
        ContentType, on_delete=models.SET_NULL, null=True, blank=True
    )
    object_id = models.CharField(max_length=64, blank=True)
    object_repr = models.CharField(_("object"), max_length=300, blank=True)
    message = models.TextField(_("details"), blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit trail")
        indexes = [models.Index(fields=["content_type", "object_id", "-at"])]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.object_repr}"

    def save(self, *args, **kwargs) -> None:
        # The trail is append-only: an event, once written, is never rewritten.
        if self.pk is not None and not self._state.adding:
            raise PermissionError("An audit event cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("An audit event cannot be deleted.")
