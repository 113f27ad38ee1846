"""Forms for the import page and for pasting a post into the social-post inline."""

from pathlib import Path

from django import forms
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _

from articles.forms import SocialPostAdminForm
from articles.models import ArticlePerson
from identity.models import Person

from .decode import MAX_BYTES, text_from_bytes
from .embeds import ParsedPost, recognize_paste
from .problems import StoryImportError
from .result import Confirmation, PersonChoice

ALLOWED_SUFFIXES = {".txt", ".text", ".html", ".htm"}


class ImportStoryForm(forms.Form):
    """Step one of the import: the story pasted as text or uploaded as a file."""

    text = forms.CharField(
        label=_("Story text"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 18, "cols": 90, "dir": "auto"}),
        help_text=_(
            "Headline on the first line, then the paragraphs, embedded posts "
            "and the attribution line, as received."
        ),
    )
    file = forms.FileField(
        label=_("or a file"),
        required=False,
        help_text=_("A .txt or .html file."),
    )

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        if Path(upload.name).suffix.lower() not in ALLOWED_SUFFIXES:
            raise forms.ValidationError(_("Upload a .txt or .html file."))
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large; the limit is %(mb)s MB.")
                % {"mb": MAX_BYTES // 1024 // 1024}
            )
        try:
            text, self.decode_warnings = text_from_bytes(upload.read())
        except StoryImportError as exc:
            raise forms.ValidationError([str(p) for p in exc.problems]) from None
        return text

    def clean(self):
        cleaned = super().clean()
        if (
            not self.errors
            and not cleaned.get("file")
            and not cleaned.get("text", "").strip()
        ):
            raise forms.ValidationError(_("Paste the story or choose a file."))
        return cleaned

    @property
    def story_text(self) -> str:
        return self.cleaned_data.get("file") or self.cleaned_data.get("text", "")

    @property
    def origin(self) -> str:
        """The uploaded file's name, or "" for pasted text."""
        upload = self.files.get(self.add_prefix("file"))
        return upload.name[:255] if upload and self.cleaned_data.get("file") else ""


class ConfirmImportForm(forms.Form):
    """Step two: the text seen in the preview, and the editor's choices."""

    text = forms.CharField(strip=False, widget=forms.HiddenInput)
    # The uploaded file's name, for the audit trail; empty when the text was pasted.
    origin = forms.CharField(required=False, max_length=255, widget=forms.HiddenInput)
    allow_duplicate = forms.BooleanField(
        label=_("Import again even though it looks like a duplicate"), required=False
    )
    confirm_sources = forms.MultipleChoiceField(
        label=_("Create these sources and credit them"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    cited = forms.MultipleChoiceField(
        label=_("Credit these sources as cited"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    tags = forms.MultipleChoiceField(
        label=_("Tag the story with"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    breaking = forms.BooleanField(label=_("Mark as breaking news"), required=False)
    embed_links = forms.MultipleChoiceField(
        label=_(
            "Embed these posts where the text links to them (unticked: kept as a link)"
        ),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, unknown_sources=(), result=None, **kwargs):
        super().__init__(*args, **kwargs)
        names = list(dict.fromkeys(unknown_sources))
        self.fields["confirm_sources"].choices = [(name, name) for name in names]
        self.result = result
        self.people_fields: list[tuple[object, str, str, str]] = []
        if result is not None:
            self._add_proposals(result)

    def _add_proposals(self, result) -> None:
        """A field per proposal; tags start ticked, everything else unticked (the
        breaking flag above all: it puts the story on every page for hours, so an
        editor ticks it or nobody does)."""
        self.fields["cited"].choices = [
            (c.key, f"{c.source.name} — “{c.name_used}”") for c in result.cited
        ]
        self.fields["tags"].choices = [(t, t) for t in result.tags]
        self.fields["tags"].initial = list(result.tags)
        self.fields["embed_links"].choices = [
            (link.url, link.url) for link in result.story.link_posts
        ]
        aliases = alias_choices(result)
        for index, proposal in enumerate(result.proposed_people):
            prefix = f"person-{index}"
            self.fields[f"{prefix}-accept"] = forms.BooleanField(
                label=_("Add “%(name)s”") % {"name": proposal.name}, required=False
            )
            self.fields[f"{prefix}-role"] = forms.ChoiceField(
                label=_("role in the story"),
                choices=ArticlePerson.Role.choices,
                initial=proposal.role,
            )
            self.fields[f"{prefix}-alias"] = forms.ChoiceField(
                label=_("this is an alias of"),
                choices=[
                    ("", _("nobody: a new person")),
                    *[
                        (v, label)
                        for v, label in aliases
                        if v != f"name:{proposal.name}"
                    ],
                ],
                required=False,
                initial=_alias_initial(proposal),
            )
            self.people_fields.append(
                (proposal, f"{prefix}-accept", f"{prefix}-role", f"{prefix}-alias")
            )

    @property
    def people_rows(self) -> list[tuple]:
        return [
            (proposal, self[accept], self[role], self[alias])
            for proposal, accept, role, alias in self.people_fields
        ]

    def confirmation(self) -> Confirmation:
        """The editor's answers, as the import service takes them."""
        data = self.cleaned_data
        people = []
        for proposal, accept, role, alias in self.people_fields:
            if not data.get(accept):
                continue
            target = data.get(alias) or ""
            person = None
            if target.startswith("person:"):
                person = Person.objects.filter(pk=target.split(":", 1)[1]).first()
            people.append(
                PersonChoice(
                    proposal.name,
                    data.get(role) or proposal.role,
                    alias_of_person=person,
                    alias_of_name=target[5:] if target.startswith("name:") else "",
                )
            )
        return Confirmation(
            people=people,
            cited=list(data.get("cited") or []),
            tags=list(data.get("tags") or []),
            breaking=bool(data.get("breaking")),
            embed_links=list(data.get("embed_links") or []),
        )


def _alias_initial(proposal) -> str:
    """The alias the copy suggests, as the choice's value ("" for none)."""
    if proposal.alias_of:
        return f"name:{proposal.alias_of}"
    if proposal.alias_of_person is not None:
        return f"person:{proposal.alias_of_person.pk}"
    return ""


MAX_ALIAS_PEOPLE = 300  # an editor picks from a list, not from the whole database


def alias_choices(result) -> list[tuple[str, str]]:
    """Whom a proposed name may be an alias of: the other proposed names, the people
    the story names, then other people by public name."""
    choices = [(f"name:{p.name}", p.name) for p in result.proposed_people]
    named = [m.person for m in result.people]
    others = Person.objects.exclude(pk__in=[p.pk for p in named])[:MAX_ALIAS_PEOPLE]
    for person in [*named, *others]:
        choices.append((f"person:{person.pk}", str(person.display_name)))
    return choices


def post_field_values(post: ParsedPost) -> dict:
    """A recognized post as SocialPost field values, empty ones included."""
    return {
        "platform": str(post.platform),
        "url": post.url,
        "author_name": post.author_name,
        "handle": post.handle,
        "posted_on": post.posted_at,
        "text": post.text,
        "language": post.language,
        "hashtags": post.hashtags,
        "links": post.links,
        "media_urls": post.media_urls,
    }


def recognize_paste_for_form(paste: str) -> tuple[dict, list[str]]:
    """What a paste fills in the post inline, and messages for the editor."""
    post, problems = recognize_paste(paste)
    messages = [str(p) for p in problems]
    if post is None:
        if not any(p.is_error for p in problems):
            messages.append(str(NOT_RECOGNIZED))
        return {}, messages
    return post_field_values(post), messages


NOT_RECOGNIZED = _(
    "No post was recognized in what was pasted: paste the post's URL or its embed code."
)


class SocialPostPasteForm(SocialPostAdminForm):
    """The social-post inline's form: pasting a URL or embed code fills the fields."""

    paste = forms.CharField(
        label=_("Paste a post URL or embed code"),
        required=False,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "dir": "auto",
                "data-recognize-url": reverse_lazy(
                    "admin:articles_article_recognize_post"
                ),
            }
        ),
        help_text=_("Fills the fields below; scripts in embed code are never kept."),
    )

    class Meta(SocialPostAdminForm.Meta):
        fields = ["paste", *SocialPostAdminForm.Meta.fields]

    class Media:
        # Fills the fields as soon as something is pasted; saving fills them too.
        js = ("admin_ext/social_paste.js",)

    def clean(self):
        cleaned = super().clean()
        paste = cleaned.get("paste", "")
        if not paste.strip():
            return cleaned
        post, problems = recognize_paste(paste)
        errors = [str(p) for p in problems if p.is_error]
        if errors:
            self.add_error("paste", errors)
            return cleaned
        if post is None:
            self.add_error("paste", NOT_RECOGNIZED)
            return cleaned
        values = post_field_values(post)
        for name, value in values.items():
            if value in ("", None, []):
                continue
            # Set both: construct_instance only copies fields the inline shows.
            cleaned[name] = value
            setattr(self.instance, name, value)
            self.errors.pop(name, None)
        return cleaned
