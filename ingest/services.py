"""Importing a pasted story as a draft, and writing an article back out as text."""

import logging
import re
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, time

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from arabic import normalize
from articles import permissions as perms
from articles.body import split_blocks
from articles.models import Article, SocialPost, Status
from articles.services import StoryEdit, article_save, require_permission
from identity.gate import IdentityGate, IdentityLeakError
from identity.refusals import Door, SavesPausedError, refusal_record, write_door
from sources.models import Attribution, Source
from sources.services import source_save

from .audit_actions import Action
from .budget import ImportTooSlow, check_budget, time_budget
from .confirm import cited_rows, link_post_rows, people_rows
from .credits import credit_line_names
from .decode import clean_text
from .export import block_text, story_export  # noqa: F401  (callers import it here)
from .parse import ParsedStory, parse_story
from .problems import Problem, StoryImportError, alert, error, warning
from .recognize import SourceCatalog, match_people, match_sources
from .result import Confirmation, ImportResult
from .suggestions import (
    breaking_reason,
    cited_sources,
    people_proposals,
    post_sources,
    tags_in_text,
)

logger = logging.getLogger(__name__)


def story_recognize(
    *,
    text: str,
    allow_duplicate: bool = False,
    now: datetime | None = None,
    language: str = "",
) -> ImportResult:
    """Everything the importer recognizes in `text`; reads the database, no writes.

    `now` is the moment of the import (the current time unless a test passes one):
    whether a quoted post is recent enough to suggest breaking news depends on it.
    `language`, one of the editions' codes, is the copy's language when its
    sender states it (an agency's metadata); otherwise the text tells.
    """
    try:
        text, problems = clean_text(text)
    except StoryImportError as exc:
        return ImportResult(story=ParsedStory(), problems=exc.problems)
    story = parse_story(text)
    if language in {code for code, _name in settings.LANGUAGES}:
        story.language = language
    result = ImportResult(story=story, problems=problems + story.problems)
    if result.errors:
        return result
    # One gate for everything this import checks (read once, not per check).
    gate = IdentityGate.load()
    protected = identity_problems(story, gate=gate)
    result.problems += protected
    # The sources as they are now, read once for credits and cited sources alike.
    catalog = SourceCatalog.current()
    result.sources = match_sources(story.attributions, catalog=catalog)
    result.people = match_people(story)
    result.post_sources = post_sources(story)
    result.breaking_reason = breaking_reason(story, now=now)
    if not protected:
        # Copy that holds a protected name proposes nothing: a list of names with
        # one missing would say which.
        _propose(result, gate, catalog)
    for match in result.unknown_sources:
        result.problems.append(
            warning(
                _(
                    "Unknown source “%(name)s”: it is not credited until an editor "
                    "adds it under Sources or confirms it here."
                )
                % {"name": match.candidate.name},
                match.candidate.line,
                code="unknown_source",
                name=match.candidate.name,
            )
        )
    for match in result.sources:
        if match.matched and match.source.link_required and not match.candidate.url:
            result.problems.append(
                warning(
                    _(
                        "%(source)s requires a link to the original article; add "
                        "its address to the attribution after the import."
                    )
                    % {"source": match.source.name},
                    match.candidate.line,
                    code="link_required",
                    source=match.source.name,
                )
            )
    result.duplicate_of = _find_duplicate(story)
    if result.duplicate_of and not allow_duplicate:
        result.problems.append(
            error(
                _(
                    "This story was already imported as article #%(id)s; import it "
                    "again only if you mean to make a copy."
                )
                % {"id": result.duplicate_of},
                code="duplicate",
                article_id=result.duplicate_of,
            )
        )
    return result


# Proposals read the copy several times over; a story is far shorter than this, and
# past it they would only eat into the time budget an import needs.
MAX_PROPOSAL_CHARACTERS = 200_000


def _propose(result: ImportResult, gate: IdentityGate, catalog: SourceCatalog) -> None:
    """People, cited sources and tags an editor would add, for the preview."""
    story = result.story
    result.suggested_tags = list(story.tags)
    size = sum(len(text) for _line, text, _where in story.segments())
    if size > MAX_PROPOSAL_CHARACTERS:
        result.problems.append(
            warning(
                _(
                    "The copy is too long (%(count)s characters) for the importer to "
                    "propose people, cited sources and tags; add them by hand."
                )
                % {"count": f"{size:,}"},
                code="too_long_for_proposals",
                characters=size,
                limit=MAX_PROPOSAL_CHARACTERS,
            )
        )
        return
    credited = {m.source.pk for m in result.sources if m.matched}
    result.cited = cited_sources(story, credited, catalog=catalog)
    known = [m.name_used for m in result.people]
    result.proposed_people, alerts = people_proposals(
        story, known, gate=gate, matches=result.people
    )
    result.problems += alerts
    result.suggested_tags = list(dict.fromkeys([*story.tags, *tags_in_text(story)]))


def protected_name_alert() -> Problem:
    """The one alert an import gives for a protected legal name: never the name,
    whose it is, a line number or the kind of place (a headline and paragraphs of
    candidate names would learn from either which of them is protected). Every
    word of the copy is what this import changes (see identity.refusals.concealed);
    the audit trail records as much."""
    return alert(
        _(
            "PROTECTED IDENTITY: this copy holds the legal name of a protected "
            "person. Replace it with the public name (pseudonym); nothing is "
            "imported until then."
        ),
        code="protected_name",
        where=_("the copy"),
    )


def _texts(story: ParsedStory) -> Iterator[str]:
    """Everything the copy would put in the story."""
    yield from (story.kicker, story.headline, story.summary, *story.paragraphs)
    for credit in story.credit_lines:
        yield credit.text
    for candidate in story.attributions:
        yield f"{candidate.name} {candidate.url}"
    for post in story.posts:
        yield from (post.text, post.author_name, post.handle, post.url)
        yield from (*post.links, *post.media_urls)
    for tag in story.tags:
        yield f"#{tag}"


def identity_problems(
    story: ParsedStory, *, gate: IdentityGate | None = None
) -> list[Problem]:
    """One loud, blocking alert if the copy holds a protected legal name anywhere.

    Imported copy comes from outside, where a source's legal name may be common
    knowledge; it must not enter the newsroom's stories, whose drafts every editor
    reads. The search stops at the first match and the alert names only the kind
    of place: listing every match, or their lines, would let anyone paste a list of
    candidate names and learn which belong to protected people.
    """
    gate = gate if gate is not None else IdentityGate.load()
    if not gate:
        return []
    for text in _texts(story):
        check_budget()
        if text and gate.people_in(text):
            return [protected_name_alert()]
    return []


def story_import(
    *,
    text: str,
    by: AbstractBaseUser,
    allow_duplicate: bool = False,
    dry_run: bool = False,
    confirm_sources: Iterable[str] = (),
    confirmation: Confirmation | None = None,
    origin: str = "",
    now: datetime | None = None,
    prepare: Callable[[StoryEdit, ImportResult], None] | None = None,
    language: str = "",
) -> ImportResult:
    """Create a draft article from pasted text, all or nothing.

    `by` needs permission to add stories, even for a dry run: what the importer
    recognizes (a protected name, say) is newsroom knowledge. `confirm_sources`
    names unknown sources an editor agreed to create; `confirmation` holds the
    proposals (people, cited sources, tags, the breaking flag, embeds) the editor
    accepted, none by default; `origin` (the file's name, or empty for pasted
    text) goes into the audit trail; `now` stands for the current time (tests
    pass one: a recent post suggests breaking news); `prepare`, if given, completes
    the draft's edit before it is saved, with what the caller knows beyond the copy
    (the wire: section, embargo, the agency's credit and byline); the save checks
    it like the rest; `language` as for `story_recognize`. Raises StoryImportError,
    carrying every problem and what was recognized, on failure.
    """
    result = None
    try:
        require_permission(by, perms.ADD_ARTICLE, _("You may not import stories."))
        # The import is a door: shut while the user's saves are paused; a refusal
        # by the gate while saving is recorded once the transaction has rolled back.
        with write_door(Door.IMPORT, by=by), time_budget():
            result = story_recognize(
                text=text, allow_duplicate=allow_duplicate, now=now, language=language
            )
            if result.errors:
                import_refusal_record(result, by)
                raise StoryImportError(result.problems, result)
            if dry_run:
                return result
            with transaction.atomic():
                _create_sources(result, set(confirm_sources), by)
                result.article = _create_article(
                    result, confirmation or Confirmation(), by, origin, prepare
                )
        return result
    except StoryImportError:
        raise
    except SavesPausedError as exc:
        raise StoryImportError(
            [error(m, code="saves_paused") for m in exc.messages], result
        ) from None
    except ImportTooSlow as exc:
        raise StoryImportError([too_slow(exc)], result) from None
    except PermissionDenied as exc:
        raise StoryImportError(
            [error(str(exc), code="permission_denied")], result
        ) from None
    except IdentityLeakError as exc:
        raise StoryImportError(
            [alert(m, code="protected_name") for m in exc.messages], result
        ) from None
    except ValidationError as exc:
        raise StoryImportError(
            [error(m, code="invalid") for m in exc.messages], result
        ) from None
    except DatabaseError as exc:
        logger.exception("Story import failed in the database")
        raise StoryImportError(
            [
                error(
                    _("The database refused the story: %(error)s") % {"error": exc},
                    code="database_error",
                )
            ],
            result,
        ) from exc
    except Exception as exc:  # the admin and the command must never see a traceback
        logger.exception("Story import failed")
        raise StoryImportError(
            [
                error(
                    _("The import failed unexpectedly (%(error)s); nothing was saved.")
                    % {"error": exc.__class__.__name__},
                    code="unexpected",
                )
            ],
            result,
        ) from exc


def import_refusal_record(result: ImportResult, by: AbstractBaseUser) -> None:
    """Record the gate's refusal of the copy (the kind of place, never the name):
    a preview counts too, since a preview is what someone guessing names uses."""
    protected = [p for p in result.alerts if p.code == "protected_name"]
    if protected:
        places = [dict(p.params).get("where", "") for p in protected]
        refusal_record(by=by, door=Door.IMPORT, fields=places)


def too_slow(exc: ImportTooSlow) -> Problem:
    return error(
        _(
            "Reading this input took longer than %(seconds)s seconds, so the import "
            "was stopped and nothing was saved. Split the story, or remove pasted "
            "code that is not part of it, and try again."
        )
        % {"seconds": f"{exc.seconds:g}"},
        code="time_budget",
        seconds=exc.seconds,
    )


def _create_sources(result: ImportResult, names: set[str], by) -> None:
    wanted = [m for m in result.unknown_sources if m.candidate.name in names]
    if not wanted:
        return
    for match in wanted:
        if match.source is not None:
            continue
        name = match.candidate.name
        source = Source(
            kind=Source.Kind.AGENCY
            if match.candidate.kind != "source line"
            else Source.Kind.WEBSITE
        )
        field_name = "name_ar" if re.search("[\u0600-\u06ff]", name) else "name_en"
        setattr(source, field_name, name[:200])
        source_save(source=source, by=by)
        for same in result.unknown_sources:
            if same.candidate.name == name:
                same.source, same.how = source, _("created on import")
        result.created_sources.append(source)
    result.problems = [
        p
        for p in result.problems
        if not any(f"“{s.name}”" in p.message for s in result.created_sources)
    ]


def _kept_paragraphs(result: ImportResult) -> list[str]:
    """The story's paragraphs, plus credit lines that name a source we do not know."""
    paragraphs = list(result.story.paragraphs)
    unknown = {m.candidate.name for m in result.sources if not m.matched}
    for credit in reversed(result.story.credit_lines):
        if unknown & set(credit.names):
            paragraphs.insert(credit.position, credit.text)
    return paragraphs


def _create_article(
    result: ImportResult,
    confirmation: Confirmation,
    by: AbstractBaseUser,
    origin: str,
    prepare: Callable[[StoryEdit, ImportResult], None] | None = None,
) -> Article:
    story = result.story
    code = story.language
    article = Article(
        language=code, status=Status.DRAFT, is_breaking=confirmation.breaking
    )
    setattr(article, f"headline_{code}", story.headline)
    setattr(article, f"kicker_{code}", story.kicker)
    setattr(article, f"summary_{code}", story.summary)
    setattr(article, f"body_{code}", story.body_html(_kept_paragraphs(result)))
    rows = []
    placements = []
    for post in story.posts:
        social = SocialPost(
            article=article,
            platform=post.platform,
            url=post.url,
            author_name=post.author_name,
            handle=post.handle,
            posted_on=post.posted_at,
            text=post.text,
            language=post.language,
            hashtags=post.hashtags,
            links=post.links,
            media_urls=post.media_urls,
        )
        try:
            social.full_clean(exclude=["article"])
        except ValidationError as exc:
            raise StoryImportError(
                [
                    error(
                        _("Social post: %(problem)s") % {"problem": m},
                        post.line,
                        code="invalid_post",
                    )
                    for m in exc.messages
                ],
                result,
            ) from None
        rows.append(social)
        placements.append((post.position, social))
    seen = set()
    for position, match in enumerate(m for m in result.sources if m.matched):
        key = (match.source.pk, match.candidate.role)
        if key in seen:
            continue
        seen.add(key)
        rows.append(
            Attribution(
                article=article,
                source=match.source,
                role=match.candidate.role,
                original_url=match.candidate.url[:500],
                original_published_on=match.candidate.published_on,
                position=position,
            )
        )
    rows += cited_rows(result, confirmation, article, start=len(seen))
    linked = link_post_rows(result, confirmation, article)
    rows += [post for _after, post in linked]
    placements += linked
    rows += people_rows(result, confirmation, article, by)
    tags = [t for t in confirmation.tags if t in result.tags]
    edit = StoryEdit(article=article, tags=tags, changed=rows, placements=placements)
    if prepare is not None:
        prepare(edit, result)
    # article_save runs the identity gate on these rows (story_check) before it
    # writes anything, in this transaction; identity_problems has already refused
    # copy that holds a protected name anywhere.
    return article_save(
        edit=edit, by=by, action=Action.IMPORTED, message=origin or _("pasted")
    )


def _aware(day) -> datetime | None:
    if day is None:
        return None
    return timezone.make_aware(datetime.combine(day, time()))


def _find_duplicate(story: ParsedStory) -> int | None:
    """The id of an article with the same headline and paragraphs, once folded.

    Compared on the story's own text: the posts and images the import placed in
    the body (figures) are not copy, so a story carrying posts is found as surely
    as one without.
    """
    headline = normalize(story.headline)
    if not headline:
        return None
    code = story.language
    paragraphs = [normalize(p) for p in story.paragraphs]
    candidates = Article.objects.filter(
        language=code, headline_key=headline[:300]
    ).only("pk", f"body_{code}")
    for article in candidates:
        if _body_paragraphs(getattr(article, f"body_{code}") or "") == paragraphs:
            return article.pk
    return None


def _body_paragraphs(body: str) -> list[str]:
    """Normalized paragraph texts of a stored body: its own copy, without the
    posts and images it places or trailing credit lines."""
    texts = [
        block_text(block)
        for block in split_blocks(body)
        if not block.startswith("<figure")
    ]
    while texts and credit_line_names(texts[-1]):
        texts.pop()
    return [normalize(text) for text in texts]
