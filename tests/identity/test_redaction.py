"""The admin shows a protected person's pseudonym wherever a legal spelling would
appear, to everyone but identity officers and superusers (identity.redaction)."""

import json

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils import translation

from arabic import normalize
from articles.models import Article, Status
from articles.revisions import revisions_of
from articles.services import StoryEdit, article_save
from audit.actions import Action
from audit.models import AuditEvent
from core.roles import EDITORS, IDENTITY_OFFICERS
from identity.gate import IdentityGate
from identity.models import Person
from identity.redaction import redacted_body, redacted_text
from tests.factories import (
    DraftArticleFactory,
    ImageFactory,
    ProtectedPersonFactory,
    SuperuserFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

LEGAL = "يوسف المنصوري"
LATIN = "Yousef al-Mansouri"
PSEUDONYM = "الشاهد"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def person():
    return ProtectedPersonFactory(other_spellings=LATIN)


@pytest.fixture
def editor(client, settings):
    client.force_login(member_of(EDITORS))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def officer(client, settings):
    user = member_of(EDITORS)
    user.groups.add(Group.objects.get(name=IDENTITY_OFFICERS))
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def named_draft(person) -> Article:
    """A withdrawn draft holding the legal name, written around the gate."""
    article = DraftArticleFactory(headline_ar="عنوان", body_ar="<p>نص</p>")
    Article.objects.filter(pk=article.pk).update(
        headline_ar=f"شهادة {LEGAL} أمام المحكمة",
        body_ar=f"<p>قال {LEGAL} للمحكمة.</p><p>And {LATIN} said.</p>",
        search_text=normalize(f"شهادة {LEGAL} أمام المحكمة"),
        status=Status.DRAFT,
    )
    return article


def page(client, url, data=None) -> str:
    response = client.get(url, data or {})
    assert response.status_code == 200
    return response.content.decode()


def test_the_story_list_and_its_search_show_the_pseudonym(editor, person):
    named_draft(person)
    url = reverse("admin:articles_article_changelist")
    for html in (page(editor, url), page(editor, url, {"q": "شهادة"})):
        assert f"شهادة {PSEUDONYM} أمام المحكمة" in html
        assert LEGAL not in html


def test_a_withdrawn_drafts_form_shows_the_pseudonym(editor, person):
    article = named_draft(person)
    html = page(editor, reverse("admin:articles_article_change", args=[article.pk]))
    assert f'value="شهادة {PSEUDONYM} أمام المحكمة"' in html
    assert f"قال {PSEUDONYM} للمحكمة" in html
    assert f"And {PSEUDONYM} said" in html
    assert LEGAL not in html and "Mansouri" not in html


def test_the_audit_trail_shows_the_pseudonym(editor, person):
    AuditEvent.objects.create(
        action=Action.CREATED,
        content_type=ContentType.objects.get_for_model(Person),
        object_id=str(person.pk),
        object_repr=LEGAL,
    )
    html = page(editor, reverse("admin:audit_auditevent_changelist"))
    assert '<td class="field-action_label">Created</td>' in html
    assert f'<td class="field-object_repr">{PSEUDONYM}</td>' in html
    assert LEGAL not in html


def test_the_revisions_and_their_diff_show_the_pseudonym(client, settings):
    chief = SuperuserFactory(username="chief")
    article = DraftArticleFactory.build(headline_en="First words", section=None)
    article_save(edit=StoryEdit(article=article), by=chief)
    article.headline_en = f"Words of {LATIN}"
    article_save(edit=StoryEdit(article=article), by=chief)
    # Protected only now: the revisions were saved before the gate knew the name.
    ProtectedPersonFactory(other_spellings=LATIN)
    client.force_login(member_of(EDITORS))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("admin:articles_article_revisions", args=[article.pk])
    newer, older = revisions_of(article)[:2]
    html = page(client, url, {"a": older.pk, "b": newer.pk})
    assert PSEUDONYM in html
    assert "Mansouri" not in html


def test_the_autocomplete_json_shows_the_pseudonym(editor, person):
    ImageFactory(title_ar=f"صورة {LEGAL} في الميناء")
    response = editor.get(
        reverse("admin:images_image_autocomplete"),
        {
            "term": "الميناء",
            "app_label": "articles",
            "model_name": "article",
            "field_name": "hero_image",
        },
    )
    (result,) = response.json()["results"]
    assert result["text"] == f"صورة {PSEUDONYM} في الميناء"


def test_an_identity_officer_sees_the_legal_name(officer, person):
    article = named_draft(person)
    html = page(officer, reverse("admin:articles_article_changelist"))
    assert f"شهادة {LEGAL} أمام المحكمة" in html
    html = page(officer, reverse("admin:articles_article_change", args=[article.pk]))
    assert LATIN in html


def test_a_superuser_sees_the_legal_name(client, person):
    named_draft(person)
    client.force_login(SuperuserFactory())
    html = page(client, reverse("admin:articles_article_changelist"))
    assert LEGAL in html


def test_the_persons_own_form_still_opens_for_an_editor(editor, person):
    html = page(editor, reverse("admin:identity_person_change", args=[person.pk]))
    assert PSEUDONYM in html
    assert LEGAL not in html and "Mansouri" not in html


# ------------------------------------------------------------ the redaction step


@pytest.fixture
def gate(person):
    return IdentityGate.load()


def test_markup_around_a_name_is_kept(gate):
    html = f'<p title="{LEGAL}">{LATIN.upper()}</p><b>يوسف</b> <i>المنصوري</i>'
    # A name split by tags is not replaced: the tags would be lost with it.
    assert redacted_text(gate, html) == (
        f'<p title="{PSEUDONYM}">{PSEUDONYM}</p><b>يوسف</b> <i>المنصوري</i>'
    )


def test_a_pseudonym_is_escaped_in_markup_and_not_in_json(gate):
    (held,) = gate.people
    held.public_name = 'Ali "A&B"'
    assert redacted_body(gate, f"<p>{LEGAL}</p>", "text/html", None) == (
        "<p>Ali &quot;A&amp;B&quot;</p>"
    )
    body = json.dumps({"results": [{"text": LEGAL}]})  # escaped: \\u064a…
    assert redacted_body(gate, body, "application/json", None) == (
        '{"results": [{"text": "Ali \\"A&B\\""}]}'
    )


def test_a_page_read_in_pieces_is_redacted_as_a_whole(gate, monkeypatch):
    page = "".join(
        f'<tr><td title="{LEGAL}">{n} {LATIN} و{LEGAL}</td><td>نص {n}</td></tr>\n'
        for n in range(50)
    )
    whole = redacted_text(gate, page)
    monkeypatch.setattr("identity.redaction.PIECE_CHARS", 7)
    assert redacted_text(gate, page) == whole
    assert LEGAL not in whole and LATIN not in whole
    assert whole.count("<tr>") == 50


def split_name_draft() -> Article:
    """A draft whose body holds the legal name split by markup."""
    article = DraftArticleFactory(headline_ar="عنوان", body_ar="<p>نص</p>")
    first, last = LEGAL.split()
    Article.objects.filter(pk=article.pk).update(
        body_ar=f"<p>قال <strong>{first}</strong> <em>{last}</em> للمحكمة.</p>"
    )
    return article


def test_a_name_the_redaction_cannot_place_withholds_the_page(editor, person):
    """A legal name split by markup cannot be replaced: the Editors member sees
    nothing of the page, only that an identity officer can open it."""
    article = split_name_draft()
    response = editor.get(reverse("admin:articles_article_change", args=[article.pk]))
    html = response.content.decode()
    assert response.status_code == 403
    assert "identity officer" in html
    assert "المنصوري" not in html


def test_an_identity_officer_opens_the_page_the_redaction_withholds(officer, person):
    """The same page opens for an identity officer, name and all."""
    article = split_name_draft()
    url = reverse("admin:articles_article_change", args=[article.pk])
    assert "المنصوري" in page(officer, url)


def slugged_with_the_name(person) -> Article:
    """A story whose address was written with the legal name, around the gate."""
    article = DraftArticleFactory()
    Article.objects.filter(pk=article.pk).update(slug="yousef-al-mansouri")
    return article


def view_on_site(article) -> str:
    kind = ContentType.objects.get_for_model(Article)
    return reverse("admin:view_on_site", args=[kind.pk, article.pk])


def test_view_on_site_never_sends_the_browser_to_an_address_spelling_the_name(
    person, editor
):
    article = slugged_with_the_name(person)
    location = editor.get(view_on_site(article))["Location"]
    assert "mansouri" not in location.lower()
    assert f"/{article.pk}/" in location  # still the story's own address


def test_an_identity_officer_is_sent_to_the_address_as_it_is(person, officer):
    article = slugged_with_the_name(person)
    assert "yousef-al-mansouri" in officer.get(view_on_site(article))["Location"]


def test_messages_wait_on_the_server_not_in_a_cookie(person, editor):
    """A message's text may name someone; a cookie's text is readable in the
    browser before the page that shows the message is redacted."""
    article = named_draft(person)
    url = reverse("admin:articles_article_delete", args=[article.pk])
    response = editor.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert "messages" not in response.cookies
    shown = editor.get(response["Location"]).content.decode()
    assert PSEUDONYM in shown and LEGAL not in shown
