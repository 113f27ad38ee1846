"""The audit trail, readable by those allowed to and changed by nobody; and the
accounts admin, which records every change of someone's roles."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from .actions import Action, registered
from .models import AuditEvent
from .services import audit_record


class ActionListFilter(admin.SimpleListFilter):
    """Filters the trail by verb, offering every verb the apps register (the column
    has no choices to read them from)."""

    title = _("action")
    parameter_name = "action"

    def lookups(self, request, model_admin):
        return registered()

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(action=self.value())
        return queryset


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("at", "actor_name", "action_label", "object_repr", "content_type")
    list_filter = (
        ActionListFilter,
        ("actor", admin.RelatedOnlyFieldListFilter),
        "content_type",
    )
    # A number finds the events of that object (with the content type filter).
    search_fields = ("object_repr", "actor_name", "=object_id")
    search_help_text = _(
        "Searches the object and the user; a number finds that object."
    )
    date_hierarchy = "at"
    list_select_related = ("content_type",)
    show_full_result_count = False

    @admin.display(description=_("action"), ordering="action")
    def action_label(self, event):
        return event.get_action_display()

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Django's accounts admin; a change of groups or of superuser status (a role
    change) is written to the audit trail. Apps above this one may extend it and
    save the account through a service of theirs (`save_user`)."""

    def save_model(self, request, obj, form, change):
        # Read before the save: groups are written later, with the form's m2m data.
        form.roles_before = _roles(User.objects.get(pk=obj.pk)) if change else ""
        self.save_user(request, obj, form, change)

    def save_user(self, request, obj, form, change):
        """Write the account itself (Django's save, unless a subclass says)."""
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        before, after = getattr(form, "roles_before", ""), _roles(form.instance)
        if before != after:
            audit_record(
                by=request.user,
                action=Action.ROLES_CHANGED,
                obj=form.instance,
                message=f"{before or '-'} → {after or '-'}",
            )


def _roles(user) -> str:
    groups = sorted(user.groups.values_list("name", flat=True))
    if user.is_superuser:
        groups.insert(0, "superuser")
    return ", ".join(groups)
