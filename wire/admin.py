"""The wire in the admin: channels and their log for source managers, the Media
Topic mapping and the incoming list for editors, and the agency's alerts on the
story form. Every write goes through `wire.services`."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from articles.admin import story_admin
from articles.services import row_delete
from core import events
from core.admin_mixins import DirAutoMixin

from .models import AgencyItem, Channel, ChannelLog, TopicSection
from .services import channel_save, topic_section_save
from .tasks import poll_enqueue
from .views import IncomingWireView, take_view, update_view


@admin.register(Channel)
class ChannelAdmin(DirAutoMixin, admin.ModelAdmin):
    list_display = ("name", "kind", "source", "section", "active", "last_polled_at")
    list_filter = ("kind", "active")
    fields = (
        "name",
        "kind",
        "source",
        "role",
        "section",
        "folder",
        "url",
        "auth_env",
        "picture_hosts",
        "every_minutes",
        "active",
        "acting_user",
    )
    readonly_fields = ("last_polled_at",)
    actions = ["poll_now"]

    @admin.action(description=gettext_lazy("Poll now"), permissions=["change"])
    def poll_now(self, request, queryset):
        """Enqueue a poll of each selected channel (a new channel tried at once)."""
        for channel in queryset.filter(active=True):
            poll_enqueue(channel)
        messages.success(
            request, _("Polls enqueued; the channel log shows what they read.")
        )

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "acting_user":
            kwargs["queryset"] = (
                get_user_model()
                .objects.filter(is_active=True, is_staff=True)
                .order_by("username")
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        channel_save(channel=obj, by=request.user)

    def delete_model(self, request, obj):
        row_delete(
            obj,
            by=request.user,
            refusal=_("You may not delete channels."),
            event=events.wire_settings_changed,
        )


@admin.register(ChannelLog)
class ChannelLogAdmin(admin.ModelAdmin):
    list_display = ("at", "channel", "level", "file_name", "message")
    list_filter = ("level", "channel")
    list_select_related = ("channel",)
    search_fields = ("file_name", "message")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TopicSection)
class TopicSectionAdmin(DirAutoMixin, admin.ModelAdmin):
    list_display = ("code", "name", "section")
    list_select_related = ("section",)
    search_fields = ("code", "name")

    def save_model(self, request, obj, form, change):
        topic_section_save(mapping=obj, by=request.user)

    def delete_model(self, request, obj):
        row_delete(
            obj,
            by=request.user,
            refusal=_("You may not change the mapping."),
            event=events.wire_settings_changed,
        )


@admin.register(AgencyItem)
class AgencyItemAdmin(admin.ModelAdmin):
    """The incoming list: a page of its own, not the changelist."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "",
                wrap(IncomingWireView.as_view(model_admin=self)),
                name="wire_agencyitem_changelist",
            ),
            path("<int:pk>/take/", wrap(take_view), name="wire_agencyitem_take"),
            path("<int:pk>/update/", wrap(update_view), name="wire_agencyitem_update"),
        ]


@story_admin.notices
def agency_alerts(request, article) -> list[str]:
    """The story form says when the agency updated or withdrew its copy."""
    rows = AgencyItem.objects.filter(article=article).exclude(alert="")
    return [row.alert_text for row in rows]
