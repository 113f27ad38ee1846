"""One person per person: names the copy ties together are proposed as one person,
names it keeps apart are not, a nickname is a public name (never a legal one), and
roles follow the copy."""

from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from articles.models import Article
from core.roles import EDITORS
from identity.models import Person
from ingest.parse import parse_story
from ingest.problems import StoryImportError
from ingest.proposals import propose_names
from ingest.result import Confirmation, PersonChoice
from ingest.services import story_import
from tests.factories import PersonFactory, ProtectedPersonFactory, member_of

from .conftest import SAMPLES, sample

ONE_MAN = "22_ar_one_man_revealed.txt"  # ماجد سليمان reveals he is «النسر»
TWO_MEN = "23_ar_two_men_apart.txt"  # نبيل فارس is «وردة»; «رعد» is another man
URL = "/admin/articles/article/import/"

KNOWN_AS = (
    "الشرطة تعتقل مهرب آثار في الميناء\n\n"
    "اعتقلت الشرطة فجر اليوم المهرب حسن داود، المعروف بـ«الثعلب»، في ميناء "
    "المدينة.\n\nوكان «الثعلب» مطلوباً منذ عامين، بحسب بيان الشرطة."
)
THEN_NAMED = (
    "«الطبيب» يعود إلى قريته\n\n"
    "عرف أهالي القرية لسنوات رجلاً يداوي الجرحى باسم «الطبيب»، واسمه الحقيقي "
    "سالم الحربي.\n\nوقال «الطبيب» إنه تعلم الإسعاف من والده."
)
ENGLISH = (
    "Harbour smuggler arrested at dawn\n\n"
    'Police arrested Omar Haddad, known as "Falcon", at the harbour on Monday.\n\n'
    "Officers had searched for Falcon since 2022. Omar Haddad did not comment."
)


def proposals(text: str) -> dict:
    return {p.name: p for p in propose_names(parse_story(text))}


# ---------------------------------------------------------------- what the copy says


def test_a_revelation_beside_a_quoted_nickname_ties_them():
    """ "كشف ماجد سليمان عن هويته … «النسر»": the nickname is his."""
    found = proposals(sample(ONE_MAN))
    assert found["النسر"].alias_of == "ماجد سليمان"
    assert found["النسر"].is_nickname and not found["ماجد سليمان"].is_nickname


def test_known_as_after_a_name_ties_them():
    """ "حسن داود، المعروف بـ«الثعلب»": one man, a nickname with the article."""
    found = proposals(KNOWN_AS)
    assert found["الثعلب"].alias_of == "حسن داود"
    assert "المعروف بـ«الثعلب»" in found["الثعلب"].alias_evidence


def test_a_quoted_nickname_then_named_ties_them():
    """ "«الطبيب»، واسمه الحقيقي سالم الحربي": the name is his own."""
    found = proposals(THEN_NAMED)
    assert found["الطبيب"].alias_of == "سالم الحربي"
    assert found["سالم الحربي"].kind == "name"


def test_english_known_as_ties_the_nickname_to_the_name():
    """Omar Haddad, known as "Falcon"."""
    assert proposals(ENGLISH)["Falcon"].alias_of == "Omar Haddad"


def test_names_the_copy_calls_two_people_are_not_tied():
    """«رعد» is "a man he trusted, later known as «رعد»", and "كلاً من «وردة»
    و«رعد»": he is not the revealer, though the headline says «رعد» reveals."""
    found = proposals(sample(TWO_MEN))
    assert found["وردة"].alias_of == "نبيل فارس"
    assert found["رعد"].alias_of == ""
    assert "يُعرف لاحقاً بـ«رعد»" in found["رعد"].apart


def test_two_revealers_make_no_revelation_across_sentences():
    """With two names revealing themselves, a nickname alone in its sentence is
    no one's: which of them it belongs to, the copy does not say."""
    text = (
        "«الظل» يكشف هويته\n\nكشف نبيل فارس عن هويته أمس.\n\n"
        "وكشف سامر حداد عن هويته اليوم.\n\nوكان «الظل» معروفاً. ووصف الظل عمله."
    )
    assert proposals(text)["الظل"].alias_of == ""


def test_the_revealer_is_the_subject_and_the_other_man_is_mentioned():
    """Roles follow the copy: the one whose story it is, the one who is not."""
    found = proposals(sample(TWO_MEN))
    roles = {name: found[name].role for name in ("نبيل فارس", "وردة", "رعد")}
    assert roles == {"نبيل فارس": "subject", "وردة": "subject", "رعد": "mentioned"}


def test_someone_speaking_is_quoted():
    """Without a revelation or the headline, whoever speaks is quoted."""
    text = (
        "افتتاح معرض الكتاب في المدينة\n\n"
        "افتتح الوزير سعيد ناصر المعرض صباح اليوم.\n\n"
        "وقال الدكتور هاني مراد إن الإقبال كبير."
    )
    found = proposals(text)
    assert (found["هاني مراد"].role, found["سعيد ناصر"].role) == (
        "quoted",
        "mentioned",
    )


def test_evidence_is_cut_between_words():
    """A long line's evidence begins and ends with whole words, marked "…"."""
    found = proposals(sample(TWO_MEN))
    evidence = found["نبيل فارس"].evidence
    assert evidence.endswith(" …")
    line = sample(TWO_MEN).split("\n")[4]
    kept = evidence.removesuffix(" …").removeprefix("… ")
    assert f" {kept.split()[-1]} " in f" {line} "  # a whole word of the line


# ---------------------------------------------------------------- what is created


@pytest.mark.django_db
def test_a_nickname_alone_becomes_the_public_name_with_no_legal_name(
    newsroom_sources,
):
    """«رعد», known only by his nickname: public name «رعد», legal name empty."""
    editor = member_of(EDITORS)
    preview = story_import(by=editor, text=sample(TWO_MEN), dry_run=True)
    story_import(
        by=editor, text=sample(TWO_MEN), confirmation=Confirmation.everything(preview)
    )
    raad = Person.objects.get(public_name="رعد")
    assert raad.name == "" and raad.display_name == "رعد"
    assert not Person.objects.filter(name__in=["رعد", "وردة"]).exists()


@pytest.mark.django_db
def test_tied_names_become_one_person_with_the_nickname_as_alias(newsroom_sources):
    """نبيل فارس, alias «وردة», named once in the story as its subject."""
    editor = member_of(EDITORS)
    preview = story_import(by=editor, text=sample(TWO_MEN), dry_run=True)
    article = story_import(
        by=editor, text=sample(TWO_MEN), confirmation=Confirmation.everything(preview)
    ).article
    nabil = Person.objects.get(name="نبيل فارس")
    assert nabil.alias_list == ["وردة"] and nabil.public_name == ""
    rows = [(r.person.display_name, r.role) for r in article.people_named.all()]
    assert rows == [("نبيل فارس", "subject"), ("رعد", "mentioned")]


@pytest.mark.django_db
def test_a_nickname_tied_to_a_known_person_joins_his_aliases(newsroom_sources):
    """The newsroom knows ماجد سليمان: «النسر» is proposed as his alias."""
    majed = PersonFactory(name="ماجد سليمان")
    editor = member_of(EDITORS)
    preview = story_import(by=editor, text=sample(ONE_MAN), dry_run=True)
    (nickname,) = preview.proposed_people
    assert (nickname.name, nickname.alias_of_person) == ("النسر", majed)
    article = story_import(
        by=editor, text=sample(ONE_MAN), confirmation=Confirmation.everything(preview)
    ).article
    majed.refresh_from_db()
    assert majed.alias_list == ["النسر"]
    assert article.people_named.get().role == "subject"  # a known man, revealing


@pytest.mark.django_db
def test_a_name_is_never_added_to_a_protected_person_on_import(newsroom_sources):
    """Tying a name to someone protected is an identity officer's call."""
    protected = ProtectedPersonFactory(public_name="النسر", aliases="النسر")
    confirmation = Confirmation(
        people=[PersonChoice("ماجد سليمان", "subject", alias_of_person=protected)]
    )
    with pytest.raises(StoryImportError) as caught:
        story_import(
            by=member_of(EDITORS), text=sample(ONE_MAN), confirmation=confirmation
        )
    assert [p.code for p in caught.value.problems] == ["alias_of_protected"]
    protected.refresh_from_db()
    assert "ماجد سليمان" not in protected.aliases and not Article.objects.exists()


@pytest.mark.django_db
def test_a_known_protected_nickname_is_not_given_the_revealed_name(newsroom_sources):
    """The copy says ماجد سليمان is «النسر», a protected source: the name is
    proposed on its own, never as the protected person's."""
    ProtectedPersonFactory(public_name="النسر", aliases="النسر")
    preview = story_import(by=member_of(EDITORS), text=sample(ONE_MAN), dry_run=True)
    (name,) = preview.proposed_people
    assert name.name == "ماجد سليمان" and name.alias_of_person is None


@pytest.mark.django_db
def test_a_person_needs_a_name_or_a_public_name():
    """An empty legal name is allowed only beside a public name."""
    with pytest.raises(ValidationError):
        Person(name="", public_name="").full_clean()
    Person(name="", public_name="رعد").full_clean()


@pytest.mark.django_db
def test_a_protected_person_needs_a_legal_name():
    """Protection with no legal name would promise what the gate cannot keep."""
    with pytest.raises(ValidationError) as caught:
        Person(name="", public_name="رعد", identity_protected=True).full_clean()
    assert "name" in caught.value.message_dict


# ---------------------------------------------------------------- the Import page


@pytest.mark.django_db
def test_the_import_page_proposes_the_alias_and_says_why(desk_client, newsroom_sources):
    """A plain editor sees «وردة» preselected as نبيل فارس's alias, with the words
    tying them, and «رعد» with the words keeping him apart."""
    response = desk_client.post(URL, {"text": sample(TWO_MEN)})
    form = response.context["confirm"]
    index = {
        p.name: i for i, p in enumerate(response.context["result"].proposed_people)
    }
    assert form[f"person-{index['وردة']}-alias"].value() == "name:نبيل فارس"
    assert form[f"person-{index['رعد']}-alias"].value() == ""
    content = response.content.decode()
    assert "The text ties them:" in content
    assert "the text also calls them two people" in content
    assert "A nickname: it becomes the public name" in content


@pytest.mark.django_db
def test_confirming_the_import_page_as_proposed_makes_one_person(
    desk_client, newsroom_sources
):
    """Ticking every name and keeping the proposed choices: one نبيل فارس, alias
    «وردة», and «رعد» apart."""
    text = sample(TWO_MEN)
    preview = desk_client.post(URL, {"text": text}).context["confirm"]
    data = {"confirm": "1", "text": text}
    for _proposal, accept, role, alias in preview.people_rows:
        data[accept.html_name] = "on"
        data[role.html_name] = role.value()
        data[alias.html_name] = alias.value() or ""
    response = desk_client.post(URL, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Person.objects.get(name="نبيل فارس").alias_list == ["وردة"]
    assert Person.objects.get(public_name="رعد").name == ""


# ---------------------------------------------------------------- the command


@pytest.mark.django_db
def test_the_command_lists_ties_and_creates_them(newsroom_sources):
    """--dry-run prints the alias and the words keeping «رعد» apart; --accept-all
    makes the people as proposed."""
    member_of(EDITORS, username="desk")
    path = str(SAMPLES / TWO_MEN)
    out = StringIO()
    call_command("import_story", "--user", "desk", "--dry-run", path, stdout=out)
    assert "alias of نبيل فارس" in out.getvalue()
    assert "kept apart: … في قرى الجبل" in out.getvalue()
    call_command("import_story", "--user", "desk", "--accept-all", path, stdout=out)
    assert Person.objects.get(name="نبيل فارس").alias_list == ["وردة"]
    assert Person.objects.filter(name="", public_name="رعد").exists()


@pytest.mark.django_db
def test_the_command_ties_a_name_only_to_a_name_accepted_with_it(newsroom_sources):
    """--accept-people وردة alone makes «وردة» a person of her own (public name)."""
    member_of(EDITORS, username="desk")
    path = str(SAMPLES / TWO_MEN)
    call_command(
        "import_story",
        "--user",
        "desk",
        "--accept-people",
        "وردة",
        "--",
        path,
        stdout=StringIO(),
    )
    assert Person.objects.get().public_name == "وردة"
