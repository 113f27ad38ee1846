"""People named in stories, including those whose identity must stay protected."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from arabic import normalize
from arabic.slugs import unicode_slug
from sources.models import lines


class Person(models.Model):
    """Someone named in the news.

    When `identity_protected` is set, `name` is the legal name known to the newsroom
    and never leaves it: every public output uses `public_name` (a pseudonym such as
    قيصر). Templates and feeds read `display_name`, never `name`.
    """

    name = models.CharField(
        _("name"),
        max_length=200,
        help_text=_(
            "Full name. For a protected person: the legal name, never published."
        ),
    )
    public_name = models.CharField(
        _("public name"),
        max_length=200,
        blank=True,
        help_text=_("The name readers see; required when the identity is protected."),
    )
    aliases = models.TextField(
        _("aliases and pseudonyms"),
        blank=True,
        help_text=_(
            "Other names the person is known by, one per line (e.g. قيصر, Caesar)."
        ),
    )
    description = models.CharField(_("short description"), max_length=300, blank=True)
    identity_protected = models.BooleanField(
        _("identity protected"),
        default=False,
        help_text=_("Hide the legal name from every public page, feed and API."),
    )
    slug = models.SlugField(
        _("slug"), max_length=100, allow_unicode=True, editable=False
    )
    search_text = models.TextField(editable=False, blank=True)

    class Meta:
        ordering = ["public_name", "name"]
        verbose_name = _("person")
        verbose_name_plural = _("people")

    def __str__(self) -> str:
        if self.identity_protected:
            return f"{self.public_name} 🔒"
        return self.name

    @property
    def display_name(self) -> str:
        """The only name public output may show."""
        if self.identity_protected:
            return self.public_name
        return self.public_name or self.name

    @property
    def alias_list(self) -> list[str]:
        return lines(self.aliases)

    def reveals_identity(self, text: str) -> bool:
        """Whether `text` holds this person's protected legal name, in any spelling."""
        legal = normalize(self.name) if self.identity_protected else ""
        return bool(legal) and legal in normalize(text)

    def get_absolute_url(self) -> str:
        return reverse("articles:person", kwargs={"pk": self.pk, "slug": self.slug})

    def clean(self) -> None:
        if not self.identity_protected:
            return
        if not self.public_name.strip():
            raise ValidationError(
                {
                    "public_name": _(
                        "A protected person needs a public name or pseudonym."
                    )
                }
            )
        if self.reveals_identity(self.public_name):
            raise ValidationError(
                {"public_name": _("The public name must not contain the legal name.")}
            )
        if any(self.reveals_identity(alias) for alias in self.alias_list):
            raise ValidationError(
                {"aliases": _("Aliases must not contain the protected legal name.")}
            )
        for code, _name in settings.LANGUAGES:
            if self.reveals_identity(getattr(self, f"description_{code}", "")):
                raise ValidationError(
                    {
                        f"description_{code}": _(
                            "The description must not contain the protected legal name."
                        )
                    }
                )

    def save(self, *args, **kwargs) -> None:
        # The slug is public, so it is always made from the public name.
        self.slug = unicode_slug(self.display_name) or "person"
        self.search_text = normalize(
            " ".join([self.name, self.public_name, *self.alias_list])
        )
        super().save(*args, **kwargs)


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

        clean() refuses such a name_used, but rows written around the form (an import,
        a shell) fall back to the pseudonym here rather than reveal anyone.
        """
        if self.name_used and not self.person.reveals_identity(self.name_used):
            return self.name_used
        return self.person.display_name

    def clean(self) -> None:
        if not self.name_used or not self.person_id:
            return
        if self.person.reveals_identity(self.name_used):
            raise ValidationError(
                {
                    "name_used": _(
                        "This person's identity is protected: use the pseudonym."
                    )
                }
            )
