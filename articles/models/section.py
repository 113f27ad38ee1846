from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from arabic.slugs import unique_slug


class Section(models.Model):
    """A desk of the newsroom (politics, economy, sport) and its page on the site."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(
        _("slug"), max_length=100, unique=True, allow_unicode=True, blank=True
    )
    description = models.TextField(_("description"), blank=True)
    position = models.PositiveSmallIntegerField(_("order in menus"), default=0)

    # Every public page shows the section menu (read by the identity gate).
    public_fields = ("name", "slug", "description")
    always_public = True

    class Meta:
        ordering = ["position", "name"]
        verbose_name = _("section")
        verbose_name_plural = _("sections")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("articles:section", kwargs={"slug": self.slug})

    def derive_fields(self) -> None:
        """Fill the slug, when empty, from the name (save() and the identity gate,
        which reads the row as it will be saved)."""
        if not self.slug:
            self.slug = unique_slug(
                type(self).objects.exclude(pk=self.pk),
                self.name_en or self.name,  # type: ignore[attr-defined]
            )

    def save(self, *args, **kwargs) -> None:
        self.derive_fields()
        super().save(*args, **kwargs)
