"""The workflow as the article admin shows it: state badges, the desk's filters, and
the page that asks why before a story is killed."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..models import Article, Status
from ..services import article_kill
from ..workflow import TRANSITIONS, may_make, state_of


def state_badge(article: Article) -> str:
    """The story's state as a coloured label (the colour is not the only cue)."""
    state = state_of(article)
    return format_html(
        '<span class="state-badge state-badge--{}">{}</span>', state.key, state.label
    )


class StateFilter(admin.SimpleListFilter):
    """The desk's views of the list: my drafts, in review, scheduled, embargoed…"""

    title = _("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [
            ("mine", _("My drafts")),
            ("draft", _("Drafts")),
            ("in_review", _("In review")),
            ("approved", _("Approved")),
            ("scheduled", _("Scheduled")),
            ("embargoed", _("Embargoed")),
            ("published", _("Published")),
            ("killed", _("Killed")),
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "mine":
            return queryset.drafts_of(request.user)
        if value == "scheduled":
            return queryset.scheduled()
        if value == "embargoed":
            return queryset.embargoed()
        if value == "published":
            return queryset.published()
        if value in {Status.DRAFT, Status.IN_REVIEW, Status.APPROVED, Status.KILLED}:
            return queryset.filter(status=value)
        return queryset


class KillForm(forms.Form):
    reason = forms.CharField(
        label=_("Why is the story killed?"),
        widget=forms.Textarea(attrs={"rows": 3, "dir": "auto"}),
        help_text=_(
            "Recorded in the audit trail. Readers see only that the story was removed."
        ),
    )


def kill_view(model_admin, request, object_id):
    """Ask why, then kill the story through the service."""
    article = get_object_or_404(Article, pk=object_id)
    if not may_make(TRANSITIONS["kill"], article, request.user):
        raise PermissionDenied
    form = KillForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            article_kill(
                article=article, by=request.user, reason=form.cleaned_data["reason"]
            )
        except ValidationError as refusal:
            form.add_error(None, refusal)
        else:
            model_admin.message_user(
                request, gettext("The story is killed."), messages.SUCCESS
            )
            return redirect(reverse("admin:articles_article_change", args=[article.pk]))
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": gettext("Kill story #%(id)s") % {"id": article.pk},
        "article": article,
        "form": form,
        "now": timezone.now(),
    }
    return TemplateResponse(request, "admin/articles/article/kill.html", context)
