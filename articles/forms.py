"""Forms of the editors' admin: image checks and the privacy gate before publishing."""

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from newsroom.admin_mixins import https_formfield
from sources.models import lines

from .images import clean_image
from .models import SocialPost, Status
from .privacy import find_identity_leaks, protected_people, public_texts


def identity_leak_message(person) -> str:
    # Name the pseudonym only: the message is shown on screen and may be shared.
    return _(
        "The legal name of a protected person (%(person)s) appears here; "
        "use the pseudonym before publishing."
    ) % {"person": person.display_name}


def cleaned_upload(value):
    """A fresh upload made safe by `clean_image`; a stored file or a clearing as is."""
    if isinstance(value, UploadedFile):
        return clean_image(value)
    return value


class ArticleAdminForm(forms.ModelForm):
    """The article form; the admin supplies the model and fields from its fieldsets."""

    def clean_hero_image(self):
        return cleaned_upload(self.cleaned_data.get("hero_image"))

    def clean(self):
        cleaned_data = super().clean()
        if cleaned_data.get("status") == Status.PUBLISHED:
            self._refuse_identity_leaks(cleaned_data)
        return cleaned_data

    def _refuse_identity_leaks(self, cleaned_data) -> None:
        texts = [
            (field, cleaned_data.get(field, value) or "")
            for field, value in public_texts(self.instance)
        ]
        for leak in find_identity_leaks(texts):
            field = leak.field if leak.field in self.fields else None
            self.add_error(field, identity_leak_message(leak.person))


class PrivacyCheckedInlineFormSet(forms.BaseInlineFormSet):
    """Refuses a published article's inline rows that name a protected person.

    The parent form has already copied its posted values onto `self.instance`, so
    the article's new status is known here; nothing is saved unless every formset
    and the article form are valid.
    """

    privacy_fields: tuple[str, ...] = ()

    def clean(self):
        super().clean()
        if not self.privacy_fields or self.instance.status != Status.PUBLISHED:
            return
        people = None
        for form in self.forms:
            if not hasattr(form, "cleaned_data") or self._should_delete_form(form):
                continue
            texts = [
                (field, form.cleaned_data.get(field) or "")
                for field in self.privacy_fields
            ]
            if not any(text for _field, text in texts):
                continue
            if people is None:
                people = protected_people()
            for leak in find_identity_leaks(texts, people=people):
                if leak.field in form.cleaned_data:
                    form.add_error(leak.field, identity_leak_message(leak.person))


def privacy_checked_formset(*fields: str) -> type[PrivacyCheckedInlineFormSet]:
    """An inline formset class that checks `fields` of every row before publishing."""
    return type(
        "PrivacyCheckedInlineFormSet",
        (PrivacyCheckedInlineFormSet,),
        {"privacy_fields": fields},
    )


class AttributionInlineFormSet(forms.BaseInlineFormSet):
    """At most one attribution may own the canonical link.

    The database enforces it too, but a conditional unique constraint is not checked
    across the rows of one formset, so two ticked boxes would reach it as an error.
    """

    def clean(self):
        super().clean()
        canonical = [
            form
            for form in self.forms
            if getattr(form, "cleaned_data", None)
            and not self._should_delete_form(form)
            and form.cleaned_data.get("is_canonical")
        ]
        if len(canonical) > 1:
            raise forms.ValidationError(
                _("Only one source can hold the canonical link; untick the others.")
            )


class LinesField(forms.Field):
    """A list edited as text, one item per line (for hashtags, links, media URLs)."""

    widget = forms.Textarea(attrs={"rows": 2, "cols": 40, "dir": "auto"})

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

    class Meta:
        model = SocialPost
        formfield_callback = https_formfield
        fields = (
            "platform",
            "url",
            "author_name",
            "handle",
            "posted_at",
            "text",
            "language",
            "hashtags",
            "links",
            "media_urls",
            "position",
        )

    def clean_hashtags(self):
        tags = self.cleaned_data["hashtags"]
        return [tag.lstrip("#") for tag in tags if tag.strip("#")]
