"""The newsroom's audit trail: who changed what, and who saw a protected name."""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .actions import CODE_MAX_LENGTH, label_for


class AuditEvent(models.Model):
    """One thing an editor did, written in the same transaction as the change.

    `object_repr` is the object's public description (a protected person appears by
    the pseudonym), so reading the trail never reveals a legal name.
    """

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
    # No choices: each app registers its verbs (audit.actions), so a new one needs
    # no migration.
    action = models.CharField(_("action"), max_length=CODE_MAX_LENGTH)
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

    def get_action_display(self) -> str:
        """The verb's registered label, or its code if no app registers it now."""
        return str(label_for(self.action))

    def save(self, *args, **kwargs) -> None:
        # The trail is append-only: an event, once written, is never rewritten.
        if self.pk is not None and not self._state.adding:
            raise PermissionError("An audit event cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("An audit event cannot be deleted.")
