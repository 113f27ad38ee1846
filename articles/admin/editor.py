"""The body editor in the story form: django-prose-editor on each language's body,
right-to-left for Arabic and left-to-right for English, with the story's posts (and
library images) offered for placing in the body."""

from django.utils.text import Truncator
from django.utils.translation import gettext
from django_prose_editor.widgets import AdminProseEditorWidget

from ..body import BODY_EXTENSIONS
from ..models import Article

BODY_FIELDS = ("body_ar", "body_en")
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
        }
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
        posts = post_choices(obj)
        for name in BODY_FIELDS:
            field = form.base_fields.get(name)
            if field is not None:
                field.widget.config = body_editor_config(
                    language=name.rsplit("_", 1)[1], posts=posts, images=[]
                )
        return form
