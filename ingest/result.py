"""What one import recognized and proposes, and what the editor confirmed."""

from dataclasses import dataclass, field

from django.conf import settings

from articles.models import Article
from identity.models import Person
from sources.models import Source

from .parse import ParsedStory
from .posts import ParsedPost
from .problems import ALERT, Problem
from .proposals import NameProposal
from .recognize import PersonMatch, SourceMatch
from .suggestions import CitedSource


@dataclass
class PersonChoice:
    """A proposed name the editor confirmed: its role, and whose alias it is, if
    anyone's (an existing person, or another confirmed name)."""

    name: str
    role: str = "mentioned"
    alias_of_person: Person | None = None
    alias_of_name: str = ""

    @classmethod
    def proposed(
        cls, proposal: NameProposal, accepted: set[str] | None = None
    ) -> "PersonChoice":
        """The proposal as proposed: its role, and the alias the copy suggests
        (of another name only if that one is `accepted` too, when given)."""
        alias_of_name = proposal.alias_of
        if accepted is not None and alias_of_name not in accepted:
            alias_of_name = ""
        return cls(
            proposal.name,
            proposal.role,
            alias_of_person=proposal.alias_of_person,
            alias_of_name=alias_of_name,
        )


@dataclass
class Confirmation:
    """The editor's answers to the proposals; by default nothing is accepted."""

    people: list[PersonChoice] = field(default_factory=list)
    cited: list[str] = field(default_factory=list)  # source ids, as strings
    tags: list[str] = field(default_factory=list)
    breaking: bool = False
    embed_links: list[str] = field(default_factory=list)  # post URLs to embed

    @classmethod
    def everything(cls, result: "ImportResult") -> "Confirmation":
        """Accept every proposal as proposed (the command's --accept-all)."""
        return cls(
            people=[PersonChoice.proposed(p) for p in result.proposed_people],
            cited=[c.key for c in result.cited],
            tags=list(result.tags),
            breaking=result.breaking,
            embed_links=[link.url for link in result.story.link_posts],
        )


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
    # Proposals: nothing below is created until an editor confirms it (Confirmation).
    post_sources: list[Source | None] = field(default_factory=list)
    cited: list[CitedSource] = field(default_factory=list)
    proposed_people: list[NameProposal] = field(default_factory=list)
    suggested_tags: list[str] = field(default_factory=list)
    created_people: list[Person] = field(default_factory=list)
    # Why the breaking flag is proposed (suggestions.breaking_reason), "" if it is not.
    breaking_reason: str = ""

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
    def language_name(self) -> str:
        """The story's language by its name in the admin's language ("العربية")."""
        names = dict(settings.LANGUAGES)
        return str(names.get(self.story.language, self.story.language))

    @property
    def unknown_sources(self) -> list[SourceMatch]:
        return [match for match in self.sources if not match.matched]

    @property
    def tags(self) -> list[str]:
        """Tags proposed for the article: its own hashtags and tags its text names."""
        return self.suggested_tags

    @property
    def breaking(self) -> bool:
        """Whether the breaking flag is proposed (see `breaking_reason`)."""
        return bool(self.breaking_reason)

    def posts_with_sources(self) -> list[tuple[ParsedPost, Source | None]]:
        sources = self.post_sources or [None] * len(self.story.posts)
        return list(zip(self.story.posts, sources, strict=True))

    def as_dict(self) -> dict:
        story = self.story
        return {
            "headline": story.headline,
            "kicker": story.kicker,
            "summary": story.summary,
            "language": story.language,
            "paragraphs": len(story.paragraphs),
            "social_posts": [
                dict(
                    post.as_dict(),
                    source_id=source.pk if source else None,
                    source_name=source.name if source else None,
                )
                for post, source in self.posts_with_sources()
            ],
            "attributions": [match.as_dict() for match in self.sources],
            "people": [match.as_dict() for match in self.people],
            "tags": self.tags,
            "proposals": {
                "people": [p.as_dict() for p in self.proposed_people],
                "cited": [c.as_dict() for c in self.cited],
                "tags": self.tags,
                "breaking": self.breaking,
                "link_posts": [link.as_dict() for link in story.link_posts],
            },
            "created_people": [p.pk for p in self.created_people],
            "warnings": [p.as_dict() for p in self.warnings],
            "errors": [p.as_dict() for p in self.errors],
            "duplicate_of": self.duplicate_of,
            "article_id": self.article.pk if self.article else None,
        }
