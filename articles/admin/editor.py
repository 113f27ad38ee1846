"""The body editor in the story form: django-prose-editor on each language's body,
right-to-left for Arabic and left-to-right for English, with the story's posts (and
library images) offered for placing in the body."""

from django.utils.text import Truncator
from django.utils.translation import gettext
from django_prose_editor.widgets import AdminProseEditorWidget

from images.models import Image
from images.renditions import renditions_of

from ..body import BODY_EXTENSIONS, embedded_ids
from ..models import Article

BODY_FIELDS = ("body_ar", "body_en")
# The most recent library images are offered in the editor's list; older ones are
# found in the image library and are listed once a story places them.
RECENT_IMAGES = 60
_DIRECTIONS = {"ar": "rtl", "en": "ltr"}


def body_editor_config(*, language: str, posts: list[dict], images: list[dict]) -> dict:
    """The editor's configuration for one language's body of one story."""
    return {
        "extensions": BODY_EXTENSIONS
        | {
            "TextDirection": {"direction": _DIRECTIONS.get(language, "auto")},
            "StoryEmbed": {
                "posts": posts,
                "images": images,
                "labels": {
                    "post": gettext("Social post"),
                    "image": gettext("Image"),
                    "missing": gettext("(not found: save the story to see it)"),
                    "insert_post": gettext("Place a social post of this story here"),
                    "insert_image": gettext("Place an image from the library here"),
                    "choose_post": gettext("Social post"),
                    "choose_image": gettext("Image"),
                    "insert": gettext("Place"),
                    "cancel": gettext("Cancel"),
                },
            },
            "ToolbarLabels": {"labels": toolbar_labels()},
        }
    }


def toolbar_labels() -> dict[str, str]:
    """The editor's English button names, in the admin's language."""
    return {
        "paragraph": gettext("Paragraph"),
        "Paragraph": gettext("Paragraph"),
        "Heading 2": gettext("Subheading"),
        "Heading 3": gettext("Minor subheading"),
        "unordered list": gettext("Bulleted list"),
        "ordered list": gettext("Numbered list"),
        "List properties": gettext("List properties"),
        "blockquote": gettext("Quotation"),
        "horizontal rule": gettext("Horizontal rule"),
        "bold": gettext("Bold"),
        "italic": gettext("Italic"),
        "insert link": gettext("Add a link"),
        "remove link": gettext("Remove the link"),
        "undo": gettext("Undo"),
        "redo": gettext("Redo"),
    }


def post_choices(article: Article | None) -> list[dict]:
    """The story's saved posts, as the editor lists them."""
    if article is None or article.pk is None:
        return []
    return [
        {
            "id": post.pk,
            "label": " — ".join(
                part
                for part in (
                    f"@{post.handle}" if post.handle else post.author_name,
                    Truncator(post.text).chars(80),
                )
                if part
            )
            or post.url,
        }
        for post in article.social_posts.all()
    ]


def image_choices(article: Article | None) -> list[dict]:
    """Recent library images, and those the story already places, with a thumbnail."""
    placed = set()
    if article is not None:
        for name in BODY_FIELDS:
            placed.update(embedded_ids(getattr(article, name, "") or "", "image"))
    recent = list(Image.objects.values_list("pk", flat=True)[:RECENT_IMAGES])
    images = Image.objects.filter(pk__in=placed | set(recent)).prefetch_related(
        "renditions"
    )
    return [
        {
            "id": image.pk,
            "label": f"{image.title or image.caption or image.pk} (#{image.pk})",
            "thumbnail": _thumbnail_url(image),
        }
        for image in images
    ]


def _thumbnail_url(image: Image) -> str:
    smallest = sorted(renditions_of(image), key=lambda r: r.width)
    if smallest:
        return smallest[0].file.url
    return image.file.url if image.file else ""


class BodyEditorMixin:
    """Puts the rich-text editor on the body fields of the story form."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name in BODY_FIELDS and formfield is not None:
            formfield.widget = AdminProseEditorWidget(
                attrs=formfield.widget.attrs,
                config=body_editor_config(
                    language=db_field.name.rsplit("_", 1)[1], posts=[], images=[]
                ),
                preset="configurable",
            )
        return formfield

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        posts, images = post_choices(obj), image_choices(obj)
        for name in BODY_FIELDS:
            field = form.base_fields.get(name)
            if field is not None:
                field.widget.config = body_editor_config(
                    language=name.rsplit("_", 1)[1], posts=posts, images=images
                )
        return form
