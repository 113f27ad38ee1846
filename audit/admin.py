"""The audit trail, readable by those allowed to and changed by nobody."""

from django.contrib import admin

from .models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("at", "actor_name", "action", "object_repr", "content_type")
    list_filter = ("action", "content_type")
    search_fields = ("object_repr", "actor_name")
    date_hierarchy = "at"
    list_select_related = ("content_type",)
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
