"""People named in stories, including those whose identity must stay protected."""

import re

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Coalesce, NullIf
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from arabic import normalize, search_fold
from arabic.slugs import unicode_slug
from core.text import lines

from ..identity import IdentityGate, leak_message, spelling_problem

_NAME_WORD_RE = re.compile(r"\w+")


class Person(models.Model):
    """Someone named in the news.

    When `identity_protected` is set, `name` is the legal name known to the newsroom
    and never leaves it: every public output uses `public_name` (a pseudonym such as
    قيصر). Templates and feeds read `display_name`, never `name`.
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
    public_name = models.CharField(
        _("public name"),
        max_length=200,
        blank=True,
        help_text=_("The name readers see; required when the identity is protected."),
    )
    other_spellings = models.TextField(
        _("other spellings of the legal name"),
        blank=True,
        help_text=_(
            "For a protected person: the legal name as written in other scripts or "
            "forms, one per line (e.g. Mazen al-Khatib); none is ever published."
        ),
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
    # Folded public names, searched by everyone; the legal spellings of a protected
    # person are folded into `legal_search_text`, searched only by identity officers.
    search_text = models.TextField(editable=False, blank=True)
    legal_search_text = models.TextField(editable=False, blank=True)

    # What public output may show of a person (read by the identity gate).
    public_fields = ("public_name", "published_name", "aliases", "description")
    public_field_labels = {"published_name": _("name")}

    class Meta:
        # By the name readers see: ordering by the legal name would betray it.
        ordering = [Coalesce(NullIf("public_name", Value("")), "name"), "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("people")
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
    def legal_spellings(self) -> list[str]:
        """Every spelling of a protected legal name; none for anyone else."""
        if not self.identity_protected:
            return []
        spellings = [self.name, *lines(self.other_spellings)]
        return [s for s in dict.fromkeys(s.strip() for s in spellings) if s]

    def reveals_identity(self, text: str) -> bool:
        """Whether `text` holds one of this person's protected legal spellings."""
        return bool(IdentityGate([self]).people_in(text))

    def get_absolute_url(self) -> str:
        return reverse("articles:person", kwargs={"pk": self.pk, "slug": self.slug})

    def clean(self) -> None:
        if not self.name.strip() and not self.public_name.strip():
            raise ValidationError(
                _("Give the person's name, or the public name they are known by.")
            )
        if not self.identity_protected:
            return
        if not self.name.strip():
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
        errors = {}
        for spelling in self.legal_spellings:
            problem = spelling_problem(spelling)
            if problem:
                field = "name" if spelling == self.name.strip() else "other_spellings"
                errors.setdefault(field, problem)
        for leak in IdentityGate([self]).leaks([self]):
            errors.setdefault(leak.field, leak_message())
        if errors:
            raise ValidationError(errors)

    def derive_fields(self) -> None:
        """Fill the slug and folded names from the row (save() and bulk writers)."""
        # The slug is public, so it is always made from the public name.
        self.slug = unicode_slug(self.display_name) or "person"
        for name, value in self.search_columns().items():
            setattr(self, name, value)

    def search_columns(self) -> dict[str, str]:
        """The folded names: the public ones, and the legal ones officers search."""
        public = [self.published_name, self.public_name, *self.alias_list]
        return {
            "search_text": search_fold(" ".join(public)),
            "legal_search_text": search_fold(" ".join(self.legal_spellings)),
        }

    def save(self, *args, **kwargs) -> None:
        self.derive_fields()
        super().save(*args, **kwargs)
        self.names.all().delete()
        PersonName.objects.bulk_create(self.name_rows())

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


class ArticlePerson(models.Model):
    """A person's part in one story and the name the story uses for them."""

    class Role(models.TextChoices):
        SUBJECT = "subject", _("Subject")
        QUOTED = "quoted", _("Quoted")
        MENTIONED = "mentioned", _("Mentioned")

    article = models.ForeignKey(
        "articles.Article", on_delete=models.CASCADE, related_name="people_named"
    )
    person = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        related_name="appearances",
        verbose_name=_("person"),
    )
    role = models.CharField(
        _("role"), max_length=20, choices=Role, default=Role.MENTIONED
    )
    name_used = models.CharField(
        _("name used in the story"),
        max_length=200,
        blank=True,
        help_text=_("Leave empty to use the person's public name."),
    )
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    public_fields = ("name_used",)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = _("person in the story")
        verbose_name_plural = _("people in the story")
        constraints = [
            models.UniqueConstraint(
                fields=["article", "person"], name="unique_person_per_article"
            )
        ]

    def __str__(self) -> str:
        return f"{self.shown_name} ({self.get_role_display()})"

    @property
    def shown_name(self) -> str:
        """The name shown on the article page; never a protected legal name.

        The identity gate refuses such a name_used in public stories, but rows written
        around it (a shell) fall back to the pseudonym here rather than reveal anyone.
        """
        if self.name_used and not self.person.reveals_identity(self.name_used):
            return self.name_used
        return self.person.display_name

    def clean(self) -> None:
        if not self.name_used or not self.person_id:
            return
        if self.person.reveals_identity(self.name_used):
            raise ValidationError(
                {
                    "name_used": _(
                        "This person's identity is protected: use the pseudonym."
                    )
                }
            )
