"""The live desk on the story's admin page, used as plain members of Reporters and
Editors: it answers in JSON, refuses with the gate's message and keeps nothing
half-made."""

import pytest
from django.urls import reverse

from articles.models import Article
from audit.models import AuditEvent
from identity.gate import IdentityGate
from identity.protection import public_exposures
from live.models import LiveCoverage, LiveEntry
from tests.admin_forms import change_form_data, form_errors
from tests.factories import ProtectedPersonFactory
from tests.live.conftest import LEGAL_NAME, add

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def desk_url(name: str, article, *extra) -> str:
    return reverse(f"admin:live_desk_{name}", args=[article.pk, *extra])


def entry_url(article, entry, action: str) -> str:
    return reverse("admin:live_desk_entry", args=[article.pk, entry.pk, action])


def test_the_desk_is_on_the_story_page_for_a_reporter(client, live_story, reporter):
    client.force_login(reporter)
    url = reverse("admin:articles_article_change", args=[live_story.pk])
    html = client.get(url).content.decode()
    assert 'id="live-desk"' in html
    assert "admin_ext/live_desk.js" in html


def test_an_editor_starts_the_coverage_from_the_desk(client, desk_editor):
    from tests.factories import ArticleFactory

    article = ArticleFactory()
    client.force_login(desk_editor)
    response = client.post(desk_url("state", article), {"action": "start"}, **JSON)
    assert response.status_code == 200
    assert response.json()["state"] == "live"
    assert LiveCoverage.objects.get(article=article).state == "live"


def test_a_reporter_posts_an_entry_from_the_desk(client, live_story, reporter):
    client.force_login(reporter)
    response = client.post(
        desk_url("add", live_story),
        {"body_ar": "بدأت عمليات البحث.", "headline_ar": "البحث"},
        **JSON,
    )
    assert response.status_code == 200
    assert "بدأت عمليات البحث." in response.json()["entries"]
    entry = LiveEntry.objects.get()
    assert entry.author == reporter
    assert entry.body_ar == "<p>بدأت عمليات البحث.</p>"


def test_the_desk_changes_an_entry(client, live_story, reporter):
    entry = add(live_story, reporter)
    client.force_login(reporter)
    response = client.post(
        desk_url("add", live_story),
        {"entry": entry.pk, "body_ar": "نص مصحح"},
        **JSON,
    )
    assert response.status_code == 200
    entry.refresh_from_db()
    assert entry.body_ar == "<p>نص مصحح</p>"


def test_the_desk_refuses_a_legal_name_with_the_gates_message(
    client, live_story, reporter
):
    """Refused in JSON, with the message the gate gives everywhere; nothing is
    written, and the refusal is recorded at the live entry door."""
    ProtectedPersonFactory()
    client.force_login(reporter)
    response = client.post(
        desk_url("add", live_story),
        {"body_ar": f"قال {LEGAL_NAME} إن", "language": "ar"},
        **JSON,
    )
    assert response.status_code == 400
    # The desk speaks Arabic: the gate's own message, in it.
    assert "استخدم الاسم المعلن" in response.json()["message"]
    assert LEGAL_NAME not in response.json()["message"]
    assert not LiveEntry.objects.exists()
    assert AuditEvent.objects.filter(action="identity_refused").exists()


def test_the_desk_refuses_an_empty_entry_with_a_message(client, live_story, reporter):
    client.force_login(reporter)
    response = client.post(desk_url("add", live_story), {"body_ar": " "}, **JSON)
    assert response.status_code == 400
    assert response.json()["message"]


def test_a_reporter_may_not_delete_from_the_desk(client, live_story, reporter):
    entry = add(live_story, reporter)
    client.force_login(reporter)
    response = client.post(
        entry_url(live_story, entry, "delete"), {"reason": "خطأ"}, **JSON
    )
    assert response.status_code == 403
    assert response.json()["message"]
    assert LiveEntry.objects.filter(pk=entry.pk).exists()


def test_an_editor_deletes_with_a_reason_from_the_desk(client, live_story, desk_editor):
    entry = add(live_story, desk_editor)
    client.force_login(desk_editor)
    refused = client.post(entry_url(live_story, entry, "delete"), {}, **JSON)
    assert refused.status_code == 400
    done = client.post(
        entry_url(live_story, entry, "delete"), {"reason": "مكرر"}, **JSON
    )
    assert done.status_code == 200
    assert not LiveEntry.objects.filter(pk=entry.pk).exists()


def test_an_editor_pins_from_the_desk(client, live_story, desk_editor):
    entry = add(live_story, desk_editor)
    client.force_login(desk_editor)
    client.post(entry_url(live_story, entry, "pin"), **JSON)
    assert LiveEntry.objects.get(pk=entry.pk).is_pinned
    client.post(entry_url(live_story, entry, "unpin"), **JSON)
    assert not LiveEntry.objects.get(pk=entry.pk).is_pinned


def test_an_editor_corrects_an_entry_from_the_desk(client, live_story, desk_editor):
    entry = add(live_story, desk_editor)
    client.force_login(desk_editor)
    response = client.post(
        entry_url(live_story, entry, "correct"), {"correction_ar": "الرقم 7"}, **JSON
    )
    assert response.status_code == 200
    assert LiveEntry.objects.get(pk=entry.pk).correction_ar == "الرقم 7"


def test_without_javascript_the_desk_returns_to_the_story_page(
    client, live_story, reporter
):
    client.force_login(reporter)
    response = client.post(desk_url("add", live_story), {"body_ar": "نص"})
    assert response.status_code == 302
    assert response["Location"].endswith("#live-desk")


def test_a_post_of_another_story_is_refused_by_the_desk(client, live_story, reporter):
    from tests.factories import SocialPostFactory

    client.force_login(reporter)
    other = SocialPostFactory()
    response = client.post(
        desk_url("add", live_story), {"body_ar": "نص", "post": other.pk}, **JSON
    )
    assert response.status_code == 400


def test_saving_the_story_in_the_admin_refuses_a_legal_name_in_an_entry(
    client, live_story, desk_editor
):
    """The story's own save reads its entries: one written before the person was
    protected stops the save with the gate's message, naming the entry."""
    add(live_story, desk_editor, text=f"<p>{LEGAL_NAME}</p>")
    ProtectedPersonFactory()
    client.force_login(desk_editor)
    url = reverse("admin:articles_article_change", args=[live_story.pk])
    data = change_form_data(client.get(url))
    response = client.post(url, data)
    assert response.status_code == 200  # the form again, with the refusal
    assert "استخدم الاسم المعلن" in form_errors(response)
    assert Article.objects.get(pk=live_story.pk).version == live_story.version


def test_the_audit_of_public_stories_reads_live_entries(live_story, desk_editor):
    add(live_story, desk_editor, text=f"<p>{LEGAL_NAME}</p>")
    ProtectedPersonFactory()
    (exposure,) = public_exposures(IdentityGate.load())
    assert exposure.article.pk == live_story.pk


def test_the_desk_reads_its_list_again_for_colleagues_entries(
    client, live_story, reporter, desk_editor
):
    """The desk's list shows what a colleague posted meanwhile."""
    add(live_story, desk_editor, text="<p>من زميل في الميدان</p>")
    client.force_login(reporter)
    response = client.get(desk_url("entries", live_story))
    assert "من زميل في الميدان" in response.json()["entries"]


def test_the_desk_list_is_refused_to_staff_without_a_role(client, live_story):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert client.get(desk_url("entries", live_story)).status_code == 403
