"""People named in stories, including those whose identity must stay protected."""

import re

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Coalesce, NullIf
from django.dispatch import Signal
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from arabic import normalize, search_fold
from arabic.slugs import unicode_slug
from core.text import lines

_NAME_WORD_RE = re.compile(r"\w+")


# Sent by Person.save() once the row, its names and its legal spellings are all
# written (post_save comes before the spellings are): the gate's cache reloads on it.
person_saved = Signal()


class LegalNameNotHeld(RuntimeError):
    """Code read a protected person's legal spellings without asking for them.

    A person read from the database holds none: they are in a table of their own,
    read through `identity.legal` only (by an identity officer, audited, or by the
    gate). Raising, rather than answering "no spellings", keeps code that forgot to
    ask from passing a legal name as absent."""


class Person(models.Model):
    """Someone named in the news.

    When `identity_protected` is set, the person's legal spellings never leave the
    newsroom: every public output uses `public_name` (a pseudonym such as قيصر), and
    templates and feeds read `display_name`. The spellings are kept apart, in
    `LegalSpelling` rows read only through `identity.legal`, so a person read from
    the database holds none: their row keeps `name` empty.

    An instance holds them only when asked (the officer's form, the gate's loader)
    or given: then `name` is the legal name and `other_spellings` its other
    spellings, in memory, and `save()` writes them to their own rows.
    """

    # Blank when the newsroom knows the person only by a nickname («قيصر»): a
    # nickname is not a legal name, and writing one here would make a guess look
    # like knowledge (and, once protected, make the gate hunt for the pseudonym).
    name = models.CharField(
        _("name"),
        max_length=200,
        blank=True,
        help_text=_(
            "Full name. For a protected person: the legal name, never published. "
            "Leave it empty when the person is known only by a nickname."
        ),
    )
    # The other spellings of a held legal name (see the class's docstring).
    _other_spellings: list[str] | None = None
    public_name = models.CharField(
        _("public name"),
        max_length=200,
        blank=True,
        help_text=_("The name readers see; required when the identity is protected."),
    )
    aliases = models.TextField(
        _("aliases and pseudonyms"),
        blank=True,
        help_text=_(
            "Other names the person is known by, one per line (e.g. قيصر, Caesar)."
        ),
    )
    description = models.CharField(_("short description"), max_length=300, blank=True)
    identity_protected = models.BooleanField(
        _("identity protected"),
        default=False,
        help_text=_("Hide the legal name from every public page, feed and API."),
    )
    slug = models.SlugField(
        _("slug"), max_length=100, allow_unicode=True, editable=False
    )
    # Folded public names, searched by everyone (the legal spellings are folded on
    # their own rows, searched by identity officers only).
    search_text = models.TextField(editable=False, blank=True)

    # What public output may show of a person (read by the identity gate).
    public_fields = ("public_name", "published_name", "aliases", "description")
    public_field_labels = {"published_name": _("name")}

    class Meta:
        # By the name readers see: ordering by the legal name would betray it.
        ordering = [Coalesce(NullIf("public_name", Value("")), "name"), "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("people")
        constraints = [
            # A protected person's legal name is on LegalSpelling rows only.
            models.CheckConstraint(
                condition=Q(identity_protected=False) | Q(name=""),
                name="protected_person_row_holds_no_legal_name",
            )
        ]
        indexes = [
            # The identity gate loads the protected people on every save and
            # import: a handful among thousands, found without reading them all.
            models.Index(
                fields=["identity_protected"],
                name="person_protected",
                condition=Q(identity_protected=True),
            )
        ]
        permissions = [
            (
                "view_legal_name",
                "Can see and edit the legal names of protected people",
            )
        ]

    def __str__(self) -> str:
        if self.identity_protected:
            return f"{self.public_name} 🔒"
        return self.name or self.public_name

    @property
    def display_name(self) -> str:
        """The only name public output may show."""
        if self.identity_protected:
            return self.public_name
        return self.public_name or self.name

    @property
    def published_name(self) -> str:
        """The name as public output may show it: empty while it is protected."""
        return "" if self.identity_protected else self.name

    @property
    def alias_list(self) -> list[str]:
        return lines(self.aliases)

    @property
    def holds_legal_spellings(self) -> bool:
        """Whether this instance holds its legal spellings (asked for or given)."""
        return bool(self.name.strip()) or self._other_spellings is not None

    @property
    def legal_spellings(self) -> list[str]:
        """Every spelling of a protected legal name; none for anyone else.

        Raises LegalNameNotHeld for a protected person read without them."""
        if not self.identity_protected:
            return []
        if not self.holds_legal_spellings:
            raise LegalNameNotHeld(f"person {self.pk}: ask identity.legal")
        spellings = [self.name, *(self._other_spellings or [])]
        return [s for s in dict.fromkeys(s.strip() for s in spellings) if s]

    @property
    def other_spellings(self) -> str:
        """The legal name's other spellings held in memory, one per line."""
        if self.identity_protected and not self.holds_legal_spellings:
            raise LegalNameNotHeld(f"person {self.pk}: ask identity.legal")
        return "\n".join(self._other_spellings or [])

    @other_spellings.setter
    def other_spellings(self, text: str) -> None:
        self._other_spellings = lines(text or "")

    def hold_legal_spellings(self, spellings: list[str]) -> None:
        """Hold `spellings` (the legal name first) as if typed: for identity.legal."""
        self.name = spellings[0] if spellings else ""
        self._other_spellings = list(spellings[1:])

    def get_absolute_url(self) -> str:
        return reverse("articles:person", kwargs={"pk": self.pk, "slug": self.slug})

    def clean(self) -> None:
        unnamed = not self.name.strip() and not self.public_name.strip()
        if unnamed and not (self.identity_protected and self._stored_legal_spellings()):
            raise ValidationError(
                _("Give the person's name, or the public name they are known by.")
            )
        if not self.identity_protected:
            return
        if not self.holds_legal_spellings and not self._stored_legal_spellings():
            # Protection with no legal name would promise what the gate cannot keep.
            raise ValidationError(
                {
                    "name": _(
                        "A protected person needs the legal name the newsroom "
                        "protects; an identity officer adds it."
                    )
                }
            )
        if not self.public_name.strip():
            raise ValidationError(
                {
                    "public_name": _(
                        "A protected person needs a public name or pseudonym."
                    )
                }
            )

    def _stored_legal_spellings(self) -> bool:
        """Whether the database keeps legal spellings of this person (not which)."""
        return bool(self.pk) and LegalSpelling.objects.filter(person=self).exists()

    def derive_fields(self) -> None:
        """Fill the slug and folded names from the row (save() and bulk writers)."""
        # The slug is public, so it is always made from the public name.
        self.slug = unicode_slug(self.display_name) or "person"
        for name, value in self.search_columns().items():
            setattr(self, name, value)

    def search_columns(self) -> dict[str, str]:
        """The folded names everyone searches: the public ones."""
        public = [self.published_name, self.public_name, *self.alias_list]
        return {
            "search_text": search_fold(" ".join(public)),
        }

    def validate_constraints(self, exclude=None) -> None:
        # The row is checked as save() writes it: a held legal name goes apart.
        legal_name = self.name
        if self.identity_protected:
            self.name = ""
        try:
            super().validate_constraints(exclude=exclude)
        finally:
            self.name = legal_name

    def save(self, *args, **kwargs) -> None:
        """Save the row; the legal spellings it holds go to their own rows.

        A protected person's row keeps no legal name; a person no longer protected
        keeps none apart (their name is on the row again, as typed)."""
        self.derive_fields()
        spellings = None
        if self.identity_protected and self.holds_legal_spellings:
            spellings = self.legal_spellings
        legal_name = self.name
        if self.identity_protected:
            self.name = ""
        try:
            super().save(*args, **kwargs)
        finally:
            self.name = legal_name
        if spellings is not None or not self.identity_protected:
            LegalSpelling.objects.filter(person=self).delete()
            LegalSpelling.objects.bulk_create(
                LegalSpelling(
                    person=self,
                    position=position,
                    spelling=spelling,
                    folded=search_fold(spelling),
                )
                for position, spelling in enumerate(spellings or [])
            )
        self.names.all().delete()
        PersonName.objects.bulk_create(self.name_rows())
        person_saved.send(sender=type(self), instance=self)

    def matchable_names(self) -> list[tuple[str, str]]:
        """(name, kind) of every name the importer may recognize in copy.

        A protected legal name is not among them: finding one is the identity gate's
        job, and it refuses the import rather than link the person.
        """
        names = [(self.public_name, PersonName.Kind.PUBLIC_NAME)]
        names += [(alias, PersonName.Kind.ALIAS) for alias in self.alias_list]
        if not self.identity_protected:
            names.insert(0, (self.name, PersonName.Kind.NAME))
        return names

    def name_rows(self) -> list["PersonName"]:
        """The person's matchable names as PersonName rows (unsaved)."""
        rows = []
        for text, kind in self.matchable_names():
            words = _NAME_WORD_RE.findall(normalize(text))
            if words:
                rows.append(
                    PersonName(
                        person=self,
                        head=" ".join(words[:2])[:200],
                        words=" ".join(words)[:300],
                        kind=kind,
                    )
                )
        return rows


class PersonName(models.Model):
    """One folded name a person goes by, indexed by its first words, so the importer
    looks up only the people whose names start with a word of the copy instead of
    loading every person. Rebuilt by Person.save(); never shown anywhere."""

    class Kind(models.TextChoices):
        NAME = "name", _("name")
        PUBLIC_NAME = "public_name", _("public name")
        ALIAS = "alias", _("alias")

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="names")
    # The first two folded words (or the only one): selective enough that a common
    # given name does not fetch everyone who bears it.
    head = models.CharField(max_length=200, db_index=True)
    words = models.CharField(max_length=300)
    kind = models.CharField(max_length=20, choices=Kind)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.words


class LegalSpelling(models.Model):
    """One spelling of a protected person's legal name (the first is the name itself).

    Kept apart from the person so that no query of people holds one by default: no
    reverse accessor, read only through `identity.legal` (the officer's reading,
    audited, and the gate's loader). `folded` is what identity officers search."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    spelling = models.CharField(max_length=200)
    folded = models.TextField(editable=False, blank=True)

    class Meta:
        ordering = ["person", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["person", "position"], name="one_legal_spelling_per_position"
            )
        ]

    def __str__(self) -> str:
        # Never the spelling: a row printed in a log or a trail must not hold it.
        return f"legal spelling {self.position} of person {self.person_id}"
