"""Partners' webhooks and their deliveries in the editors' admin: a webhook's
secret is shown once (when it is made or rotated); deliveries are read, with each
try's answer, and replayed by an action."""

import json

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from articles import permissions as perms
from articles.models import Article
from core.service_admin import refusals_as_messages

from ..models import Delivery, DeliveryAttempt, Event, WebhookEndpoint
from .services import (
    delivery_replay,
    webhook_check,
    webhook_delete,
    webhook_save,
    webhook_secret_rotate,
)


class WebhookEndpointForm(forms.ModelForm):
    url = forms.URLField(
        label=_("address"),
        max_length=500,
        assume_scheme="https",
        help_text=_("The partner's HTTPS address that receives the events."),
    )
    events = forms.MultipleChoiceField(
        label=_("events"),
        choices=Event.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("What the partner is told of."),
    )

    class Meta:
        model = WebhookEndpoint
        fields = ("partner", "url", "events", "active")

    def full_clean(self):
        super().full_clean()
        if not self.is_bound:
            return
        # The service's own check once the instance holds the fields, so the form
        # names the field at fault.
        try:
            webhook_check(self.instance)
        except ValidationError as refusal:
            self.add_error(None, refusal)


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    form = WebhookEndpointForm
    list_display = ("partner", "url", "events_told", "active")
    list_filter = ("active", "partner")
    search_fields = ("url", "partner__name")
    readonly_fields = ("secret_rotation",)
    autocomplete_fields = ()

    @admin.display(description=_("events"))
    def events_told(self, endpoint: WebhookEndpoint) -> str:
        labels = dict(Event.choices)
        return "، ".join(str(labels.get(e, e)) for e in endpoint.events)

    @admin.display(description=_("signing secret"))
    def secret_rotation(self, endpoint: WebhookEndpoint) -> str:
        if endpoint.pk is None:
            return _("Made when the webhook is saved, and shown once.")
        url = reverse("admin:distribution_webhook_rotate", args=[endpoint.pk])
        return format_html(
            '<button type="submit" class="button" formaction="{}" '
            'formmethod="post" formnovalidate>{}</button> <span class="help">{}</span>',
            url,
            _("Make a new secret"),
            _(
                "The new secret is shown once. For a day deliveries are signed "
                "with the old one too, so the partner can switch without losing one."
            ),
        )

    def get_fields(self, request, obj=None):
        fields = ["partner", "url", "events", "active"]
        return [*fields, "secret_rotation"] if obj is not None else fields

    # One door per write: the service makes the secret and records the change.
    def save_model(self, request, obj, form, change):
        _endpoint, secret = webhook_save(
            endpoint=obj, by=request.user, events=form.cleaned_data["events"]
        )
        request._webhook_secret = secret

    def delete_model(self, request, obj):
        webhook_delete(endpoint=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for endpoint in queryset:
            webhook_delete(endpoint=endpoint, by=request.user)

    def changeform_view(self, request, *args, **kwargs):
        return refusals_as_messages(
            self, request, super().changeform_view, *args, **kwargs
        )

    def response_add(self, request, obj, post_url_continue=None):
        secret = getattr(request, "_webhook_secret", "")
        if not secret:
            return super().response_add(request, obj, post_url_continue)
        return self._secret_page(request, obj, secret)

    def _secret_page(self, request, endpoint: WebhookEndpoint, secret: str):
        response = TemplateResponse(
            request,
            "admin/distribution/webhookendpoint/secret.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Signing secret of %(webhook)s") % {"webhook": endpoint},
                "opts": self.opts,
                "endpoint": endpoint,
                "secret": secret,
                "back_url": reverse(
                    "admin:distribution_webhookendpoint_change", args=[endpoint.pk]
                ),
            },
        )
        # Shown once: never kept by a browser or a proxy.
        response["Cache-Control"] = "no-store"
        return response

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/rotate/",
                wrap(require_POST(self.rotate_view)),
                name="distribution_webhook_rotate",
            ),
            *super().get_urls(),
        ]

    def rotate_view(self, request, pk: int):
        endpoint = get_object_or_404(WebhookEndpoint, pk=pk)
        try:
            secret = webhook_secret_rotate(endpoint=endpoint, by=request.user)
        except PermissionDenied as refusal:
            self.message_user(request, str(refusal), messages.ERROR)
            return HttpResponseRedirect(
                reverse("admin:distribution_webhookendpoint_change", args=[pk])
            )
        return self._secret_page(request, endpoint, secret)


class DeliveryAttemptInline(admin.TabularInline):
    model = DeliveryAttempt
    fields = ("at", "status_code", "error", "response", "duration_ms")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False

    # A try is part of its delivery: whoever may read the delivery reads them.
    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm(perms.VIEW_DELIVERY)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "partner",
        "event",
        "story",
        "edition",
        "status",
        "attempts",
        "last_answer",
        "next_attempt_at",
    )
    list_filter = ("status", "event", "endpoint__partner")
    search_fields = ("message_id",)
    # Not the story: a deleted story's deliveries stay listed (the release keeps
    # its number, and a join would drop them). Its headline is read beside.
    list_select_related = ("endpoint__partner", "release")
    fields = (
        "message_id",
        "endpoint",
        "story",
        "edition",
        "event",
        "status",
        "attempts",
        "next_attempt_at",
        "delivered_at",
        "created_at",
        "sent_body",
    )
    readonly_fields = fields
    inlines = (DeliveryAttemptInline,)
    actions = ("replay",)
    show_full_result_count = False

    def get_queryset(self, request):
        from django.db.models import OuterRef, Subquery

        last = DeliveryAttempt.objects.filter(delivery=OuterRef("pk")).order_by(
            "-at", "-pk"
        )
        return (
            super()
            .get_queryset(request)
            .annotate(
                last_status=Subquery(last.values("status_code")[:1]),
                last_error=Subquery(last.values("error")[:1]),
                **{
                    f"headline_{code}": Subquery(
                        Article.objects.filter(
                            pk=OuterRef("release__article_id")
                        ).values(f"headline_{code}")[:1]
                    )
                    for code, _name in settings.LANGUAGES
                },
            )
        )

    @admin.display(description=_("partner"), ordering="endpoint__partner__name")
    def partner(self, delivery: Delivery) -> str:
        return str(delivery.endpoint.partner)

    @admin.display(description=_("story"))
    def story(self, delivery: Delivery) -> str:
        # The headline of the edition the delivery carried.
        headline = getattr(delivery, f"headline_{delivery.release.language}", None)
        if headline is None:
            return _("(deleted story no. %(number)s)") % {
                "number": delivery.release.article_id
            }
        return headline

    @admin.display(description=_("edition"))
    def edition(self, delivery: Delivery) -> str:
        release = delivery.release
        return _("%(language)s, version %(version)s") % {
            "language": dict(settings.LANGUAGES).get(
                release.language, release.language
            ),
            "version": release.version,
        }

    @admin.display(description=_("last answer"))
    def last_answer(self, delivery: Delivery) -> str:
        return str(delivery.last_status or delivery.last_error or "—")

    @admin.display(description=_("body sent"))
    def sent_body(self, delivery: Delivery) -> str:
        # Shown indented to be read; what was sent (and signed) is the compact
        # text kept in the row.
        try:
            shown = json.dumps(json.loads(delivery.body), ensure_ascii=False, indent=2)
        except ValueError:
            shown = delivery.body
        return format_html('<pre dir="ltr" class="webhook-body">{}</pre>', shown)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        # A delivery is never edited: "change" is the right to replay it (the
        # action), and its page is read-only.
        return obj is None and super().has_change_permission(request)

    @admin.action(description=_("Send again now"), permissions=["change"])
    def replay(self, request, queryset):
        replayed = 0
        for delivery in queryset:
            try:
                delivery_replay(delivery=delivery, by=request.user)
            except PermissionDenied as refusal:
                self.message_user(request, str(refusal), messages.ERROR)
                return
            replayed += 1
        self.message_user(
            request,
            ngettext(
                "%(count)d delivery is being sent again.",
                "%(count)d deliveries are being sent again.",
                replayed,
            )
            % {"count": replayed},
            messages.SUCCESS,
        )
