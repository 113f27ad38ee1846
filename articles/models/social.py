"""Social posts embedded in stories, kept as data so pages never load a platform."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.text import hashtags

from .. import platforms

# Social platforms whose posts and accounts we record, from the one registry
# (articles.platforms): Platform.X, Platform.INSTAGRAM … Platform.OTHER.
Platform = models.TextChoices(
    "Platform", [(key.upper(), (key, label)) for key, label in platforms.choices()]
)


class SocialPost(models.Model):
    """A post quoted in a story, stored locally and shown as a static card."""

    article = models.ForeignKey(
        "articles.Article", on_delete=models.CASCADE, related_name="social_posts"
    )
    platform = models.CharField(
        _("platform"), max_length=20, choices=Platform, default=Platform.X
    )
    url = models.URLField(
        _("post URL"),
        max_length=500,
        blank=True,
        help_text=_("Link to the original post; may be added later if unknown."),
    )
    author_name = models.CharField(_("author"), max_length=200, blank=True)
    handle = models.CharField(_("handle"), max_length=100, blank=True)
    posted_at = models.DateTimeField(_("posted at"), null=True, blank=True)
    # A copied post often carries only its day; no time is invented for it.
    posted_on = models.DateField(
        _("posted on"),
        null=True,
        blank=True,
        help_text=_("The day of the post, when its time is not known."),
    )
    text = models.TextField(_("text"), blank=True)
    language = models.CharField(_("language"), max_length=10, blank=True)
    hashtags = models.JSONField(_("hashtags"), default=list, blank=True)
    links = models.JSONField(_("links"), default=list, blank=True)
    media_urls = models.JSONField(_("media URLs"), default=list, blank=True)
    # Everything the card shows or links to (read by the identity gate).
    public_fields = (
        "author_name",
        "handle",
        "text",
        "url",
        "links",
        "media_urls",
        "hashtags",
        "language",  # printed as the card's lang attribute
    )

    class Meta:
        ordering = ["pk"]
        verbose_name = _("social post")
        verbose_name_plural = _("social posts")

    def __str__(self) -> str:
        who = f"@{self.handle}" if self.handle else self.author_name
        return f"{self.get_platform_display()} {who}".strip()

    def save(self, *args, **kwargs) -> None:
        self.handle = self.handle.strip().lstrip("@")
        if not self.hashtags and self.text:
            self.hashtags = hashtags(self.text)
        super().save(*args, **kwargs)
