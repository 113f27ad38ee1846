"""The admins of the desk's sections and of tags, writing through the services."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from taggit.admin import TagAdmin as TaggitTagAdmin
from taggit.models import Tag

from core.admin_mixins import DirAutoMixin, NewsroomTranslationAdmin
from core.service_admin import ServiceAdminMixin
from identity.gate import IdentityLeakError, leak_message

from ..models import Section
from ..services import (
    may_merge_tags,
    public_rows_check,
    section_delete,
    section_save,
    tag_delete,
    tag_merge,
    tag_save,
)


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

MAX_MERGED = 500  # tags merged at once: the admin's list shows 100 a page


def _is_id(part: str) -> bool:
    return part.isascii() and part.isdigit() and len(part) < 19


class TagMergeForm(forms.Form):
    into = forms.CharField(
        label=_("Merge into the tag named"),
        max_length=100,
        help_text=_(
            "An existing tag, or a new one. The stories of the chosen tags take it, "
            "and the chosen tags are deleted."
        ),
        widget=forms.TextInput(attrs={"dir": "auto"}),
    )


@admin.register(Tag)
class TagAdmin(ServiceAdminMixin, DirAutoMixin, TaggitTagAdmin):
    """taggit's tag admin, without listing every tagged item on the tag's page, and
    with its merge action and page replaced by ones that merge through `tag_merge`
    (taggit's renamed and merged with no permission and no identity gate)."""

    inlines = ()
    search_fields = ("name", "slug")
    actions = ("merge_tags",)
    save_service = staticmethod(tag_save)
    delete_service = staticmethod(tag_delete)
    check_service = staticmethod(public_rows_check)
    service_argument = "tag"

    def has_merge_permission(self, request) -> bool:
        return may_merge_tags(request.user)

    def get_urls(self):
        # taggit's own "merge-tags/" view is left out; the name now leads to ours.
        taggit_urls = [
            url
            for url in super().get_urls()
            if getattr(url, "name", None) != "taggit_tag_merge_tags"
        ]
        return [
            path(
                "merge-tags/",
                self.admin_site.admin_view(self.merge_view),
                name="taggit_tag_merge_tags",
            ),
            *taggit_urls,
        ]

    @admin.action(description=_("Merge selected tags"), permissions=["merge"])
    def merge_tags(self, request, queryset):
        ids = ",".join(str(pk) for pk in queryset.values_list("pk", flat=True))
        return HttpResponseRedirect(
            f"{reverse('admin:taggit_tag_merge_tags')}?ids={ids}"
        )

    def merge_view(self, request):
        """Ask for the name to merge the chosen tags into, then merge them through
        the service (its permission check, the identity gate, the audit)."""
        if not self.has_merge_permission(request):
            raise PermissionDenied
        raw = request.POST.get("ids") or request.GET.get("ids") or ""
        ids = [int(p) for p in raw.split(",")[:MAX_MERGED] if _is_id(p.strip())]
        tags = list(Tag.objects.filter(pk__in=ids).order_by("name"))
        if not tags:
            self.message_user(
                request, gettext("Choose the tags to merge."), messages.WARNING
            )
            return HttpResponseRedirect(reverse("admin:taggit_tag_changelist"))
        form = TagMergeForm(request.POST if request.method == "POST" else None)
        if form.is_valid():
            try:
                target = tag_merge(
                    tags=tags, into=form.cleaned_data["into"], by=request.user
                )
            except IdentityLeakError as refusal:
                form.add_error("into", leak_message())
                form.add_error(None, refusal.messages)
            except ValidationError as refusal:
                form.add_error(None, refusal.messages)
            else:
                self.message_user(
                    request,
                    gettext("The tags were merged into “%(tag)s”.")
                    % {"tag": target.name},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:taggit_tag_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("Merge tags"),
            "tags": tags,
            "ids": ",".join(str(tag.pk) for tag in tags),
            "form": form,
        }
        return TemplateResponse(request, "admin/taggit/tag/merge.html", context)
