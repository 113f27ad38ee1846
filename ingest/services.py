"""Importing a pasted story as a draft, and writing an article back out as text."""

import html
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, time

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.html import strip_tags
from django.utils.translation import gettext as _

from arabic import normalize
from arabic.dates import MONTHS_EN
from articles.body import embed_reference, split_blocks
from articles.identity import IdentityGate, IdentityLeakError
from articles.models import Article, ArticlePerson, SocialPost, Status
from articles.services import Action, StoryEdit, article_save, require_permission
from sources.models import Attribution, Source
from sources.services import source_save

from .decode import clean_text
from .parse import ParsedStory, credit_line_names, parse_story
from .problems import ALERT, Problem, StoryImportError, alert, error, warning
from .recognize import PersonMatch, SourceMatch, match_people, match_sources

logger = logging.getLogger(__name__)


@dataclass
class ImportResult:
    """Everything recognized in one input, and the draft made from it (if any)."""

    story: ParsedStory
    sources: list[SourceMatch] = field(default_factory=list)
    people: list[PersonMatch] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    duplicate_of: int | None = None
    article: Article | None = None
    created_sources: list[Source] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    @property
    def alerts(self) -> list[Problem]:
        return [p for p in self.problems if p.level == ALERT]

    @property
    def unknown_sources(self) -> list[SourceMatch]:
        return [match for match in self.sources if not match.matched]

    @property
    def tags(self) -> list[str]:
        return self.story.tags

    def as_dict(self) -> dict:
        story = self.story
        return {
            "headline": story.headline,
            "kicker": story.kicker,
            "summary": story.summary,
            "language": story.language,
            "paragraphs": len(story.paragraphs),
            "social_posts": [post.as_dict() for post in story.posts],
            "attributions": [match.as_dict() for match in self.sources],
            "people": [match.as_dict() for match in self.people],
            "tags": self.tags,
            "warnings": [dict(p.as_dict(), level=p.level) for p in self.warnings],
            "errors": [p.as_dict() for p in self.errors],
            "duplicate_of": self.duplicate_of,
            "article_id": self.article.pk if self.article else None,
        }


def story_recognize(*, text: str, allow_duplicate: bool = False) -> ImportResult:
    """Everything the importer recognizes in `text`; reads the database, no writes."""
    try:
        text, problems = clean_text(text)
    except StoryImportError as exc:
        return ImportResult(story=ParsedStory(), problems=exc.problems)
    story = parse_story(text)
    result = ImportResult(story=story, problems=problems + story.problems)
    if result.errors:
        return result
    result.problems += identity_problems(story)
    result.sources = match_sources(story.attributions)
    result.people = match_people(story)
    for match in result.unknown_sources:
        result.problems.append(
            warning(
                _(
                    "Unknown source “%(name)s”: it is not credited until an editor "
                    "adds it under Sources or confirms it here."
                )
                % {"name": match.candidate.name},
                match.candidate.line,
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
                % {"id": result.duplicate_of}
            )
        )
    return result


def identity_problems(story: ParsedStory) -> list[Problem]:
    """A loud, blocking problem for every line that holds a protected legal name.

    Imported copy comes from outside, where a source's legal name may be common
    knowledge; it must not enter the newsroom's stories, whose drafts every editor
    reads. The message says where, never the name or whose it is.
    """
    gate = IdentityGate.load()
    if not gate:
        return []
    places = list(story.segments())
    for number, post in enumerate(story.posts, start=1):
        where = _("social post %(n)s") % {"n": number}
        for value in (post.author_name, post.handle, post.url, *post.links):
            places.append((post.line, value, where))
        places += [(post.line, url, where) for url in post.media_urls]
    places += [(None, f"#{tag}", _("tags")) for tag in story.tags]
    return [
        alert(
            _(
                "PROTECTED IDENTITY: the legal name of a protected person appears "
                "in the %(where)s. Replace it with the public name (pseudonym); "
                "nothing is imported until then."
            )
            % {"where": where},
            line,
        )
        for line, text, where in places
        if gate.people_in(text)
    ]


def story_import(
    *,
    text: str,
    by: AbstractBaseUser,
    allow_duplicate: bool = False,
    dry_run: bool = False,
    confirm_sources: Iterable[str] = (),
    origin: str = "",
) -> ImportResult:
    """Create a draft article from pasted text, all or nothing.

    `by` needs permission to add stories, even for a dry run: what the importer
    recognizes (a protected name, say) is newsroom knowledge. `confirm_sources`
    names unknown sources an editor agreed to create; `origin` (the file's name, or
    empty for pasted text) goes into the audit trail. Raises StoryImportError,
    carrying every problem and what was recognized, on failure.
    """
    result = None
    try:
        require_permission(by, "articles.add_article", _("You may not import stories."))
        result = story_recognize(text=text, allow_duplicate=allow_duplicate)
        if result.errors:
            raise StoryImportError(result.problems, result)
        if dry_run:
            return result
        with transaction.atomic():
            _create_sources(result, set(confirm_sources), by)
            result.article = _create_article(result, by, origin)
        return result
    except StoryImportError:
        raise
    except PermissionDenied as exc:
        raise StoryImportError([error(str(exc))], result) from None
    except IdentityLeakError as exc:
        raise StoryImportError([alert(m) for m in exc.messages], result) from None
    except ValidationError as exc:
        raise StoryImportError([error(m) for m in exc.messages], result) from None
    except DatabaseError as exc:
        logger.exception("Story import failed in the database")
        raise StoryImportError(
            [error(_("The database refused the story: %(error)s") % {"error": exc})],
            result,
        ) from exc
    except Exception as exc:  # the admin and the command must never see a traceback
        logger.exception("Story import failed")
        raise StoryImportError(
            [
                error(
                    _("The import failed unexpectedly (%(error)s); nothing was saved.")
                    % {"error": exc.__class__.__name__}
                )
            ],
            result,
        ) from exc


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


def _create_article(result: ImportResult, by: AbstractBaseUser, origin: str) -> Article:
    story = result.story
    code = story.language
    article = Article(language=code, status=Status.DRAFT)
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
            posted_at=_aware(post.posted_at),
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
                    error(_("Social post: %(problem)s") % {"problem": m}, post.line)
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
                position=position,
            )
        )
    for position, match in enumerate(result.people):
        rows.append(
            ArticlePerson(
                article=article,
                person=match.person,
                name_used=match.name_used,
                position=position,
            )
        )
    edit = StoryEdit(
        article=article, tags=result.tags, changed=rows, placements=placements
    )
    # Stricter than for a draft typed in the admin: see identity_problems.
    IdentityGate.load().check(edit.rows())
    return article_save(
        edit=edit, by=by, action=Action.IMPORTED, message=origin or _("pasted")
    )


def _aware(day) -> datetime | None:
    if day is None:
        return None
    return timezone.make_aware(datetime.combine(day, time()))


def _find_duplicate(story: ParsedStory) -> int | None:
    """The id of an article with the same headline and paragraphs, once folded."""
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
    """Normalized paragraph texts of a stored body, without trailing credit lines."""
    texts = [_block_text(block) for block in split_blocks(body)]
    while texts and credit_line_names(texts[-1]):
        texts.pop()
    return [normalize(text) for text in texts]


def _block_text(block: str) -> str:
    return html.unescape(strip_tags(re.sub(r"<br\s*/?>", "\n", block))).strip()


# ---------------------------------------------------------------- export


def story_export(*, article: Article) -> str:
    """The article in the plain-text shape the importer reads back."""
    code = article.language
    lines = []
    kicker = getattr(article, f"kicker_{code}", "") or ""
    summary = getattr(article, f"summary_{code}", "") or ""
    if kicker:
        lines.append(kicker)
    lines.append(getattr(article, f"headline_{code}", "") or "")
    if summary:
        lines += [line.strip() for line in summary.splitlines() if line.strip()]
    blocks = ["\n".join(lines)]
    posts = {post.pk: post for post in article.social_posts.all()}
    post_tags = {tag for post in posts.values() for tag in post.hashtags}
    for block in split_blocks(getattr(article, f"body_{code}", "") or ""):
        reference = embed_reference(block)
        if reference is None:
            blocks.append(_block_text(block))
        elif reference[0] == "post" and reference[1] in posts:
            blocks.append(_export_post(posts.pop(reference[1])))
    blocks += [_export_post(post) for post in posts.values()]
    tags = [
        t.name for t in article.tags.all() if t.name.replace(" ", "_") not in post_tags
    ]
    if tags:
        blocks.append(" ".join("#" + t.replace(" ", "_") for t in tags))
    blocks += _export_credits(article, code)
    return "\n\n".join(b for b in blocks if b) + "\n"


def _export_post(post: SocialPost) -> str:
    when = ""
    if post.posted_at:
        day = timezone.localtime(post.posted_at).date()
        when = f"{MONTHS_EN[day.month - 1].capitalize()} {day.day}, {day.year}"
    if post.handle:
        signature = f"— {post.author_name} (@{post.handle}) {when} {post.url}"
        return "\n\n".join(
            p for p in [post.text.strip(), " ".join(signature.split())] if p
        )
    return "\n".join(p for p in [post.text.strip(), post.url] if p)


def _export_credits(article: Article, code: str) -> list[str]:
    labels = {
        "ar": {"via": "نقلاً عن", "other": "المصدر"},
        "en": {"via": "Via", "other": "Source"},
    }[code if code == "en" else "ar"]
    groups: dict[str, list[str]] = {}
    for attribution in article.attributions.select_related("source"):
        source = attribution.source
        name = getattr(source, f"name_{code}", "") or source.name
        label = labels["via" if attribution.role == "via" else "other"]
        groups.setdefault(label, []).append(name)
    separator = "، " if code == "ar" else ", "
    return [f"{label}: {separator.join(names)}" for label, names in groups.items()]
