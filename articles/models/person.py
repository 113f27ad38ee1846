"""A person's part in a story: who is named, in which role, under which name."""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from identity.cache import current_gate
from identity.models import Person


class ArticlePerson(models.Model):
    """A person's part in one story and the name the story uses for them."""

    class Role(models.TextChoices):
        SUBJECT = "subject", _("Subject")
        QUOTED = "quoted", _("Quoted")
        MENTIONED = "mentioned", _("Mentioned")

    article = models.ForeignKey(
        "articles.Article", on_delete=models.CASCADE, related_name="people_named"
    )
    person = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        related_name="appearances",
        verbose_name=_("person"),
    )
    role = models.CharField(
        _("role"), max_length=20, choices=Role, default=Role.MENTIONED
    )
    name_used = models.CharField(
        _("name used in the story"),
        max_length=200,
        blank=True,
        help_text=_("Leave empty to use the person's public name."),
    )
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    public_fields = ("name_used",)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = _("person in the story")
        verbose_name_plural = _("people in the story")
        constraints = [
            models.UniqueConstraint(
                fields=["article", "person"], name="unique_person_per_article"
            )
        ]

    def __str__(self) -> str:
        return f"{self.shown_name} ({self.get_role_display()})"

    @property
    def shown_name(self) -> str:
        """The name shown on the article page; never a protected legal name.

        The identity gate refuses such a name_used in public stories, but rows written
        around it (a shell) fall back to the pseudonym here rather than reveal anyone.
        """
        if self.name_used and not self._reveals_identity():
            return self.name_used
        return self.person.display_name

    def clean(self) -> None:
        if not self.name_used or not self.person_id:
            return
        if self._reveals_identity():
            raise ValidationError(
                {
                    "name_used": _(
                        "This person's identity is protected: use the pseudonym."
                    )
                }
            )

    def _reveals_identity(self) -> bool:
        """Whether the name used holds the person's protected legal name (read with
        the gate for the people as they now stand)."""
        if not self.person.identity_protected:
            return False
        return current_gate().reveals(self.person, self.name_used)
