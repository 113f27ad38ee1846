"""The image library's admin: thumbnails in the list, Arabic-aware search, uploads
cleaned and checked by the service, and the hero field's autocomplete with
thumbnails (`ImageChoiceWidget`)."""

import re

from django import forms
from django.contrib import admin
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.files.uploadedfile import UploadedFile
from django.urls import path
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.admin_mixins import ArabicSearchMixin, NewsroomTranslationAdmin
from core.service_admin import ServiceAdminMixin
from images.models import Image
from images.renditions import renditions_of

from ..services import image_check, image_delete, image_save, image_upload_clean

THUMB_WIDTH = 320
# A piece of a stored file name, as in an image's address: its random hex name (8
# characters at least: fewer would match by chance, "12" is in one name in eight)
# with or without the extension.
_FILE_NAME_RE = re.compile(r"[0-9a-f]{8,32}(\.[a-z0-9]{2,5})?")


def stored_file_name(term: str) -> str:
    """The piece of a stored file name `term` is (the last part of an image's
    address pasted whole), or "" when it is not one."""
    name = term.strip().lower().rsplit("/", 1)[-1]
    return name if _FILE_NAME_RE.fullmatch(name) else ""


def thumbnail_url(image: Image) -> str:
    """The smallest JPEG rendition of the whole picture, or the original."""
    jpegs = [r for r in renditions_of(image) if r.format == "jpeg"]
    if jpegs:
        return min(jpegs, key=lambda r: r.width).file.url
    return image.file.url if image.file else ""


class ImageAdminForm(forms.ModelForm):
    """Each upload is cleaned (metadata stripped, bad files refused) and looked up
    in the library by the service's own rule before anything is stored."""

    # A plain file field: Django's ImageField would decode the upload first and
    # answer every bad file (a decompression bomb included) with one vague message;
    # `clean_image` says what is wrong.
    file = forms.FileField(
        label=_("file"),
        help_text=_(
            "A JPEG, PNG, WebP or GIF photo up to 15 MB. Its metadata (camera, GPS "
            "position) is removed when it is saved."
        ),
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/jpeg,image/png,image/webp,image/gif"}
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if isinstance(upload, UploadedFile):
            return image_upload_clean(upload, image=self.instance)
        return upload


@admin.register(Image)
class ImageAdmin(ServiceAdminMixin, ArabicSearchMixin, NewsroomTranslationAdmin):
    form = ImageAdminForm
    list_display = ("thumbnail", "title", "credit", "source", "is_graphic", "size")
    list_display_links = ("thumbnail", "title")
    list_filter = ("is_graphic",)
    search_help_text = _(
        "Searches titles, captions, alt texts, credits and sources (hamzas and "
        "marks ignored), and file names."
    )
    readonly_fields = ("preview", "size", "uploaded_by", "uploaded_at")
    fieldsets = (
        (None, {"fields": ("file", "preview", "title", "caption", "alt_text")}),
        (
            _("Credit and warnings"),
            {"fields": ("credit", "source", "is_graphic")},
        ),
        (
            _("Cropping"),
            {
                "fields": ("focal_x", "focal_y"),
                "description": _(
                    "Crops (teasers, social cards) keep this point of the picture "
                    "in view."
                ),
            },
        ),
        (None, {"fields": ("size", "uploaded_by", "uploaded_at")}),
    )
    save_service = staticmethod(image_save)
    delete_service = staticmethod(image_delete)
    check_service = staticmethod(image_check)
    service_argument = "image"

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("uploaded_by")
            .prefetch_related("renditions")
        )

    def get_search_results(self, request, queryset, search_term):
        found, duplicates = super().get_search_results(request, queryset, search_term)
        name = stored_file_name(search_term)
        if name:
            found = found | queryset.filter(file__contains=name)
        return found, duplicates

    @admin.display(description=_("picture"))
    def thumbnail(self, image: Image):
        return format_html(
            '<img src="{}" alt="" width="96" height="54" class="image-thumb" '
            'loading="lazy">',
            thumbnail_url(image),
        )

    @admin.display(description=_("picture"))
    def preview(self, image: Image):
        if not image.pk:
            return "—"
        return format_html(
            '<img src="{}" alt="" width="{}" class="image-preview">',
            thumbnail_url(image),
            THUMB_WIDTH,
        )

    @admin.display(description=_("size"))
    def size(self, image: Image) -> str:
        return f"{image.width} × {image.height}" if image.width else "—"

    def get_urls(self):
        view = ImageAutocompleteView.as_view(admin_site=self.admin_site)
        return [
            path(
                "autocomplete/",
                self.admin_site.admin_view(view),
                name="images_image_autocomplete",
            ),
            *super().get_urls(),
        ]


class ImageAutocompleteView(AutocompleteJsonView):
    """Django's autocomplete answer, with a thumbnail address for each image."""

    def get_queryset(self):
        return super().get_queryset().prefetch_related("renditions")

    def serialize_result(self, obj, to_field_name):
        return {
            **super().serialize_result(obj, to_field_name),
            "thumb": thumbnail_url(obj),
        }


class ImageChoiceWidget(AutocompleteSelect):
    """The autocomplete for choosing a library image, showing thumbnails."""

    url_name = "%s:images_image_autocomplete"

    def build_attrs(self, base_attrs, extra_attrs=None):
        attrs = super().build_attrs(base_attrs, extra_attrs=extra_attrs)
        attrs["data-thumbnails"] = "1"
        return attrs

    @property
    def media(self):
        # Merging media keeps the order each list gives, and only that: the script
        # is listed after Django's autocomplete.js (the last of the widget's own,
        # after jQuery and select2), so it always comes after what it needs.
        after_autocomplete = ["admin/js/autocomplete.js", "admin_ext/image_choice.js"]
        return super().media + forms.Media(js=after_autocomplete)
