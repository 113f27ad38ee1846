"""The gate: every protected person's legal spellings, and the refusals it makes."""

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from taggit.models import TagBase

from core.service_forms import form_field

from .exposure import field_label, public_texts, read_together
from .legal import load_held, protected_people
from .text.lineage import with_short_forms
from .text.matching import (
    MIN_SPELLING_LETTERS,
    Matcher,
    decoded,
    has_override,
    letters,
    merged,
    readings,
)
from .text.output import OutputReader
from .text.romanized import Romanized
from .text.scripts import mixed_words
from .text.spans import spans_in

if TYPE_CHECKING:
    from .models import Person


def spelling_problem(spelling: str) -> str | None:
    """Why `spelling` cannot serve as a legal spelling to look for, if it cannot."""
    if len(letters(decoded(spelling))) < MIN_SPELLING_LETTERS:
        return _(
            "A legal spelling needs at least %(count)s letters; a shorter one would "
            "be found inside ordinary words."
        ) % {"count": MIN_SPELLING_LETTERS}
    return None


def legal_spelling_errors(person: "Person") -> dict[str, str]:
    """What is wrong with the legal spellings a protected `person` holds, by field:
    one too short to look for, or one its own public names already show."""
    if not person.identity_protected or not person.holds_legal_spellings:
        return {}
    errors: dict[str, str] = {}
    for spelling in person.legal_spellings:
        problem = spelling_problem(spelling)
        if problem:
            field = "name" if spelling == person.name.strip() else "other_spellings"
            errors.setdefault(field, problem)
    for leak in IdentityGate([person]).leaks([person]):
        errors.setdefault(leak.field, leak_message())
    return errors


@dataclass(frozen=True)
class Leak:
    """A protected person's legal spelling found in one field of one row, or in
    fields printed side by side (`together`: "kicker+headline", a list of tags)."""

    person: "Person"
    obj: models.Model
    field: str
    together: bool = False

    @property
    def label(self) -> str:
        """Where the name was found, in words an editor understands."""
        where = field_label(self.obj, self.field)
        if self.together:
            return _("%(fields)s, printed together") % {"fields": where}
        return where


class IdentityLeakError(ValidationError):
    """Refusal to make public something that holds a protected legal name.

    The message never names the name itself, nor whose it is: the message may be
    read by someone not entitled to know. It names where the name was found; to a
    user who may not read legal names, the door names every field the save
    changes instead (identity.refusals.concealed), so a refusal of several names
    typed into several fields does not say which field held a protected one.
    """

    # Whether the message names the fields holding the name (a subclass whose
    # message names no field has nothing to conceal).
    names_places = True

    def __init__(
        self,
        leaks: list[Leak],
        *,
        checked: Iterable[models.Model] = (),
        places: list[str] | None = None,
    ):
        self.leaks = leaks
        # The rows the gate read, and, when `places` is given, the fields the
        # refusal names in place of where the name is (identity.refusals.concealed).
        self.checked = list(checked)
        self.concealed = places is not None
        if places is None:
            places = list(dict.fromkeys(leak.label for leak in leaks))
        self.places = places
        if self.concealed:
            message = _(
                "The legal name of a protected person appears in what this save "
                "changes (%(places)s). Use the public name (pseudonym) instead."
            )
        else:
            message = _(
                "The legal name of a protected person appears in: %(places)s. "
                "Use the public name (pseudonym) instead."
            )
        super().__init__(
            message % {"places": _(", ").join(map(isolated, places))},
            code="identity_leak",
        )

    def show_on(self, form, related=()) -> None:
        """Each leak on the field of `form` (or of one of the `related` inline
        forms) that holds it; those no field holds, above the form. A concealed
        refusal is shown above the form only: a mark on a field would say which."""
        if self.concealed:
            form.add_error(None, self.messages)
            return
        unplaced = []
        for leak in self.leaks:
            holder = next((f for f in [form, *related] if f.instance is leak.obj), None)
            field = form_field(holder, leak.field) if holder else None
            if field:
                holder.add_error(field, leak_message())
            else:
                unplaced.append(leak)
        if unplaced:
            form.add_error(None, IdentityLeakError(unplaced).messages)


class BidiOverrideError(ValidationError):
    """Refusal of public text holding a bidi override (U+202D, U+202E).

    An override shows the letters it encloses in the order it forces, so a name
    typed backwards is displayed forwards: text that reads one way and is stored
    another. Public text is refused it rather than resolved to what it displays:
    news copy has no use for overrides (a passage's direction is set with
    embeddings, isolates, dir attributes and the marks U+200E/U+200F, which stay
    allowed, since they never reverse the letters of a word and the matcher reads a
    name's words in either order), and the bidi algorithm's nesting of overrides
    inside embeddings is easy to get wrong in a second implementation. What
    already left (or came round the gate) is still read as displayed: the matcher
    also reads every override's run reversed.
    """

    def __init__(self, places: list[tuple[models.Model, str]]):
        self.places = places
        labels = list(dict.fromkeys(field_label(obj, field) for obj, field in places))
        super().__init__(
            _(
                "A character that reverses the order of the letters shown (a bidi "
                "override, U+202D or U+202E) appears in: %(places)s. Remove it."
            )
            % {"places": _(", ").join(labels)},
            code="bidi_override",
        )


def bidi_overrides(objects: Iterable[models.Model]) -> list[tuple[models.Model, str]]:
    """(row, field) of every public field of `objects` holding a bidi override,
    typed or escaped (``&#x202E;``, ``%E2%80%AE``)."""
    return [
        (obj, field)
        for obj in objects
        for field, text in public_texts(obj)
        if text and has_override(decoded(text))
    ]


class MixedScriptError(ValidationError):
    """Refusal of public text holding a word written in letters of several
    scripts (a Latin word with a Cyrillic or Greek letter in it): the mark of a
    disguised name, whichever name (identity.text.scripts). Said whether or not
    the word spells a protected name, so it tells nobody who is protected."""

    def __init__(self, places: list[tuple[models.Model, str, list[str]]]):
        self.places = places
        labels = list(
            dict.fromkeys(field_label(obj, field) for obj, field, _ in places)
        )
        words = list(dict.fromkeys(word for *_, found in places for word in found))
        super().__init__(
            _(
                "A word mixes the letters of different alphabets (Latin with "
                "Cyrillic or Greek, say), as disguised names do: %(words)s, in "
                "%(places)s. Type each word in one alphabet."
            )
            % {
                "words": _(", ").join(f"«{word}»" for word in words[:3]),
                "places": _(", ").join(labels),
            },
            code="mixed_scripts",
        )


def mixed_script_words(
    objects: Iterable[models.Model],
) -> list[tuple[models.Model, str, list[str]]]:
    """(row, field, words) of every public field of `objects` holding words that
    mix scripts, typed or escaped."""
    found = []
    for obj in objects:
        for field, text in public_texts(obj):
            words = mixed_words(decoded(text)) if text else []
            if words:
                found.append((obj, field, words))
    return found


def as_saved(obj: models.Model) -> None:
    """Fill what saving `obj` derives from it, so the gate reads what readers will:
    a slug made from a name ("Ma×zen" gives "mazen"), a body sanitized ("مازن
    <script>…</script>الخطيب" keeps the two words). Models say so with
    `derive_fields()`; taggit's tags make their slug with `slugify()`."""
    derive = getattr(obj, "derive_fields", None)
    if callable(derive):
        derive()
    elif isinstance(obj, TagBase) and not obj.slug and obj.name:
        obj.slug = obj.slugify(obj.name)


def isolated(label: str) -> str:
    """`label` between the bidi isolates (U+2068, U+2069): a field's name with its
    language ("العنوان [ar]") keeps its brackets in order in a sentence of the
    other direction."""
    return f"\u2068{label}\u2069"


def leak_message() -> str:
    """The error shown on a field that holds a protected legal name."""
    return _(
        "This holds the legal name of a protected person; use the public name "
        "(pseudonym) instead."
    )


class IdentityGate:
    """Every legal spelling of every protected person, ready to be looked for."""

    def __init__(self, people: Iterable["Person"]):
        pairs = [
            (person, spelling)
            for person in people
            for spelling in with_short_forms(person.legal_spellings)
        ]
        self.matcher = Matcher.of(pairs)
        # Names of two words or more, also found romanized in Latin letters.
        self.romanized = Romanized(pairs)
        spellings = self.matcher.spellings
        # The protected people with a spelling long enough to look for.
        self.people: list[Person] = list(
            {id(s.owner): s.owner for s in spellings}.values()
        )
        # (person, letters run together) for each form a spelling is looked for in.
        self.needles: list[tuple[Person, str]] = [
            (each.owner, run) for each in spellings for run in each.runs
        ]

    @classmethod
    def load(cls, *, pending: Iterable["Person"] = ()) -> "IdentityGate":
        """The gate for the protected people in the database, with `pending`
        (unsaved) people taking the place of their stored rows; a pending person
        that holds no spellings of its own (an edit by someone who may not see
        them) is looked for by its stored ones."""
        pending = [p for p in pending]
        replaced = {person.pk for person in pending if person.pk}
        # A copy is looked for, so the edited instance itself never holds them.
        looked_for = [
            p if p.holds_legal_spellings else copy.copy(p)
            for p in pending
            if p.identity_protected
        ]
        load_held([p for p in looked_for if not p.holds_legal_spellings])
        return cls([*protected_people(exclude=replaced), *looked_for])

    def reveals(self, person: "Person", text: str) -> bool:
        """Whether `text` holds one of `person`'s legal spellings."""
        return any(found.pk == person.pk for found in self.people_in(text))

    def __bool__(self) -> bool:
        return bool(self.matcher)

    def holds(self, person: "Person") -> bool:
        """Whether `person` is one of the people this gate looks for."""
        return any(held.pk == person.pk for held in self.people)

    def people_in(self, text: str, *, is_html: bool = False) -> list["Person"]:
        """The protected people whose legal spellings appear in `text`.

        Markup is read whether or not `is_html` says so (kept for callers that
        said so): a tag typed into a plain field may be rendered, or printed.
        """
        found = self.matcher.owners_in(text)
        for view in readings(text):
            found = merged(found, self.romanized.owners_in(view, joined=True))
        return found

    def people_in_output(self, text: str, *, joined: bool = False) -> list["Person"]:
        """The protected people whose legal spellings appear in a whole response
        as sent (HTML, XML, JSON or plain text): entities, JSON escapes, percent
        escapes and IDNA host names decoded, tags' attribute values and text both
        read. The same finding as `people_in`, folded in one pass (see
        identity.text.output): well under a millisecond for a page. With
        `joined`, a romanization split or spelled out letter by letter is read
        as the doors read it too: for what we send once per version (documents,
        deliveries); a page would pay more for it than for the rest of the check,
        and what it shows was read so at its door, and again when someone was
        protected (identity.protection)."""
        return self._output.owners_in(text, joined=joined)

    def spans_in(
        self, text: str, *, people: Iterable["Person"] | None = None
    ) -> list[tuple[int, int, "Person"]]:
        """Where in `text`, as typed, the legal spellings of the protected people
        (`people` among them, or all) stand: (start, end, person), in order, none
        overlapping. Escapes are not decoded: see identity.text.spans."""
        only = None
        if people is not None:
            wanted = {person.pk for person in people}
            only = [
                index
                for index, spelling in enumerate(self.matcher.spellings)
                if spelling.owner.pk in wanted
            ]
        return spans_in(self.matcher, text, only=only)

    @cached_property
    def _output(self) -> OutputReader:
        return OutputReader(self.matcher, self.romanized)

    def leaks(self, objects: Iterable[models.Model]) -> list[Leak]:
        """Every public field of `objects` that holds a protected legal spelling,
        and every group of fields printed side by side whose text, read together,
        holds one that none of them holds alone."""
        if not self:
            return []
        objects = list(objects)
        leaks = [
            Leak(person, obj, field)
            for obj in objects
            for field, text in public_texts(obj)
            for person in self.people_in(text)
        ]
        for rows, fields, text in read_together(objects):
            alone = {
                id(leak.person)
                for leak in leaks
                if any(leak.obj is row for row in rows) and leak.field in fields
            }
            leaks += [
                Leak(person, rows[0], "+".join(fields), together=True)
                for person in self.people_in(text)
                if id(person) not in alone
            ]
        return leaks

    def check_note(self, obj: models.Model, text: str, *, label: str) -> None:
        """Raise IdentityLeakError when `text`, a note typed about `obj` (a reason
        the audit trail keeps), holds a protected legal name: editors read the
        trail with legal names redacted, which would show its author whose name
        it is. The refusal names `label` as where."""
        people = self.people_in(text)
        if people:
            leaks = [Leak(person, obj, "note") for person in people]
            raise IdentityLeakError(leaks, checked=[obj], places=[label])

    def check(self, objects: Iterable[models.Model]) -> None:
        """Raise IdentityLeakError if any public field of `objects` leaks a name,
        BidiOverrideError if one holds a bidi override, or MixedScriptError if a
        word of one mixes scripts."""
        objects = list(objects)
        for obj in objects:
            as_saved(obj)
        leaks = self.leaks(objects)
        if leaks:
            raise IdentityLeakError(leaks, checked=objects)
        overrides = bidi_overrides(objects)
        if overrides:
            raise BidiOverrideError(overrides)
        mixed = mixed_script_words(objects)
        if mixed:
            raise MixedScriptError(mixed)
