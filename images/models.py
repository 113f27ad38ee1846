"""The image library: each picture once, with its words in both languages, and the
renditions made from it for readers' screens."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from arabic import search_fold

from .uploads import AnonymousName

_FRACTION = [MinValueValidator(0.0), MaxValueValidator(1.0)]


class Image(models.Model):
    """A picture in the library, stored under a random name, stripped of metadata.

    Title, caption and alt text are translated (images/translation.py); the file is
    found again by the hash of its cleaned bytes, so a picture is kept once.
    """

    file = models.ImageField(
        _("file"),
        upload_to=AnonymousName("images"),
        width_field="width",
        height_field="height",
    )
    title = models.CharField(
        _("title"),
        max_length=200,
        help_text=_("How editors find the picture in the library."),
    )
    caption = models.CharField(_("caption"), max_length=300, blank=True)
    alt_text = models.CharField(
        _("alt text"),
        max_length=300,
        blank=True,
        help_text=_("What the image shows, for screen readers."),
    )
    credit = models.CharField(_("photo credit"), max_length=200, blank=True)
    source = models.CharField(
        _("source or agency"),
        max_length=200,
        blank=True,
        help_text=_("Where the picture came from (an agency, a reader, our staff)."),
    )
    is_graphic = models.BooleanField(
        _("graphic content"),
        default=False,
        help_text=_(
            "Blur the image behind a warning until the reader chooses to see it; "
            "it is never used as a social card or teaser."
        ),
    )
    focal_x = models.FloatField(
        _("focal point (across)"),
        default=0.5,
        validators=_FRACTION,
        help_text=_("0 is the left edge, 1 the right; crops keep this point."),
    )
    focal_y = models.FloatField(
        _("focal point (down)"),
        default=0.5,
        validators=_FRACTION,
        help_text=_("0 is the top edge, 1 the bottom."),
    )
    width = models.PositiveIntegerField(_("width"), default=0, editable=False)
    height = models.PositiveIntegerField(_("height"), default=0, editable=False)
    content_hash = models.CharField(
        _("content hash"), max_length=64, unique=True, editable=False
    )
    search_text = models.TextField(editable=False, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    # The renditions owed (images/tasks.py): the database, not the queue, is the
    # record of that work, so a job lost with Redis or a worker killed halfway
    # delays a set but never loses it. `renditions_owed_since` is when the set
    # was asked for (a new file or focal point), cleared once it is complete; a
    # job holds the image until `renditions_leased_until`, after which the sweep
    # enqueues another; `renditions_tries` counts the jobs that started on it.
    renditions_owed_since = models.DateTimeField(null=True, editable=False)
    renditions_leased_until = models.DateTimeField(null=True, editable=False)
    renditions_tries = models.PositiveSmallIntegerField(default=0, editable=False)

    # What public output shows of a picture (read by the identity gate); the file
    # counts by its name, which appears in every image URL.
    public_fields = ("title", "caption", "alt_text", "credit", "source", "file")

    class Meta:
        ordering = ["-uploaded_at", "-pk"]
        verbose_name = _("image")
        verbose_name_plural = _("images")
        indexes = [
            # The sweep's question: which sets are owed and whose lease ran out.
            models.Index(
                fields=["renditions_leased_until"],
                condition=models.Q(renditions_owed_since__isnull=False),
                name="image_renditions_owed",
            )
        ]

    def __str__(self) -> str:
        return self.title or f"#{self.pk}"

    def search_columns(self) -> dict[str, str]:
        """The folded search text derived from the picture's words."""
        text = " ".join(
            str(getattr(self, f"{field}_{code}", "") or "")
            for field in ("title", "caption", "alt_text")
            for code, _name in settings.LANGUAGES
        )
        return {"search_text": search_fold(f"{text} {self.credit} {self.source}")}

    def save(self, *args, **kwargs) -> None:
        for name, value in self.search_columns().items():
            setattr(self, name, value)
        super().save(*args, **kwargs)


class Rendition(models.Model):
    """One resized (and maybe cropped) copy of an image in one format.

    Made after the image is saved, never while a reader waits; a page whose
    rendition is missing shows the original instead.
    """

    class Format(models.TextChoices):
        AVIF = "avif", "AVIF"
        WEBP = "webp", "WebP"
        JPEG = "jpeg", "JPEG"

    image = models.ForeignKey(
        Image, on_delete=models.CASCADE, related_name="renditions"
    )
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    format = models.CharField(max_length=4, choices=Format)
    # "" for the whole picture, or "W:H" for a crop around the focal point.
    ratio = models.CharField(max_length=10, blank=True)
    file = models.ImageField(upload_to=AnonymousName("renditions"))
    # The set it belongs to (its image's `renditions_owed_since` when it was
    # made): one made for an earlier file or focal point is remade.
    made_for = models.DateTimeField(null=True, editable=False)

    class Meta:
        ordering = ["width"]
        constraints = [
            models.UniqueConstraint(
                fields=["image", "ratio", "width", "format"],
                name="one_rendition_per_size_and_format",
            )
        ]

    def __str__(self) -> str:
        return f"{self.image_id} {self.ratio or 'full'} {self.width}w {self.format}"

    @property
    def mime_type(self) -> str:
        return f"image/{self.format}"
