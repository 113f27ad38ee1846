"""A story as an IPTC ninjs 3.1 document: one per story and edition, valid against
IPTC's schema (and, with the newsroom's extension, against ours, which includes
theirs), built from what the public page shows, and withheld when it would carry a
protected legal name."""

import json
from datetime import date, timedelta
from functools import cache
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource

from articles.models import Article, ArticlePerson, SocialPost, Status
from audit.models import AuditEvent
from distribution.ninjs import (
    EXTENSION,
    EXTENSION_SCHEMA,
    NINJS_SCHEMA,
    DocumentWithheld,
    ninjs_document,
)
from images.models import Image, Rendition
from publishing.audit_actions import Action
from sources.models import Attribution, Source
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    ImageFactory,
    PersonFactory,
    ProtectedPersonFactory,
    RenditionFactory,
    SocialPostFactory,
    SourceFactory,
    picture_bytes,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# The reference material beside the project, or where this workplace keeps it (a
# CI clone may sit elsewhere), as the seed story's tests look for it.
OFFICIAL = next(
    (
        folder / "standards" / "ninjs-schema_3.1.json"
        for folder in (ROOT.parent / "shared", Path("/work/shared"))
        if (folder / "standards" / "ninjs-schema_3.1.json").exists()
    ),
    ROOT.parent / "shared" / "standards" / "ninjs-schema_3.1.json",
)
OURS = ROOT / "distribution" / "schemas" / "ninjs-newsroom-1.json"
BASE = "https://news.example"
LEGAL = "يوسف المنصوري"
PSEUDONYM = "الشاهد"

needs_schema = pytest.mark.skipif(
    not OFFICIAL.exists(), reason=f"the ninjs 3.1 schema is not at {OFFICIAL}"
)


@cache
def validators() -> tuple[Draft202012Validator, Draft202012Validator] | None:
    """IPTC's schema and ours (which refers to theirs), read offline."""
    if not OFFICIAL.exists():
        return None
    official = json.loads(OFFICIAL.read_text())
    resource = Resource.from_contents(official)
    registry = Registry().with_resources(
        [(NINJS_SCHEMA, resource), (NINJS_SCHEMA.rstrip("#"), resource)]
    )
    checker = FormatChecker()
    return (
        Draft202012Validator(official, registry=registry, format_checker=checker),
        Draft202012Validator(
            json.loads(OURS.read_text()), registry=registry, format_checker=checker
        ),
    )


def problems(validator: Draft202012Validator, document: dict) -> list[str]:
    return sorted(
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    )


def document(article: Article, language: str = "ar", **options) -> dict:
    """The story's document as partners get it, checked against the schemas
    whenever they are here: plain ninjs 3.1 against IPTC's, and the extended one
    against ours."""
    story = Article.objects.for_detail().get(pk=article.pk)
    built = ninjs_document(story, language, base_url=BASE, **options)
    schemas = validators()
    if schemas is not None:
        official, ours = schemas
        plain = ninjs_document(story, language, base_url=BASE, extension=False)
        assert problems(official, plain) == []
        assert problems(ours, built) == []
    return built


def association(doc: dict, name: str) -> dict:
    return next(a for a in doc["associations"] if a["name"] == name)


def picture(**fields) -> Image:
    image = ImageFactory(**fields)
    RenditionFactory(image=image, width=640, height=360, format="webp")
    RenditionFactory(
        image=image,
        width=1200,
        height=675,
        format="jpeg",
        ratio="16:9",
        file=ContentFile(picture_bytes((1200, 675)), name="c.jpeg"),
    )
    return image


@needs_schema
def test_every_published_demo_story_is_ninjs_3_1_in_both_editions():
    """The done-when of the content API: each public demo story, in Arabic and
    English, validates against IPTC's own schema."""
    call_command("load_demo", verbosity=0)
    official, _ours = validators()
    stories = list(Article.objects.published().for_detail())
    assert len(stories) >= 4
    for story in stories:
        for language in ("ar", "en"):
            plain = ninjs_document(story, language, base_url=BASE, extension=False)
            assert problems(official, plain) == [], (story.pk, language)


@needs_schema
def test_every_published_demo_story_with_our_extension_is_valid_against_our_schema():
    """With the newsroom's extension, each demo story validates against our schema,
    which includes IPTC's (their schema admits no property of ours)."""
    call_command("load_demo", verbosity=0)
    _official, ours = validators()
    for story in Article.objects.published().for_detail():
        for language in ("ar", "en"):
            doc = ninjs_document(story, language, base_url=BASE)
            assert EXTENSION in doc
            assert problems(ours, doc) == [], (story.pk, language)


def test_a_document_names_the_schema_it_is_valid_against():
    """`standard` says ninjs 3.1, and which schema: IPTC's for a plain document,
    ours for one with the extension."""
    story = ArticleFactory()
    assert document(story)["standard"] == {
        "name": "ninjs",
        "version": "3.1",
        "schema": EXTENSION_SCHEMA,
    }
    plain = document(story, extension=False)
    assert plain["standard"]["schema"] == NINJS_SCHEMA
    assert EXTENSION not in plain


def test_there_is_one_document_per_story_and_edition():
    """Each edition's document has its own identifier, language and headline."""
    story = ArticleFactory(headline_ar="الجسر الجديد", headline_en="The new bridge")
    arabic, english = document(story, "ar"), document(story, "en")
    assert arabic["uri"] == f"{BASE}/api/ninjs/{story.pk}/ar"
    assert english["uri"] == f"{BASE}/api/ninjs/{story.pk}/en"
    assert (arabic["language"], english["language"]) == ("ar", "en")
    assert arabic["headlines"][0]["value"] == "الجسر الجديد"
    assert english["headlines"][0]["value"] == "The new bridge"


def test_the_body_is_the_sanitized_html_the_page_shows():
    """A script written around the editor never reaches a partner."""
    story = ArticleFactory()
    Article.objects.filter(pk=story.pk).update(
        body_ar="<p>فقرة أولى</p><script>alert(1)</script><p>فقرة ثانية</p>"
    )
    body = document(story)["bodies"][0]
    assert body["contentType"] == "text/html"
    assert "<script" not in body["value"]
    assert "فقرة أولى" in body["value"] and "فقرة ثانية" in body["value"]
    assert body["wordCount"] == 4


def test_dates_are_the_story_s_own():
    """First published, this version, and when it was written, in UTC."""
    published = timezone.now().replace(microsecond=0) - timedelta(hours=3)
    story = ArticleFactory(published_at=published)
    doc = document(story)
    assert doc["firstCreated"] == published.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert doc["versionCreated"].endswith("Z")
    assert doc["contentCreated"].endswith("Z")
    assert doc["version"] == str(story.version)
    assert doc["pubStatus"] == "usable"


def test_an_embargo_is_sent_with_the_story():
    """A partner receiving an embargoed story is told until when."""
    until = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    story = ArticleFactory(embargo_until=until)
    doc = document(story)
    assert doc["embargoedUntil"] == until.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert doc["pubStatus"] == "withheld"


def test_a_killed_story_is_canceled():
    """A kill reaches partners as a status, not as a silence."""
    story = ArticleFactory(status=Status.KILLED)
    assert document(story)["pubStatus"] == "canceled"


def test_the_hero_image_is_an_association_with_our_renditions_and_their_sizes():
    """Every size and format we made, with its dimensions and media type, and the
    16:9 crop marked as such."""
    image = picture(caption_ar="جسر عند الغروب", credit="تصوير: أحمد")
    story = ArticleFactory(hero_image=image)
    hero = association(document(story), "hero")
    assert hero["type"] == "picture"
    assert hero["by"] == "تصوير: أحمد"
    caption = {
        "role": "caption",
        "contentType": "text/plain",
        "value": "جسر عند الغروب",
    }
    assert caption in hero["descriptions"]
    renditions = {r["name"]: r for r in hero["renditions"]}
    original = renditions["original"]
    assert (original["width"], original["height"]) == (64, 36)
    assert renditions["w640-webp"] == {
        "name": "w640-webp",
        "href": BASE + Rendition.objects.get(image=image, width=640).file.url,
        "contentType": "image/webp",
        "width": 640,
        "height": 360,
    }
    assert renditions["16x9-w1200-jpeg"]["aspectRatio"] == "16:9"


def test_a_picture_placed_in_the_body_stands_there_as_a_reference_to_its_association():
    image = picture()
    story = ArticleFactory(
        body_ar=f'<p>قبل الصورة</p><figure data-image="{image.pk}"></figure><p>بعد</p>'
    )
    doc = document(story)
    body = doc["bodies"][0]["value"]
    reference = f'<figure data-association="image-{image.pk}"></figure>'
    assert body.index("قبل الصورة") < body.index(reference) < body.index("بعد")
    assert association(doc, f"image-{image.pk}")["renditions"]


def test_a_graphic_picture_carries_a_warning():
    story = ArticleFactory(hero_image=picture(is_graphic=True))
    roles = [d["role"] for d in association(document(story), "hero")["descriptions"]]
    assert "contentWarning" in roles


def test_a_social_post_is_structured_data_never_a_script():
    """Who posted it, when, its text, hashtags and media: no platform's embed."""
    story = ArticleFactory()
    post = SocialPostFactory(
        article=story,
        url="https://x.com/news_account/status/1",
        posted_at=timezone.now().replace(microsecond=0),
        media_urls=["https://pbs.twimg.com/media/one.jpg"],
    )
    doc = document(story)
    name = f"post-{post.pk}"
    item = association(doc, name)
    assert f'<figure data-association="{name}"></figure>' in doc["bodies"][0]["value"]
    assert item["uri"] == "https://x.com/news_account/status/1"
    assert item["by"] == "حساب إخباري (@news_account)"
    assert item["bodies"][0]["value"] == post.text
    assert {"name": "#خبر", "rel": "hashtag"} in item["subjects"]
    assert item["renditions"] == [
        {"name": "media-1", "href": "https://pbs.twimg.com/media/one.jpg"}
    ]
    assert "<script" not in json.dumps(doc)


def test_people_are_named_by_their_public_name_only():
    """A protected person appears by the pseudonym, with their part in the story."""
    protected = ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    story = ArticleFactory()
    ArticlePersonFactory(
        article=story, person=protected, role=ArticlePerson.Role.SUBJECT
    )
    ArticlePersonFactory(article=story, person=PersonFactory(name="سالم الكعبي"))
    doc = document(story)
    people = [(p["name"], p["rel"]) for p in doc["people"]]
    assert people == [(PSEUDONYM, "subject"), ("سالم الكعبي", "mentioned")]
    assert "المنصوري" not in json.dumps(doc, ensure_ascii=False)


def test_the_section_and_tags_are_subjects():
    story = ArticleFactory()
    story.tags.add("الطرق", "النقل")
    subjects = document(story)["subjects"]
    assert subjects[0]["rel"] == "section"
    assert subjects[0]["name"] == story.section.name
    assert subjects[0]["uri"] == BASE + story.section.get_absolute_url()
    assert sorted(s["name"] for s in subjects if s["rel"] == "tag") == [
        "الطرق",
        "النقل",
    ]


def test_bylines_are_the_by_line_and_listed_in_the_extension():
    story = ArticleFactory()
    BylineFactory(article=story, name="ليلى حسن", position=0)
    BylineFactory(article=story, name="عمر سعيد", position=1)
    doc = document(story, "en")
    assert doc["by"] == "ليلى حسن and عمر سعيد"
    assert doc[EXTENSION]["bylines"] == ["ليلى حسن", "عمر سعيد"]


def test_an_agency_s_usage_terms_are_the_story_s_rights():
    """Copy republished from an agency carries the agency's credit wording, its
    required link, and the original as the rights' address."""
    agency = SourceFactory(
        name_en="Gulf Press Agency",
        kind=Source.Kind.AGENCY,
        credit_as="© GPA",
        link_required=True,
    )
    story = ArticleFactory()
    AttributionFactory(
        article=story,
        source=agency,
        role=Attribution.Role.REPUBLISHED,
        original_url="https://gpa.example/story/1",
        original_published_on=date(2026, 11, 30),
    )
    doc = document(story, "en")
    assert doc["copyrightHolder"] == "Gulf Press Agency"
    assert doc["copyrightNotice"] == "© GPA"
    assert "© GPA" in doc["usageTerms"]
    assert "https://gpa.example/story/1" in doc["usageTerms"]
    assert doc["rightsInfo"] == {"linkedRights": "https://gpa.example/story/1"}
    assert {
        "name": "Gulf Press Agency",
        "role": "republished",
        "uri": f"{BASE}/en/sources/{agency.slug}/",
    } in doc["infoSources"]


def test_attribution_roles_are_in_the_extension():
    """What the attribution line knows: each outlet's role, credit, required link,
    original address and date."""
    agency = SourceFactory(name_en="Gulf Press Agency", credit_as="© GPA")
    paper = SourceFactory(name_en="The Daily")
    story = ArticleFactory()
    AttributionFactory(
        article=story,
        source=agency,
        role=Attribution.Role.ORIGINAL,
        original_url="https://gpa.example/story/1",
        original_published_on=date(2026, 11, 30),
        is_canonical=True,
    )
    AttributionFactory(article=story, source=paper, role=Attribution.Role.CITED)
    doc = document(story, "en")
    assert doc[EXTENSION]["attributions"] == [
        {
            "source": "Gulf Press Agency",
            "sourceUri": f"{BASE}/en/sources/{agency.slug}/",
            "role": "original",
            "credit": "© GPA",
            "linkRequired": False,
            "originalUrl": "https://gpa.example/story/1",
            "originalPublishedOn": "2026-11-30",
            "canonical": True,
        },
        {
            "source": "The Daily",
            "sourceUri": f"{BASE}/en/sources/{paper.slug}/",
            "role": "cited",
            "credit": "The Daily",
            "linkRequired": False,
            "canonical": False,
        },
    ]
    assert {"role": "canonical", "value": "https://gpa.example/story/1"} in doc[
        "altIds"
    ]


def test_the_newsroom_holds_the_rights_to_its_own_reporting():
    story = ArticleFactory(published_at=timezone.now() - timedelta(hours=1))
    doc = document(story, "en")
    assert doc["copyrightHolder"] == "Newsroom"
    assert doc["copyrightNotice"] == f"© {story.published_at.year} Newsroom"


def test_hijri_dates_are_in_the_extension():
    """The Umm al-Qura date of publication, as data and as the edition prints it."""
    story = ArticleFactory(
        published_at=timezone.make_aware(timezone.datetime(2024, 12, 12, 12, 0))
    )
    hijri = document(story)[EXTENSION]["hijriDates"]["firstCreated"]
    assert hijri == {"date": "1446-06-11", "text": "11 جمادى الآخرة 1446"}


def test_a_correction_is_sent_with_its_date():
    story = ArticleFactory()
    correction = CorrectionFactory(article=story)
    sent = document(story)[EXTENSION]["corrections"]
    assert [(c["kind"], c["text"]) for c in sent] == [("correction", correction.text)]


@pytest.mark.parametrize(
    "plant",
    [
        lambda story: Article.objects.filter(pk=story.pk).update(
            summary_ar=f"قال {LEGAL} إن الجسر تأخر."
        ),
        lambda story: SocialPost.objects.filter(article=story).update(
            text=f"منشور عن {LEGAL}"
        ),
        lambda story: Image.objects.filter(pk=story.hero_image_id).update(
            caption_ar=f"صورة {LEGAL}"
        ),
        lambda story: Source.objects.filter(attributions__article=story).update(
            credit_as=f"© {LEGAL}"
        ),
    ],
    ids=["summary", "post text", "image caption", "source credit"],
)
def test_a_legal_name_planted_around_the_services_withholds_the_document(plant):
    """The public pages' output check reads the document: a legal name written
    around every door (a raw update) withholds it, and the trail records the
    pseudonym and the address, never the name."""
    protected = ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    story = ArticleFactory(hero_image=picture())
    SocialPostFactory(article=story)
    AttributionFactory(article=story)
    plant(story)
    loaded = Article.objects.for_detail().get(pk=story.pk)
    with pytest.raises(DocumentWithheld) as withheld:
        ninjs_document(loaded, "ar", base_url=BASE)
    assert withheld.value.people == [protected]
    assert PSEUDONYM in str(withheld.value)
    assert "المنصوري" not in str(withheld.value)
    event = AuditEvent.objects.get(action=Action.WITHHELD)
    assert event.message == f"{BASE}/api/ninjs/{story.pk}/ar"


def queries_for_document(story: Article) -> int:
    with CaptureQueriesContext(connection) as queries:
        ninjs_document(
            Article.objects.for_detail().get(pk=story.pk), "ar", base_url=BASE
        )
    return len(queries)


def rich_story(size: int) -> Article:
    """A story with `size` tags, people, posts, bylines, sources and placed pictures."""
    pics = [picture() for _ in range(size)]
    story = ArticleFactory(
        hero_image=picture(),
        body_ar="".join(
            f'<p>فقرة</p><figure data-image="{i.pk}"></figure>' for i in pics
        ),
    )
    story.tags.add(*[f"وسم {n}" for n in range(size)])
    for n in range(size):
        ArticlePersonFactory(article=story)
        SocialPostFactory(article=story)
        BylineFactory(article=story, name=f"كاتب {n}")
        AttributionFactory(article=story)
    CorrectionFactory(article=story)
    return story


def test_a_document_costs_the_same_queries_however_much_the_story_holds():
    """Loaded with for_detail(), a story of one of each and a story of five of each
    cost the same number of queries."""
    small, large = rich_story(1), rich_story(5)
    queries_for_document(small)  # the gate and routes, as a worker has them warm
    assert queries_for_document(large) == queries_for_document(small) <= 12


def test_export_ninjs_prints_the_document():
    story = ArticleFactory(headline_en="The new bridge")
    out = StringIO()
    call_command(
        "export_ninjs", str(story.pk), "--lang", "en", "--base-url", BASE, stdout=out
    )
    printed = json.loads(out.getvalue())
    assert printed["uri"] == f"{BASE}/api/ninjs/{story.pk}/en"
    assert printed["headlines"][0]["value"] == "The new bridge"


def test_export_ninjs_refuses_an_unknown_story():
    with pytest.raises(CommandError, match="There is no story #999999"):
        call_command("export_ninjs", "999999", stdout=StringIO())
