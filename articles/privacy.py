"""Keeping protected identities out of everything the public can see."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.utils.html import strip_tags

from arabic import normalize

from .models import Article, Person


@dataclass(frozen=True)
class IdentityLeak:
    """A protected legal name found in a piece of public text."""

    person: Person
    field: str

    def __str__(self) -> str:
        return f"{self.field}: {self.person.display_name}"


def protected_people() -> list[Person]:
    return list(Person.objects.filter(identity_protected=True).exclude(name=""))


def find_identity_leaks(
    texts: Iterable[tuple[str, str]], *, people: list[Person] | None = None
) -> list[IdentityLeak]:
    """Every (field, text) pair that contains the legal name of a protected person."""
    people = protected_people() if people is None else people
    names = [(person, normalize(person.name)) for person in people]
    leaks = []
    for field, text in texts:
        folded = normalize(strip_tags(text or ""))
        leaks += [
            IdentityLeak(person, field)
            for person, name in names
            if name and name in folded
        ]
    return leaks


def public_texts(article: Article) -> list[tuple[str, str]]:
    """The article's own text that readers see, labelled by field."""
    fields = (
        "kicker",
        "headline",
        "summary",
        "body",
        "hero_caption",
        "hero_alt",
        "hero_credit",
    )
    texts = []
    for field in fields:
        if field == "hero_credit":
            texts.append((field, article.hero_credit))
            continue
        for code, _name in settings.LANGUAGES:
            texts.append((f"{field}_{code}", getattr(article, f"{field}_{code}", "")))
    return texts


def article_identity_leaks(article: Article) -> list[IdentityLeak]:
    """Leaks in the saved article: its text, its posts and the names it uses."""
    texts = public_texts(article)
    if article.pk:
        texts += [(f"social_post_{p.pk}", p.text) for p in article.social_posts.all()]
        texts += [
            (f"person_{link.person_id}", link.name_used)
            for link in article.people_named.all()
        ]
        texts += [(f"byline_{b.pk}", b.name) for b in article.bylines.all()]
        texts += [("tags", tag.name) for tag in article.tags.all()]
    return find_identity_leaks(texts)
