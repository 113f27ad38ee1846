"""The importer is no oracle for protected names, and proposes no one who bears one.

A paste of many candidate names learns only that the copy holds a protected name,
never where, which line or how many; and a proposed person whose name spells a
protected legal name (however disguised in the copy) is left out, with everyone
else, so a list with one name missing says nothing.
Tested through the Import page (a Reporter, over HTTP) and `import_story --user`.
"""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from articles.models import Article
from core.roles import REPORTERS
from identity.models import Person
from ingest.parse import parse_story
from ingest.suggestions import people_proposals
from tests.factories import PersonFactory, ProtectedPersonFactory, member_of

pytestmark = pytest.mark.django_db

URL = "admin:articles_article_import"
LEGAL_NAME = ProtectedPersonFactory.name  # يوسف المنصوري
SECOND = "فريد المصور"
# The copy's own text carries no legal spelling (a digit sits between the words),
# but the name after "المدعو", read from the quotes, is one.
DISGUISED = "لقاء في المدينة القديمة\n\nوصل المدعو «يوسف»1«المنصوري» إلى الساحة صباحاً."
FIRST = ("سامر", "ماهر", "كريم", "رامي", "نبيل")
LAST = ("الحداد", "العلي", "النجار", "الخطيب", "السعدي")
CANDIDATES = [f"{first} {last}" for first in FIRST for last in LAST]


@pytest.fixture
def protected():
    return [
        ProtectedPersonFactory(),
        PersonFactory(
            name=SECOND, public_name="قيصر", aliases="قيصر", identity_protected=True
        ),
    ]


@pytest.fixture
def reporter():
    return member_of(REPORTERS, username="reporter")


@pytest.fixture
def page(client, reporter, settings):
    client.force_login(reporter)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def guessing_paste() -> str:
    """A headline, then one candidate per paragraph, two of them protected."""
    names = list(CANDIDATES)
    names.insert(7, LEGAL_NAME)
    names.insert(19, SECOND)
    lines = [f"وصل المدعو {name} إلى الساحة." for name in names]
    return "قائمة الواصلين\n\n" + "\n\n".join(lines)


def assert_one_alert_without_place_or_name(alerts) -> None:
    (alert,) = [a for a in alerts if a.code == "protected_name"]
    assert alert.line is None
    assert "PROTECTED IDENTITY" in alert.message
    for spelling in (LEGAL_NAME, SECOND, "المنصوري", "المصور"):
        assert spelling not in alert.message


# ------------------------------------------------------------ the Import page


def test_a_paste_of_candidates_learns_no_line_and_no_count(protected, page):
    """One alert, no line number, no proposals: nothing tells which of the pasted
    names are protected, or how many."""
    response = page.post(reverse(URL), {"text": guessing_paste()})
    assert response.status_code == 200
    assert_one_alert_without_place_or_name(response.context["alerts"])
    assert response.context["result"].proposed_people == []
    html = response.content.decode()
    assert html.count("PROTECTED IDENTITY") == 1
    assert "Names that may be new people" not in html
    assert not response.context["can_import"]


def test_the_alert_is_the_same_wherever_in_the_copy_the_name_is(protected, page):
    """Candidates in the headline and in the paragraphs: nothing says which."""
    messages = set()
    for headline, paragraph in [
        (LEGAL_NAME, CANDIDATES[0]),
        (CANDIDATES[0], LEGAL_NAME),
    ]:
        text = f"{headline} في الساحة\n\nوصل المدعو {paragraph} صباحاً."
        response = page.post(reverse(URL), {"text": text})
        messages |= {a.message for a in response.context["alerts"]}
    assert len(messages) == 1


def test_a_disguised_legal_name_is_not_proposed_on_the_import_page(protected, page):
    """The copy passes, the proposal would not: no one is proposed, one alert."""
    response = page.post(reverse(URL), {"text": DISGUISED})
    assert_one_alert_without_place_or_name(response.context["alerts"])
    assert response.context["result"].proposed_people == []
    assert "Names that may be new people" not in response.content.decode()


def test_accepting_the_disguised_name_anyway_creates_no_one(protected, page):
    """A forged confirmation ticking the first proposal creates nobody."""
    response = page.post(
        reverse(URL),
        {
            "text": DISGUISED,
            "confirm": "1",
            "person-0-accept": "on",
            "person-0-role": "subject",
            "person-0-alias": "",
        },
    )
    assert response.status_code == 200
    assert_one_alert_without_place_or_name(response.context["alerts"])
    assert Person.objects.count() == 2
    assert not Article.objects.exists()


# ------------------------------------------------------------ the command


def run_import(tmp_path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "story.txt"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command(
            "import_story",
            str(path),
            "--user",
            "reporter",
            *args,
            stdout=out,
            stderr=err,
        )
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_the_command_reports_one_protected_name_without_a_line(
    protected, reporter, tmp_path
):
    code, out, err = run_import(tmp_path, guessing_paste(), "--dry-run", "--json")
    assert code == 1
    (data,) = [json.loads(line) for line in out.splitlines()]
    protected_errors = [e for e in data["errors"] if e["code"] == "protected_name"]
    assert len(protected_errors) == 1 and protected_errors[0]["line"] is None
    assert data["proposals"]["people"] == []
    assert err.count("PROTECTED IDENTITY") == 1
    for spelling in (LEGAL_NAME, SECOND):
        assert spelling not in err
        assert spelling not in json.dumps(data["errors"], ensure_ascii=False)


def test_the_command_accepting_every_proposal_creates_no_disguised_person(
    protected, reporter, tmp_path
):
    """import_story --accept-people: refused, nobody created, nothing imported."""
    code, _out, err = run_import(tmp_path, DISGUISED, "--accept-people")
    assert code == 1
    assert "PROTECTED IDENTITY" in err and "المنصوري" not in err
    assert Person.objects.count() == 2
    assert not Article.objects.exists()


# ------------------------------------------------------------ the proposals


def test_every_spelling_of_a_proposal_passes_the_full_matcher(protected):
    """The folded form counts too: a name the proposal folds into a legal one."""
    from identity.gate import IdentityGate

    story = parse_story(DISGUISED)
    proposals, problems = people_proposals(story, [], gate=IdentityGate.load())
    assert proposals == []
    (problem,) = problems
    assert problem.code == "protected_name" and problem.line is None
    assert dict(problem.params)["where"] == "proposed people"


def test_copy_without_protected_names_still_proposes_people(protected, page):
    """The gate drops nothing from ordinary copy."""
    text = "لقاء في المدينة القديمة\n\nوصل المدعو ماهر إلى الساحة صباحاً."
    response = page.post(reverse(URL), {"text": text})
    assert [p.name for p in response.context["result"].proposed_people] == ["ماهر"]
    assert not response.context["alerts"]
