"""Forms of the editors' admin: image checks, lists as lines, the story check and
the correction page."""

from django import forms
from django.contrib.admin.widgets import AdminSplitDateTime
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import ProhibitNullCharactersValidator
from django.forms.models import model_to_dict
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from core.admin_mixins import https_formfield
from core.service_forms import ServiceCheckedForm
from core.text import lines
from images.uploads import clean_image

from .concurrency import EditConflict, Merge, merge_edit
from .form_values import new_rows_by_key, show_values
from .models import Article, Correction, SocialPost
from .revision_diff import ConflictShown, conflicts_shown
from .services import StoryEdit, story_check

# The radio buttons of each conflict shown after a refused save
# (edit_conflicts.html), and how many choices a save reads at most.
CONFLICT_INPUT = "conflict-"
MAX_CHOICES = 50


def cleaned_upload(value):
    """A fresh upload made safe by `clean_image`; a stored file or a clearing as is."""
    if isinstance(value, UploadedFile):
        return clean_image(value)
    return value


class ArticleAdminForm(ServiceCheckedForm):
    """The article form; the admin supplies the model and fields from its fieldsets.

    Before anything is saved it runs the service's story check over the article and
    its inlines as submitted, so a refusal shows on the field that holds the name.
    """

    publish_at = forms.SplitDateTimeField(
        label=_("publish at"),
        required=False,
        widget=AdminSplitDateTime,
        help_text=_(
            "With “Save and publish”: leave empty to publish now, or give a time "
            "to schedule the story."
        ),
    )

    # The story's version when the form was opened: a save based on an older one is
    # merged with what changed since, or refused where both changed the same thing.
    base_version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    merged: list[str] = []  # what validation kept of others' changes
    # After a refused save, each conflict as edit_conflicts.html shows it.
    edit_conflicts: list[ConflictShown] = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["base_version"].initial = self.instance.version

    def take_theirs(self) -> list[str]:
        """The places where the editor chose the others' version after a conflict
        (each conflict's radio buttons post "mine" or the conflict's choice)."""
        chosen = [
            value
            for key, value in self.data.items()
            if key.startswith(CONFLICT_INPUT) and value != "mine"
        ]
        return [value for value in chosen if len(value) < 200][:MAX_CHOICES]

    @cached_property
    def story_edit(self) -> StoryEdit:
        """The one edit of this submission: checked by the form, then saved by the
        admin (ArticleAdmin.save_related) through the service."""
        changed, deleted = self.submitted_rows
        return StoryEdit(
            article=self.instance,
            tags=self.cleaned_data.get("tags"),
            changed=changed,
            deleted=deleted,
            base_version=self.cleaned_data.get("base_version"),
            new_posts=new_rows_by_key(self.formsets),
            take_theirs=self.take_theirs(),
        )

    def check_submission(self, changed: list, deleted: list) -> None:
        edit = self.story_edit
        if self.instance.pk:
            stored = Article.objects.get(pk=self.instance.pk)
            try:
                merge = merge_edit(edit, stored)
            except EditConflict as conflict:
                self.edit_conflicts = conflicts_shown(conflict.conflicts)
                self._show_merge(conflict.merge)
                raise
            self.merged = merge.kept_theirs
            self._show_merge(merge)
        story_check(edit=edit)

    def _show_merge(self, merge: Merge) -> None:
        """Shown again, the form holds the editor's changes and the stored value of
        everything else, and is based on the stored version: a save from it cannot
        put back a value nobody typed."""
        values: dict[str, object] = {}
        if merge.version is not None:
            values["base_version"] = merge.version
        for name in merge.kept_fields:
            field_name = name if name in self.fields else name.removesuffix("_id")
            values[field_name] = getattr(self.instance, name)
        if merge.kept_tags:
            values["tags"] = list(self.instance.tags.all())
        show_values(self, values)
        kept = {(type(row), row.pk): row for row in merge.kept_rows}
        for formset in self.formsets:
            for form in formset.forms:
                row = kept.get((type(form.instance), form.instance.pk))
                if row is not None:
                    show_values(form, model_to_dict(row))
                    for other in [formset, *formset.forms]:
                        other.data = form.data


class LinesField(forms.Field):
    """A list edited as text, one item per line (for hashtags, links, media URLs)."""

    widget = forms.Textarea(attrs={"rows": 2, "cols": 40, "dir": "auto"})

    def validate(self, value):
        super().validate(value)
        # As CharField does: the database cannot store a NUL, so it is a form error.
        for item in value or []:
            ProhibitNullCharactersValidator()(item)

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return "\n".join(str(item) for item in value)
        return value

    def to_python(self, value):
        if isinstance(value, list | tuple):
            return [str(item) for item in value]
        return lines(value or "")

    def has_changed(self, initial, data):
        return self.to_python(initial) != self.to_python(data)


class SocialPostAdminForm(forms.ModelForm):
    """A social post typed in by hand; an editor pastes the post's fields."""

    hashtags = LinesField(
        label=_("hashtags"), required=False, help_text=_("One per line, without #.")
    )
    links = LinesField(label=_("links"), required=False, help_text=_("One per line."))
    media_urls = LinesField(
        label=_("media URLs"), required=False, help_text=_("One per line.")
    )
    # Given by the body editor when it places this post before the post is saved;
    # the body refers to it by this key until the save gives it a number.
    placement_key = forms.RegexField(
        regex=r"^[A-Za-z0-9_-]{1,40}$", required=False, widget=forms.HiddenInput
    )

    class Meta:
        model = SocialPost
        formfield_callback = https_formfield
        fields = (
            "platform",
            "url",
            "author_name",
            "handle",
            "posted_at",
            "posted_on",
            "text",
            "language",
            "hashtags",
            "links",
            "media_urls",
        )

    def clean_hashtags(self):
        tags = self.cleaned_data["hashtags"]
        return [tag.lstrip("#") for tag in tags if tag.strip("#")]


class CorrectionForm(forms.Form):
    """A correction as an editor types it; `correction_add` decides whether it may
    be printed (text in at least one language, no protected name)."""

    kind = forms.ChoiceField(
        label=_("kind"), choices=Correction.Kind, initial=Correction.Kind.CORRECTION
    )
    text_ar = forms.CharField(
        label=_("text in Arabic"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 4, "cols": 60, "dir": "auto", "lang": "ar"}
        ),
    )
    text_en = forms.CharField(
        label=_("text in English"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 4, "cols": 60, "dir": "auto", "lang": "en"}
        ),
        help_text=_(
            "Readers of each edition see the text in its language, or the other "
            "one if that is all there is."
        ),
    )
