"""The body editor in the story form: django-prose-editor on each language's body,
right-to-left for Arabic and left-to-right for English, with the story's posts (saved
or just added in the form) and the whole image library offered for placing in the
body."""

from urllib.parse import urlencode

from django.urls import reverse
from django.utils.text import Truncator
from django.utils.translation import gettext
from django_prose_editor.widgets import AdminProseEditorWidget

from images.models import Image

from ..body import BODY_EXTENSIONS, embedded_ids
from ..models import Article
from .images import thumbnail_url

BODY_FIELDS = ("body_ar", "body_en")
_DIRECTIONS = {"ar": "rtl", "en": "ltr"}
# The social-post inline's prefix in the story form (its formset's default prefix,
# the posts' related name): the editor reads the rows not saved yet from it.
NEW_POSTS_GROUP = "social_posts"
# The image chooser asks the library's autocomplete (the hero field's), which
# searches the whole library, checks the user's permission and pages the answer.
_IMAGE_SEARCH_FIELD = {
    "app_label": "articles",
    "model_name": "article",
    "field_name": "hero_image",
}


def body_editor_config(*, language: str, posts: list[dict], images: list[dict]) -> dict:
    """The editor's configuration for one language's body of one story."""
    return {
        "extensions": BODY_EXTENSIONS
        | {
            "TextDirection": {
                "direction": _DIRECTIONS.get(language, "auto"),
                "language": language,
            },
            "StoryEmbed": {
                "posts": posts,
                "images": images,
                "image_search": reverse("admin:images_image_autocomplete")
                + "?"
                + urlencode(_IMAGE_SEARCH_FIELD),
                "new_posts_group": NEW_POSTS_GROUP,
                "labels": embed_labels(),
            },
            "ToolbarLabels": {"labels": toolbar_labels()},
        }
    }


def embed_labels() -> dict[str, str]:
    """What the post and image choosers say, in the admin's language."""
    return {
        "post": gettext("Social post"),
        "image": gettext("Image"),
        "missing": gettext("(not found: save the story to see it)"),
        "insert_post": gettext("Place a social post of this story here"),
        "insert_image": gettext("Place an image from the library here"),
        "choose_post": gettext("Social post"),
        "new_post": gettext("New (saved with the story):"),
        "new_post_help": gettext(
            "A post added below and not saved yet can be placed now: it is saved "
            "with the story, in this place."
        ),
        "missing_new_post": gettext(
            "(a new post that is no longer in the form: add it again under Social "
            "posts, or remove this from the body)"
        ),
        "no_posts": gettext(
            "This story has no social posts yet. Add one under Social posts below "
            "(paste its address or embed code); it can be placed before you save."
        ),
        "search_images": gettext("Search the image library"),
        "results": gettext("Images found"),
        "searching": gettext("Searching…"),
        "shown": gettext("Images shown: %(count)s."),
        "none": gettext("No image in the library matches."),
        "failed": gettext("The library could not be searched; try again."),
        "more": gettext("More images"),
        "insert": gettext("Place"),
        "cancel": gettext("Cancel"),
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
    """The images the story's bodies place, with a thumbnail, for the editor to show
    them; the chooser finds any other in the library."""
    placed = set()
    if article is not None:
        for name in BODY_FIELDS:
            placed.update(embedded_ids(getattr(article, name, "") or "", "image"))
    if not placed:
        return []
    images = Image.objects.filter(pk__in=placed).prefetch_related("renditions")
    return [
        {
            "id": image.pk,
            "label": f"{image.title or image.caption or image.pk} (#{image.pk})",
            "thumbnail": thumbnail_url(image),
        }
        for image in images
    ]


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
