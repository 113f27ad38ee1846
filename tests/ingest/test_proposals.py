"""The import proposes what an editor would add, and creates only what is confirmed."""

import json
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from taggit.models import Tag

from articles.body import split_blocks
from articles.models import SocialPost
from audit.models import AuditEvent
from identity.models import Person
from ingest.parse import parse_story
from ingest.problems import StoryImportError
from ingest.proposals import propose_names
from ingest.result import Confirmation, PersonChoice
from ingest.services import story_import
from ingest.suggestions import people_proposals
from sources.models import Attribution
from tests.factories import (
    PersonFactory,
    ProtectedPersonFactory,
    SocialAccountFactory,
    SourceFactory,
    SuperuserFactory,
)

from .conftest import sample, sample_bytes

SAMPLE = "20_ar_proposals.txt"
URL = "/admin/articles/article/import/"
# Noon in Dubai on the day of the sample's #عاجل post (December 12, 2024).
POST_DAY = datetime(2024, 12, 12, 8, tzinfo=UTC)


def chief():
    return SuperuserFactory(username="chief")


@pytest.fixture
def desk(db):
    """The outlet that posts as @alghad_daily, and the agency of the credit line."""
    paper = SourceFactory(name_ar="الغد اليومي", name_en="Daily Tomorrow")
    SocialAccountFactory(source=paper, platform="x", handle="AlGhad_Daily")
    return {
        "paper": paper,
        "reuters": SourceFactory(name_ar="رويترز", name_en="Reuters"),
    }


def proposed(result) -> dict[str, str]:
    return {p.name: p.role for p in result.proposed_people}


# ---------------------------------------------------------------- parsing only


def test_nickname_revealed_name_and_name_after_a_title_are_proposed():
    """«صقر» (quoted, repeated), كريم الحداد (reveals himself), ماهر (after المدعو)."""
    names = {p.name: p for p in propose_names(parse_story(sample(SAMPLE)))}
    assert set(names) == {"صقر", "كريم الحداد", "ماهر"}
    assert names["صقر"].role == "subject"  # the headline names him
    assert names["كريم الحداد"].role == "subject"  # whoever reveals himself
    assert names["ماهر"].role == "mentioned"
    assert "المدعو ماهر" in names["ماهر"].evidence and names["ماهر"].line == 7


def test_english_titles_and_recurring_full_names_are_proposed():
    """President Lena Ortiz (a title) and Tomas Berg (named twice) are proposed."""
    text = (
        "Border talks resume in the capital\n\n"
        "President Lena Ortiz opened the talks on Monday.\n\n"
        "Tomas Berg said the delegation found the mood calm. "
        "Later Tomas Berg left early."
    )
    names = {p.name: p.role for p in propose_names(parse_story(text))}
    assert names == {"Lena Ortiz": "mentioned", "Tomas Berg": "quoted"}


def test_common_nouns_in_quotes_are_not_proposed():
    """A quoted word used once ("المحاسبة") or a law's name is not a person."""
    text = (
        'عنوان عن العدالة في البلاد\n\nطالب المحتجون بـ"المحاسبة" بعد صدور ما عرف '
        'باسم "قانون العدالة".'
    )
    assert propose_names(parse_story(text)) == []


def test_story_tags_leave_post_hashtags_on_the_post():
    """Only the story's own hashtag is a tag; the post's #عاجل stays the post's and
    does not make the story call itself breaking."""
    story = parse_story(sample(SAMPLE))
    assert story.tags == ["تصوير الحروب"]
    assert story.posts[0].hashtags == ["عاجل", "الغد_اليومي"]
    assert not story.calls_itself_breaking


def test_post_url_inside_prose_is_offered_after_its_paragraph():
    """A YouTube URL in a sentence is a link post following paragraph 3."""
    (link,) = parse_story(sample(SAMPLE)).link_posts
    assert (link.url, link.position, link.line) == (
        "https://www.youtube.com/watch?v=AbCdEfGhIjK",
        3,
        7,
    )


# ---------------------------------------------------------------- with the database


@pytest.mark.django_db
def test_post_is_linked_to_the_source_owning_its_account(desk):
    """@alghad_daily is the paper's X account, whatever the letter case."""
    result = story_import(by=chief(), text=sample(SAMPLE), dry_run=True)
    assert result.post_sources == [desk["paper"]]
    assert result.as_dict()["social_posts"][0]["source_name"] == "Daily Tomorrow"


@pytest.mark.django_db
def test_source_named_in_the_body_is_proposed_as_cited(desk):
    """«الغد اليومي» after "لصحيفة" is proposed as cited, beside the credit line."""
    result = story_import(by=chief(), text=sample(SAMPLE), dry_run=True)
    assert [(c.source, c.name_used) for c in result.cited] == [
        (desk["paper"], "الغد اليومي")
    ]
    assert [m.source for m in result.sources if m.matched] == [desk["reuters"]]


@pytest.mark.django_db
def test_unconfirmed_proposals_create_nothing(desk):
    """Importing without confirmation makes the draft and none of the proposals."""
    people_before = Person.objects.count()
    article = story_import(by=chief(), text=sample(SAMPLE)).article
    assert Person.objects.count() == people_before
    assert list(article.attributions.values_list("role", flat=True)) == ["republished"]
    assert list(article.tags.all()) == [] and not article.is_breaking
    assert article.social_posts.count() == 1  # the X post only; the link stays text
    assert "https://www.youtube.com/watch?v=AbCdEfGhIjK" in article.body_ar


@pytest.mark.django_db
def test_confirmed_proposals_are_created_through_the_services(desk):
    """Confirmed people, cited source, tag, flag and embed are all created, audited
    (imported on the day of its #عاجل post, so the flag is proposed)."""
    editor = chief()
    text, now = sample(SAMPLE), POST_DAY
    preview = story_import(by=editor, text=text, dry_run=True, now=now)
    article = story_import(
        by=editor, text=text, confirmation=Confirmation.everything(preview), now=now
    ).article
    named = {row.person.name: row.role for row in article.people_named.all()}
    assert named == {"كريم الحداد": "subject", "ماهر": "mentioned"}
    assert Person.objects.get(name="كريم الحداد").alias_list == ["صقر"]
    assert AuditEvent.objects.filter(object_repr__in=named).count() == 3
    roles = set(article.attributions.values_list("source__name_ar", "role"))
    assert roles == {("رويترز", "republished"), ("الغد اليومي", "cited")}
    assert list(article.tags.names()) == ["تصوير الحروب"] and article.is_breaking
    youtube = article.social_posts.get(platform="youtube")
    blocks = split_blocks(article.body_ar)
    place = blocks.index(f'<figure data-post="{youtube.pk}"></figure>')
    paragraphs_before = [b for b in blocks[:place] if not b.startswith("<figure")]
    assert len(paragraphs_before) == 3


@pytest.mark.django_db
def test_a_confirmed_name_can_be_an_alias_of_a_person_or_of_another_name(desk):
    """صقر becomes كريم الحداد's alias; ماهر joins an existing person's aliases."""
    existing = PersonFactory(name="ماهر العلي")
    editor = chief()
    confirmation = Confirmation(
        people=[
            PersonChoice("كريم الحداد", "subject"),
            PersonChoice("صقر", "subject", alias_of_name="كريم الحداد"),
            PersonChoice("ماهر", "mentioned", alias_of_person=existing),
        ]
    )
    article = story_import(
        by=editor, text=sample(SAMPLE), confirmation=confirmation
    ).article
    karim = Person.objects.get(name="كريم الحداد")
    assert karim.alias_list == ["صقر"]
    existing.refresh_from_db()
    assert existing.alias_list == ["ماهر"]
    rows = {(r.person_id, r.name_used) for r in article.people_named.all()}
    assert rows == {(karim.pk, "كريم الحداد"), (existing.pk, "ماهر")}


@pytest.mark.django_db
def test_known_people_are_matched_not_proposed(desk):
    """A name the newsroom knows (an alias here) is linked, never proposed again."""
    PersonFactory(name="كريم الحداد", aliases="صقر")
    result = story_import(by=chief(), text=sample(SAMPLE), dry_run=True)
    assert set(proposed(result)) == {"ماهر"}


@pytest.mark.django_db
def test_a_proposal_spelling_a_protected_legal_name_alerts_without_the_name():
    """Nothing is proposed; one alert says what happened, not the name."""
    ProtectedPersonFactory()  # legal name يوسف المنصوري
    text = "لقاء في المدينة القديمة\n\nوصل المدعو يوسف المنصوري إلى الساحة صباحاً."
    with pytest.raises(StoryImportError) as caught:
        story_import(by=chief(), text=text, dry_run=True)
    result = caught.value.result
    assert proposed(result) == {}
    (alert,) = [p for p in result.problems if p.code == "protected_name"]
    assert alert.line is None and "المنصوري" not in alert.message


# ---------------------------------------------------------------- admin preview


@pytest.mark.django_db
def test_preview_lists_each_proposal_with_its_choices(admin_client, desk):
    """The preview shows the post's source, the cited source, people and choices."""
    response = admin_client.post(URL, {"text": sample(SAMPLE)})
    content = response.content.decode()
    assert response.status_code == 200
    assert "account of Daily Tomorrow" in content
    assert 'name="cited"' in content and 'name="tags"' in content
    assert 'name="person-0-accept"' in content and 'name="person-0-alias"' in content
    assert 'name="embed_links"' in content and 'name="breaking"' in content
    assert "كريم الحداد" in content and Person.objects.filter(name="ماهر").count() == 0


@pytest.mark.django_db
def test_preview_confirmation_creates_only_what_was_ticked(admin_client, desk):
    """Ticking one person, the cited source and breaking creates just those."""
    text = sample(SAMPLE)
    preview = admin_client.post(URL, {"text": text}).context["result"]
    index = [p.name for p in preview.proposed_people].index("كريم الحداد")
    response = admin_client.post(
        URL,
        {
            "confirm": "1",
            "text": text,
            f"person-{index}-accept": "on",
            f"person-{index}-role": "subject",
            f"person-{index}-alias": "",
            **{f"person-{i}-role": "mentioned" for i in range(3) if i != index},
            "cited": [str(desk["paper"].pk)],
            "breaking": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Person.objects.filter(name="كريم الحداد").exists()
    assert not Person.objects.filter(name__in=["صقر", "ماهر"]).exists()
    attribution = Attribution.objects.get(role="cited")
    assert attribution.source == desk["paper"] and attribution.article.is_breaking
    assert not Tag.objects.exists()
    assert not SocialPost.objects.filter(platform="youtube").exists()


# ---------------------------------------------------------------- command line


def run(*args):
    out, err = StringIO(), StringIO()
    try:
        call_command("import_story", "--user", "chief", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_dry_run_lists_the_proposals(desk, tmp_path):
    """--dry-run prints each proposal and creates nothing."""
    chief()
    path = tmp_path / "story.txt"
    path.write_bytes(sample_bytes(SAMPLE))
    code, out, _err = run("--dry-run", str(path))
    assert code == 0
    assert "proposed person: كريم الحداد (subject)" in out
    assert "proposed person: صقر (subject, nickname)" in out
    assert "alias of كريم الحداد" in out
    assert "proposed cited source: Daily Tomorrow" in out
    assert "proposed tags: تصوير الحروب" in out
    assert not Person.objects.filter(name="كريم الحداد").exists()


@pytest.mark.django_db
def test_accept_people_creates_the_named_proposals_only(desk, tmp_path):
    """--accept-people NAME adds that person; the others stay proposals."""
    chief()
    path = tmp_path / "story.txt"
    path.write_bytes(sample_bytes(SAMPLE))
    code, _out, err = run("--accept-people", "ماهر", "--", str(path))
    assert code == 0, err
    assert Person.objects.filter(name="ماهر").exists()
    assert not Person.objects.filter(name__in=["صقر", "كريم الحداد"]).exists()


@pytest.mark.django_db
def test_json_is_utf8_with_stable_codes_and_parameters(desk, tmp_path):
    """--json keeps Arabic readable; each problem has a code and its parameters."""
    chief()
    path = tmp_path / "story.txt"
    path.write_text(sample(SAMPLE).replace("رويترز", "وكالة مجهولة"), "utf-8")
    code, out, _err = run("--dry-run", "--json", str(path))
    data = json.loads(out)
    assert code == 0 and "كريم الحداد" in out  # not \\u escapes
    (unknown,) = [w for w in data["warnings"] if w["code"] == "unknown_source"]
    assert unknown["params"] == {"name": "وكالة مجهولة"} and unknown["line"] == 15
    assert {p["name"] for p in data["proposals"]["people"]} == {
        "صقر",
        "كريم الحداد",
        "ماهر",
    }


@pytest.mark.django_db
def test_lang_picks_the_language_of_the_messages(tmp_path):
    """--lang en and --lang ar give the same code, in each language."""
    chief()
    path = tmp_path / "story.txt"
    path.write_text("عنوان فقط", "utf-8")
    _code, out_en, _ = run("--json", "--lang", "en", str(path))
    _code, out_ar, _ = run("--json", "--lang", "ar", str(path))
    en, ar = json.loads(out_en)["errors"][0], json.loads(out_ar)["errors"][0]
    assert en["code"] == ar["code"] == "no_paragraphs"
    assert en["message"] == "There are no paragraphs after the headline."
    assert ar["message"] != en["message"]


@pytest.mark.django_db
def test_a_person_the_newsroom_knows_is_not_proposed_even_unmatched():
    """people_proposals drops names of stored people (read by their indexed first
    words), even when the caller passes no matched names."""
    story = parse_story(
        "لقاء في المدينة القديمة\n\nوصل المدعو ماهر إلى الساحة، وقالت "
        "المدعو وجدان الخطيب إن اللقاء انتهى."
    )
    proposals, _alerts = people_proposals(story, [])
    assert {p.name for p in proposals} == {"ماهر", "جدان الخطيب"}
    PersonFactory(name="ماهر")
    PersonFactory(name="وجدان الخطيب")  # name_key cuts the "و" of a long word
    proposals, _alerts = people_proposals(story, [])
    assert proposals == []
