"""The correction ledger: what a story got wrong, clarified or updated, and when."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Correction(models.Model):
    """One entry printed at the end of a story, in Arabic, English or both.

    Entries are added through `articles.services.correction_add` and never edited:
    readers are told what changed and when.
    """

    class Kind(models.TextChoices):
        CORRECTION = "correction", _("Correction")
        CLARIFICATION = "clarification", _("Clarification")
        UPDATE = "update", _("Update")

    article = models.ForeignKey(
        "articles.Article",
        on_delete=models.CASCADE,
        related_name="corrections",
        verbose_name=_("article"),
    )
    kind = models.CharField(
        _("kind"), max_length=20, choices=Kind, default=Kind.CORRECTION
    )
    text = models.TextField(
        _("text"),
        blank=True,
        help_text=_("What was wrong and what is right, as readers will read it."),
    )
    created_at = models.DateTimeField(
        _("date"), default=timezone.now, help_text=_("Shown to readers.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name=_("added by"),
    )

    # Printed on the story's page (read by the identity gate).
    public_fields = ("text",)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    def __str__(self) -> str:
        return str(self.get_kind_display())

    def clean(self) -> None:
        texts = [getattr(self, f"text_{code}") for code, _name in settings.LANGUAGES]
        if not any(text and text.strip() for text in texts):
            raise ValidationError(
                _("Write the correction in Arabic, in English or in both."),
                code="empty",
            )
