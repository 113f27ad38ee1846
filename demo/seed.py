"""A newsroom at scale for benchmarks: fictional stories written straight to the
database in batches (`manage.py seed_newsroom`).

This is a benchmark tool, not an editorial path: it skips the services (no permission
check, no audit event, no identity gate, no revision) because a hundred thousand
stories through them would take hours. Rows are still made the way a save makes them:
`derive_fields()` sanitizes bodies and fills slugs and folded search text, and
`articles.search_index.index_articles` stores the same search vector a save stores. The
seeded people are never identity-protected.
"""

import random
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone, translation
from django.utils.html import escape
from taggit.models import Tag, TaggedItem

from arabic.slugs import unicode_slug
from articles.models import (
    Article,
    ArticlePerson,
    Byline,
    Correction,
    Section,
    SocialPost,
    Status,
)
from articles.search_index import index_articles
from identity.models import Person, PersonName
from sources.models import Attribution, Source

from . import seed_text as text

REPORTERS = 40
YEARS_OF_ARCHIVE = 6
# Status shares of the seeded stories; the rest are published.
STATUS_SHARES = [
    (Status.DRAFT, 0.03),
    (Status.IN_REVIEW, 0.015),
    (Status.APPROVED, 0.01),
    (Status.KILLED, 0.005),
]


def _pick_status(rng: random.Random) -> str:
    roll = rng.random()
    for status, share in STATUS_SHARES:
        if roll < share:
            return status
        roll -= share
    return Status.PUBLISHED


def seed_sections() -> dict[str, Section]:
    """The seed's desks, made once and reused on later runs."""
    sections = {}
    for position, (slug, name_ar, name_en) in enumerate(text.SECTIONS, start=10):
        section, _created = Section.objects.get_or_create(
            slug=slug,
            defaults={"name_ar": name_ar, "name_en": name_en, "position": position},
        )
        sections[slug] = section
    return sections


def seed_reporters() -> list:
    """Staff bylines: REPORTERS accounts that cannot log in."""
    User = get_user_model()
    names = [f"seed-reporter-{i}" for i in range(REPORTERS)]
    existing = set(
        User.objects.filter(username__in=names).values_list("username", flat=True)
    )
    new = []
    for i, username in enumerate(names):
        if username in existing:
            continue
        given = text.GIVEN_NAMES[i % len(text.GIVEN_NAMES)]
        family = text.FAMILY_NAMES[(i * 7) % len(text.FAMILY_NAMES)]
        user = User(username=username, first_name=given[0], last_name=family[0])
        user.set_unusable_password()
        new.append(user)
    User.objects.bulk_create(new)
    return list(User.objects.filter(username__in=names))


def _person_name(index: int) -> tuple[str, str]:
    given = text.GIVEN_NAMES[index % len(text.GIVEN_NAMES)]
    father = text.FATHER_NAMES[
        (index // len(text.GIVEN_NAMES)) % len(text.FATHER_NAMES)
    ]
    span = len(text.GIVEN_NAMES) * len(text.FATHER_NAMES)
    family = text.FAMILY_NAMES[(index // span) % len(text.FAMILY_NAMES)]
    return (
        f"{given[0]} {father[0]} {family[0]}",
        f"{given[1]} {father[1]} {family[1]}",
    )


def seed_people(count: int, *, batch: int) -> list[tuple[int, str, str]]:
    """At least `count` people in the database; (id, Arabic, Latin name) of every
    unprotected one, whom stories may name."""
    have = Person.objects.count()
    new = []
    for index in range(have, count):
        name_ar, name_en = _person_name(index)
        role = text.ROLES[index % len(text.ROLES)]
        person = Person(
            name=name_ar,
            aliases=name_en,
            description_ar=role[0],
            description_en=role[1].capitalize(),
        )
        person.derive_fields()
        new.append(person)
    Person.objects.bulk_create(new, batch_size=batch)
    # What Person.save() adds: the names the importer looks up by index.
    PersonName.objects.bulk_create(
        [row for person in new for row in person.name_rows()], batch_size=batch
    )
    rows = Person.objects.filter(identity_protected=False).values_list(
        "pk", "name", "aliases"
    )
    return [(pk, name, (aliases or name).splitlines()[0]) for pk, name, aliases in rows]


def seed_sources(count: int) -> list[int]:
    """At least `count` news outlets; the ids of those stories may credit."""
    have = Source.objects.count()
    new = []
    for index in range(have, count):
        city = text.CITIES[index % len(text.CITIES)]
        outlet = text.OUTLETS[(index // len(text.CITIES)) % len(text.OUTLETS)]
        round_ = index // (len(text.CITIES) * len(text.OUTLETS))
        suffix = f" {round_ + 1}" if round_ else ""
        name_en = outlet[1].format(city=city[1]) + suffix
        slug = f"seed-{index}-{unicode_slug(name_en)}"
        source = Source(
            name_ar=outlet[0].format(city=city[0]) + suffix,
            name_en=name_en,
            kind=outlet[2],
            slug=slug,
            domains=f"{slug}.example",
            homepage=f"https://{slug}.example/",
            language="ar",
        )
        source.derive_fields()
        new.append(source)
    Source.objects.bulk_create(new)
    return list(Source.objects.values_list("pk", flat=True))


def seed_tags() -> dict[str, int]:
    """A tag for every topic word and city, in both languages: name → id."""
    names = set()
    for topic in text.TOPICS:
        names.update(topic[3])
    for city in text.CITIES:
        names.update(city)
    existing = dict(Tag.objects.filter(name__in=names).values_list("name", "pk"))
    taken = set(Tag.objects.values_list("slug", flat=True))
    new = []
    for name in sorted(names - existing.keys()):
        slug = unicode_slug(name) or "tag"
        while slug in taken:
            slug += "-1"
        taken.add(slug)
        new.append(Tag(name=name, slug=slug))
    Tag.objects.bulk_create(new)
    return dict(Tag.objects.filter(name__in=names).values_list("name", "pk"))


class StoryWriter:
    """Writes fictional stories in batches, with their related rows."""

    def __init__(
        self, *, people: list[tuple[int, str, str]], sources: list[int], seed: int
    ) -> None:
        self.rng = random.Random(seed)
        self.sections = seed_sections()
        self.reporters = seed_reporters()
        self.people = people
        self.sources = sources
        self.tags = seed_tags()
        self.content_type = ContentType.objects.get_for_model(Article)
        self.now = timezone.now()

    def write(self, start: int, count: int, total: int) -> None:
        """Stories number `start` to `start + count` of `total`, oldest first."""
        drafts = [self._story(start + i, total) for i in range(count)]
        with transaction.atomic():
            articles = Article.objects.bulk_create([story for story, _ in drafts])
            index_articles(articles)
            self._related(articles, [plan for _, plan in drafts])

    def _story(self, number: int, total: int) -> tuple[Article, dict]:
        rng = self.rng
        city = rng.choice(text.CITIES)
        actor = rng.choice(text.ACTORS)
        verb = rng.choice(text.VERBS)
        topic = rng.choice(text.TOPICS)
        tail = rng.choice(text.TAILS)
        kicker = rng.choice(text.KICKERS)
        n, m = rng.randint(2, 90), rng.randint(2, 12)
        people = rng.sample(self.people, k=min(len(self.people), rng.randint(0, 3)))
        names = [(name_ar, name_en) for _pk, name_ar, name_en in people]
        roll = rng.random()
        language = "en" if roll < 0.1 else "ar"
        editions = {"ar": roll >= 0.1, "en": roll < 0.1 or roll > 0.55}
        fields = {}
        for index, code in enumerate(("ar", "en")):
            if not editions[code]:
                continue
            place = city[index]
            headline = " ".join(
                [
                    actor[index].format(city=place),
                    verb[index],
                    topic[index],
                    tail[index].format(n=n),
                ]
            )
            if code == "en":
                headline = headline[0].upper() + headline[1:]
            paragraphs = rng.sample(text.PARAGRAPHS, k=rng.randint(4, 7))
            body = "".join(
                "<p>{}</p>".format(
                    escape(
                        p[index].format(
                            city=place,
                            topic=topic[index],
                            person=(rng.choice(names)[index] if names else place),
                            n=n,
                            m=m,
                        )
                    )
                )
                for p in paragraphs
            )
            fields.update(
                {
                    f"headline_{code}": headline,
                    f"kicker_{code}": kicker[index],
                    f"summary_{code}": paragraphs[0][index].format(
                        city=place, topic=topic[index], person=place, n=n, m=m
                    ),
                    f"body_{code}": body,
                }
            )
        status = _pick_status(rng)
        age = (total - number) / max(total, 1) * YEARS_OF_ARCHIVE * 365
        published_at = self.now - timedelta(days=age, minutes=rng.randint(0, 600))
        if status == Status.PUBLISHED and rng.random() < 0.002:
            published_at = self.now + timedelta(hours=rng.randint(1, 48))  # scheduled
        article = Article(
            language=language,
            status=status,
            published_at=None if status == Status.DRAFT else published_at,
            section=self.sections[topic[2]],
            is_breaking=rng.random() < 0.003,
            **fields,
        )
        article.created_at = published_at
        article.derive_fields()
        plan = {
            "people": [pk for pk, _ar, _en in people],
            "tags": [w for w in (*topic[3], *city) if rng.random() < 0.6],
            "sources": rng.sample(self.sources, k=rng.randint(0, 2)),
            "reporters": rng.sample(self.reporters, k=rng.randint(1, 2)),
            "post": rng.random() < 0.05,
            "correction": rng.random() < 0.01,
        }
        return article, plan

    def _related(self, articles: list[Article], plans: list[dict]) -> None:
        bylines, people, tagged, credits, posts, corrections = [], [], [], [], [], []
        for article, plan in zip(articles, plans, strict=True):
            for position, user in enumerate(plan["reporters"]):
                bylines.append(Byline(article=article, user=user, position=position))
            for position, pk in enumerate(plan["people"]):
                people.append(
                    ArticlePerson(article=article, person_id=pk, position=position)
                )
            for name in plan["tags"]:
                tagged.append(
                    TaggedItem(
                        tag_id=self.tags[name],
                        content_type=self.content_type,
                        object_id=article.pk,
                    )
                )
            for position, pk in enumerate(plan["sources"]):
                credits.append(
                    Attribution(article=article, source_id=pk, position=position)
                )
            if plan["post"]:
                posts.append(
                    SocialPost(
                        article=article,
                        handle=f"seed_desk_{article.pk % 50}",
                        author_name="مكتب الأخبار",
                        text=f"تحديث رقم {article.pk}: التفاصيل في الخبر #متابعة",
                        hashtags=["متابعة"],
                    )
                )
            if plan["correction"]:
                corrections.append(
                    Correction(
                        article=article,
                        text_ar="صُحّح رقم في الفقرة الثانية.",
                        text_en="A figure in the second paragraph was corrected.",
                    )
                )
        Byline.objects.bulk_create(bylines)
        ArticlePerson.objects.bulk_create(people)
        TaggedItem.objects.bulk_create(tagged)
        Attribution.objects.bulk_create(credits)
        SocialPost.objects.bulk_create(posts)
        Correction.objects.bulk_create(corrections)


def seed_newsroom(
    *,
    stories: int,
    people: int = 2000,
    sources: int = 60,
    batch: int = 1000,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Write `stories` fictional stories (and at least `people` people and `sources`
    outlets); `progress` is called with the number written so far."""
    # Untranslated columns (headline, body …) get the default language's value,
    # as they do when an editor saves.
    with translation.override(settings.LANGUAGE_CODE):
        person_ids = seed_people(people, batch=batch)
        source_ids = seed_sources(sources)
        writer = StoryWriter(people=person_ids, sources=source_ids, seed=seed)
        for start in range(0, stories, batch):
            count = min(batch, stories - start)
            writer.write(start, count, stories)
            if progress:
                progress(start + count)
    return {
        "stories": stories,
        "people": Person.objects.count(),
        "sources": Source.objects.count(),
    }
