"""The shared seed story (../shared/seed/, skipped when absent), imported as a careful
Arabic desk would: no false breaking, one person per person, a clean post card, a
duplicate flagged, and an Import page in Arabic.

The copy's body tells of two men: أسامة عثمان, who reveals himself and is "سامي"
(he is quoted; "كلاً من «سامي» و«قيصر»", "the two men"), and a man close to him
"later known as «قيصر»". Its headline and first paragraph run the two nicknames
together; the importer keeps «قيصر» apart and says why.
"""

from io import StringIO

import pytest
from django.core.management import call_command

from articles.models import Article
from articles.services import article_publish
from core.roles import EDITORS
from identity.models import Person
from ingest.decode import text_from_bytes
from ingest.result import Confirmation
from ingest.services import story_import
from tests.factories import SocialAccountFactory, SourceFactory, member_of

from .test_parse import SEED

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(SEED is None, reason="the shared seed story is not present"),
]
URL = "/admin/articles/article/import/"


@pytest.fixture
def desk(db):
    """The outlet whose X account posted, the outlet the copy is taken from, and a
    plain editor."""
    aawsat = SourceFactory(name_ar="الشرق الأوسط", name_en="Asharq Al-Awsat")
    SocialAccountFactory(source=aawsat, platform="x", handle="aawsat_News")
    return {
        "aawsat": aawsat,
        "24": SourceFactory(name_ar="موقع 24", name_en="24.ae", domains="24.ae"),
        "editor": member_of(EDITORS, username="desk"),
    }


def seed_text() -> str:
    return text_from_bytes(SEED.read_bytes())[0]


def preview(desk):
    return story_import(by=desk["editor"], text=seed_text(), dry_run=True)


def imported(desk) -> Article:
    result = preview(desk)
    return story_import(
        by=desk["editor"],
        text=seed_text(),
        confirmation=Confirmation.everything(result),
    ).article


# ---------------------------------------------------------------- the service


def test_the_seed_is_not_proposed_as_breaking(desk):
    """Its only #عاجل is in the 2024 post of another outlet."""
    assert not preview(desk).breaking


def test_the_revealer_and_his_nickname_are_one_subject(desk):
    """أسامة عثمان reveals himself; «سامي» is proposed as his alias."""
    people = {p.name: p for p in preview(desk).proposed_people}
    assert people["سامي"].alias_of == "أسامة عثمان" and people["سامي"].is_nickname
    assert (people["أسامة عثمان"].role, people["سامي"].role) == ("subject", "subject")


def test_the_other_nickname_is_kept_apart_and_mentioned(desk):
    """«قيصر», "a person close to him, later known as «قيصر»", is no alias of the
    revealer; the proposal quotes those words and calls him mentioned."""
    caesar = {p.name: p for p in preview(desk).proposed_people}["قيصر"]
    assert caesar.alias_of == "" and caesar.role == "mentioned"
    assert caesar.is_nickname and "يُعرف لاحقاً" in caesar.apart


def test_everything_accepted_makes_one_person_per_person(desk):
    """One أسامة عثمان (alias سامي), one «قيصر» with no legal name; the nickname is
    nobody's legal name."""
    article = imported(desk)
    osama = Person.objects.get(name="أسامة عثمان")
    assert osama.alias_list == ["سامي"]
    assert Person.objects.get(public_name="قيصر").name == ""
    assert not Person.objects.filter(name__in=["قيصر", "سامي"]).exists()
    roles = [(r.person.display_name, r.role) for r in article.people_named.all()]
    assert roles[0] == ("أسامة عثمان", "subject")
    assert ("قيصر", "mentioned") in roles and not article.is_breaking


def test_known_people_take_the_roles_the_copy_gives_them(desk, newsroom_people):
    """The newsroom knows أسامة عثمان (سامي) and «قيصر» (protected): nobody is
    proposed, and the revealer is the subject."""
    article = imported(desk)
    roles = dict(article.people_named.values_list("person", "role"))
    assert roles[newsroom_people["sami"].pk] == "subject"
    assert roles[newsroom_people["caesar"].pk] == "mentioned"


# ---------------------------------------------------------------- the command


def test_the_command_accepting_everything_imports_it_as_a_desk_would(desk):
    """import_story --accept-all: the credits, no tag, no flag, one man apart."""
    call_command(
        "import_story", "--user", "desk", "--accept-all", str(SEED), stdout=StringIO()
    )
    article = Article.objects.get()
    assert set(article.attributions.values_list("source__name_ar", "role")) == {
        ("موقع 24", "republished"),
        ("الشرق الأوسط", "cited"),
    }
    assert not article.tags.exists() and not article.is_breaking
    assert Person.objects.get(name="أسامة عثمان").alias_list == ["سامي"]


def test_the_command_flags_the_seed_imported_twice(desk):
    """The seed carries a post; the second import is refused as a duplicate."""
    call_command("import_story", "--user", "desk", str(SEED), stdout=StringIO())
    err = StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command(
            "import_story", "--user", "desk", str(SEED), stdout=StringIO(), stderr=err
        )
    assert caught.value.code == 1 and "already imported" in err.getvalue()


# ---------------------------------------------------------------- the Import page


def test_the_arabic_import_page_shows_the_seed_in_arabic(arabic_desk_client, desk):
    """Credit roles and the language in Arabic; breaking neither proposed nor
    ticked; «قيصر» shown with the words keeping him apart."""
    content = arabic_desk_client.post(URL, {"text": seed_text()}).content.decode()
    assert "(منقول عن)" in content and "republished" not in content
    assert "<td>العربية</td>" in content
    assert 'class="ingest-breaking"' not in content
    box = content[
        content.index('name="breaking"') - 120 : content.index('name="breaking"')
    ]
    assert "checked" not in box
    assert "فالنص يجعلهما شخصين أيضاً" in content


# ---------------------------------------------------------------- the public page


def test_the_published_seeds_card_keeps_the_link_and_hashtag_apart(client, desk):
    """The t.co link and #خاص_الشرق_الأوسط are two tokens; the picture is offered
    once. The copied post carries no address of its own, so there is no link to it."""
    article = imported(desk)
    article_publish(article=article, by=desk["editor"])
    content = client.get(article.get_absolute_url()).content.decode()
    card = content[content.index('<figure class="social-card') :]
    card = card[: card.index("</figure>")]
    assert '8cUb28HP1K</a></bdi> <bdi class="hashtag">#خاص_الشرق_الأوسط' in card
    assert card.count("pic.twitter.com/kLAWsxPnlJ") == 1
    assert "social-card__original" not in card
