"""Partners in the editors' admin: what each may receive, and its API keys (made
and revoked by buttons on the partner's page; a new key is shown once)."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.service_admin import refusals_as_messages

from .models import Partner, PartnerKey
from .services import (
    partner_delete,
    partner_key_create,
    partner_key_revoke,
    partner_save,
)


class PartnerKeyInline(admin.TabularInline):
    """The partner's keys, listed by prefix; made and revoked only by the buttons
    (through the services), never typed in."""

    model = PartnerKey
    fields = ("prefix", "created_at", "created_by", "revoked_at", "revoke")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    verbose_name_plural = _("API keys")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("revoke"))
    def revoke(self, key: PartnerKey) -> str:
        if not key.is_live:
            return "—"
        url = reverse(
            "admin:distribution_partner_key_revoke", args=[key.partner_id, key.pk]
        )
        # A button of the partner's own form (it carries the CSRF token), sent to
        # the revoke view instead of the save.
        return format_html(
            '<button type="submit" class="button" formaction="{}" '
            'formmethod="post" formnovalidate>{}</button>',
            url,
            _("Revoke"),
        )


@admin.register(Partner)
class PartnerAdmin(admin.ModelAdmin):
    list_display = ("name", "active", "rate_limit", "live_keys")
    list_filter = ("active",)
    search_fields = ("name", "contact")
    filter_horizontal = ("sections", "sources", "rights_sources")
    readonly_fields = ("new_key",)
    inlines = (PartnerKeyInline,)
    fieldsets = (
        (None, {"fields": ("name", "active", "contact", "rate_limit")}),
        (_("What it receives"), {"fields": ("sections", "sources")}),
        (_("Rights"), {"fields": ("rights_sources",)}),
        (_("API keys"), {"fields": ("new_key",)}),
    )

    def get_queryset(self, request):
        from django.db.models import Count, Q

        return (
            super()
            .get_queryset(request)
            .annotate(
                live_key_count=Count("keys", filter=Q(keys__revoked_at__isnull=True))
            )
        )

    @admin.display(description=_("live keys"), ordering="live_key_count")
    def live_keys(self, partner: Partner) -> int:
        return partner.live_key_count

    @admin.display(description=_("new key"))
    def new_key(self, partner: Partner) -> str:
        if partner.pk is None:
            return _("Save the partner first; then make its key here.")
        url = reverse("admin:distribution_partner_key_create", args=[partner.pk])
        return format_html(
            '<button type="submit" class="button" formaction="{}" '
            'formmethod="post" formnovalidate>{}</button> <span class="help">{}</span>',
            url,
            _("Make a new key"),
            _(
                "The key is shown once. A partner may hold two live keys: make the "
                "new one, let the partner switch, then revoke the old."
            ),
        )

    # One door per write: the form's rows and lists go through partner_save.
    def save_model(self, request, obj, form, change):
        pass

    def save_related(self, request, form, formsets, change):
        data = form.cleaned_data
        partner_save(
            partner=form.instance,
            by=request.user,
            sections=data.get("sections"),
            sources=data.get("sources"),
            rights_sources=data.get("rights_sources"),
        )
        # The keys' rows are read-only: nothing to write, but the admin's history
        # message reads what each formset would have saved.
        for formset in formsets:
            formset.save(commit=False)

    def delete_model(self, request, obj):
        partner_delete(partner=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for partner in queryset:
            partner_delete(partner=partner, by=request.user)

    def changeform_view(self, request, *args, **kwargs):
        return refusals_as_messages(
            self, request, super().changeform_view, *args, **kwargs
        )

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/keys/new/",
                wrap(require_POST(self.key_create_view)),
                name="distribution_partner_key_create",
            ),
            path(
                "<int:pk>/keys/<int:key_pk>/revoke/",
                wrap(require_POST(self.key_revoke_view)),
                name="distribution_partner_key_revoke",
            ),
            *super().get_urls(),
        ]

    def _change_url(self, partner: Partner) -> str:
        return reverse("admin:distribution_partner_change", args=[partner.pk])

    def key_create_view(self, request, pk: int):
        partner = get_object_or_404(Partner, pk=pk)
        try:
            key, full = partner_key_create(partner=partner, by=request.user)
        except (PermissionDenied, ValidationError) as refusal:
            text = (
                " ".join(refusal.messages)
                if isinstance(refusal, ValidationError)
                else str(refusal)
            )
            self.message_user(request, text, messages.ERROR)
            return HttpResponseRedirect(self._change_url(partner))
        response = TemplateResponse(
            request,
            "admin/distribution/partner/key_created.html",
            {
                **self.admin_site.each_context(request),
                "title": _("New API key for %(partner)s") % {"partner": partner},
                "opts": self.opts,
                "partner": partner,
                "key": key,
                "full_key": full,
                "back_url": self._change_url(partner),
            },
        )
        # Shown once: never kept by a browser or a proxy.
        response["Cache-Control"] = "no-store"
        return response

    def key_revoke_view(self, request, pk: int, key_pk: int):
        key = get_object_or_404(PartnerKey, pk=key_pk, partner_id=pk)
        try:
            partner_key_revoke(key=key, by=request.user)
        except PermissionDenied as refusal:
            self.message_user(request, str(refusal), messages.ERROR)
        else:
            self.message_user(
                request,
                _("The key %(key)s is revoked: it no longer opens the API.")
                % {"key": key},
                messages.SUCCESS,
            )
        return HttpResponseRedirect(self._change_url(key.partner))


from .webhooks import admin as webhooks_admin  # noqa: E402,F401  registers its admins
