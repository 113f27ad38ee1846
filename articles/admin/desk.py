"""The admins of the desk's sections and of tags, writing through the services."""

from django.contrib import admin
from taggit.admin import TagAdmin as TaggitTagAdmin
from taggit.models import Tag

from core.admin_mixins import DirAutoMixin, NewsroomTranslationAdmin

from ..models import Section
from ..services import (
    public_rows_check,
    section_delete,
    section_save,
    tag_delete,
    tag_save,
)
from .base import ServiceAdminMixin


@admin.register(Section)
class SectionAdmin(ServiceAdminMixin, NewsroomTranslationAdmin):
    list_display = ("name", "slug", "position")
    list_editable = ("position",)
    search_fields = ("name_ar", "name_en", "slug")
    save_service = staticmethod(section_save)
    delete_service = staticmethod(section_delete)
    check_service = staticmethod(public_rows_check)
    service_argument = "section"


admin.site.unregister(Tag)


@admin.register(Tag)
class TagAdmin(ServiceAdminMixin, DirAutoMixin, TaggitTagAdmin):
    """taggit's tag admin, without listing every tagged item on the tag's page."""

    inlines = ()
    search_fields = ("name", "slug")
    save_service = staticmethod(tag_save)
    delete_service = staticmethod(tag_delete)
    check_service = staticmethod(public_rows_check)
    service_argument = "tag"
