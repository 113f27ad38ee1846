"""The names a story is signed with."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


class Byline(models.Model):
    """One name in the byline: a staff member or a guest writer."""

    article = models.ForeignKey(
        "articles.Article", on_delete=models.CASCADE, related_name="bylines"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="bylines",
        verbose_name=_("staff member"),
    )
    name = models.CharField(
        _("guest name"),
        max_length=200,
        blank=True,
        help_text=_("For writers who are not staff."),
    )
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    public_fields = ("name", "staff_name")
    public_field_labels = {"staff_name": _("staff member")}
    # The field a form edits to change a derived public field.
    public_field_sources = {"staff_name": "user"}
    # A story's bylines are printed as one list ("By A, B"): read together too.
    printed_as_list = ("name", "staff_name")

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = _("byline")
        verbose_name_plural = _("bylines")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(user__isnull=True, name=""),
                name="byline_has_a_name",
            )
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def staff_name(self) -> str:
        """The staff member's name as bylines print it."""
        if self.user_id:
            return self.user.get_full_name() or self.user.get_username()
        return ""

    @property
    def display_name(self) -> str:
        return self.name or self.staff_name

    def clean(self) -> None:
        if not self.user_id and not self.name.strip():
            raise ValidationError(_("Choose a staff member or type a guest name."))
