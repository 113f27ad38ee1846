"""The rows an editor's confirmed proposals add to an imported draft.

Called inside `story_import`'s transaction: new people go through `person_save`
(permission, identity gate, audit), so a refusal there undoes the whole import.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from articles.models import Article, ArticlePerson, SocialPost
from identity.models import Person
from identity.services import person_save
from sources.models import Attribution

from .posts import post_from_url
from .problems import StoryImportError, error
from .proposals import NameProposal
from .result import Confirmation, ImportResult, PersonChoice

ROLES = {choice.value for choice in ArticlePerson.Role}


def people_rows(
    result: ImportResult,
    confirmation: Confirmation,
    article: Article,
    by: AbstractBaseUser,
) -> list[ArticlePerson]:
    """Known people the story names, in the roles the copy gives them, then each
    confirmed name: a new person, or an alias added to the person it belongs to.
    A person named by several names takes the strongest of their roles (subject,
    quoted, mentioned), and the rows are ordered by it."""
    rows: dict[int, ArticlePerson] = {}
    roles: dict[int, list[str]] = {}
    for match in result.people:
        rows[match.person.pk] = ArticlePerson(
            article=article,
            person=match.person,
            name_used=match.name_used,
            role=match.role if match.role in ROLES else ArticlePerson.Role.MENTIONED,
        )
        roles[match.person.pk] = [rows[match.person.pk].role]
    proposed = {p.name: p for p in result.proposed_people}
    choices = [c for c in confirmation.people if c.name in proposed]
    created: dict[str, Person] = {}
    # People first, then the aliases that point at them.
    for choice in sorted(
        choices, key=lambda c: bool(c.alias_of_name or c.alias_of_person)
    ):
        person = _person_for(choice, proposed[choice.name], created, by)
        created[choice.name] = person
        row = rows.get(person.pk) or ArticlePerson(article=article, person=person)
        role = choice.role if choice.role in ROLES else ArticlePerson.Role.MENTIONED
        roles.setdefault(person.pk, []).append(role)
        row.role = min(roles[person.pk], key=_ORDER.index)
        row.name_used = row.name_used or choice.name[:200]
        rows[person.pk] = row
    # Whoever the story is about comes first, then those quoted, then the rest.
    ordered = sorted(rows.values(), key=lambda row: _ORDER.index(row.role))
    for position, row in enumerate(ordered):
        row.position = position
    result.created_people = [
        p for name, p in created.items() if not _is_alias(name, confirmation)
    ]
    return ordered


_ORDER = [
    ArticlePerson.Role.SUBJECT,
    ArticlePerson.Role.QUOTED,
    ArticlePerson.Role.MENTIONED,
]


def _is_alias(name: str, confirmation: Confirmation) -> bool:
    return any(
        c.name == name and (c.alias_of_person or c.alias_of_name)
        for c in confirmation.people
    )


def _person_for(
    choice: PersonChoice,
    proposal: NameProposal,
    created: dict[str, Person],
    by: AbstractBaseUser,
) -> Person:
    """The person a confirmed name makes, or the one it is added to.

    A nickname is never a legal name: a person known only by one is created with
    it as the public name and no legal name (the newsroom does not know it)."""
    target = choice.alias_of_person or created.get(choice.alias_of_name)
    if choice.alias_of_name and target is None:
        raise StoryImportError(
            [
                error(
                    _("“%(name)s” is marked as an alias of a name that is not added.")
                    % {"name": choice.name},
                    code="alias_target_missing",
                    name=choice.name,
                )
            ]
        )
    name = choice.name[:200]
    if target is None:
        if proposal.is_nickname:
            return person_save(person=Person(public_name=name), by=by)
        return person_save(person=Person(name=name), by=by)
    target = Person.objects.get(pk=target.pk)
    if target.identity_protected and not proposal.is_nickname:
        # Writing a name as a protected person's legal name is an identity
        # officer's decision, never an import's.
        raise StoryImportError(
            [
                error(
                    _(
                        "“%(name)s” cannot be added to a protected person on "
                        "import; an identity officer decides what their legal "
                        "name is."
                    )
                    % {"name": choice.name},
                    code="alias_of_protected",
                    name=choice.name,
                )
            ]
        )
    if proposal.is_nickname or target.name:
        if name not in (target.name, target.public_name, *target.alias_list):
            target.aliases = "\n".join([*target.alias_list, name])
            person_save(person=target, by=by)
        return target
    # Known until now only by a nickname: the name the copy gives is their own.
    target.name = name
    person_save(person=target, by=by)
    return target


def cited_rows(
    result: ImportResult, confirmation: Confirmation, article: Article, start: int
) -> list[Attribution]:
    """A "cited" attribution for each confirmed source the body names."""
    wanted = set(confirmation.cited)
    return [
        Attribution(
            article=article,
            source=cited.source,
            role=Attribution.Role.CITED,
            position=start + offset,
        )
        for offset, cited in enumerate(c for c in result.cited if c.key in wanted)
    ]


def link_post_rows(
    result: ImportResult, confirmation: Confirmation, article: Article
) -> list[tuple[int, SocialPost]]:
    """A post for each URL in the prose the editor chose to embed, with the paragraph
    it is placed after; the URL stays in the paragraph as a link either way."""
    rows = []
    wanted = set(confirmation.embed_links)
    for link in result.story.link_posts:
        post = post_from_url(link.url) if link.url in wanted else None
        if post is not None:
            wanted.discard(link.url)
            rows.append(
                (
                    link.position,
                    SocialPost(
                        article=article,
                        platform=post.platform,
                        url=post.url,
                        handle=post.handle,
                    ),
                )
            )
    return rows
