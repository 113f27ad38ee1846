"""The desk's workflow: each move as an editor clicks it, schedules and embargoes
at explicit times, and the 410 of a killed story."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from articles.audit_actions import Action
from articles.models import Article, Status
from articles.services import (
    StoryEdit,
    article_kill,
    article_publish,
    article_save,
    article_submit,
)
from articles.workflow import state_of
from audit.models import AuditEvent
from core.roles import EDITORS, REPORTERS
from tests.admin_forms import change_form_data
from tests.factories import (
    ArticleFactory,
    DraftArticleFactory,
    member_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor():
    return member_of(EDITORS)


@pytest.fixture
def reporter():
    return member_of(REPORTERS)


def click(client, article, move: str, **changes):
    """Post the change form as it stands (plus `changes`) with a workflow button."""
    url = reverse("admin:articles_article_change", args=[article.pk])
    data = {**change_form_data(client.get(url)), **changes, "_move": move}
    return client.post(url, data)


# ------------------------------------------------------------ moves, clicked


def test_a_reporter_submits_a_draft_for_review(client, reporter):
    """ "Submit for review" moves the reporter's draft to "in review"."""
    article = DraftArticleFactory(created_by=reporter)
    client.force_login(reporter)
    assert click(client, article, "submit").status_code == 302
    article.refresh_from_db()
    assert article.status == Status.IN_REVIEW


def test_a_reporter_cannot_edit_a_submitted_story(client, reporter):
    """Once in review, the story is the editors'; the reporter's save is refused."""
    article = DraftArticleFactory(created_by=reporter, status=Status.IN_REVIEW)
    with pytest.raises(PermissionDenied):
        article_save(edit=StoryEdit(article=article), by=reporter)


def test_an_editor_approves_a_story_in_review(client, editor):
    """ "Approve" moves a story in review to "approved"."""
    article = DraftArticleFactory(status=Status.IN_REVIEW)
    client.force_login(editor)
    click(client, article, "approve")
    article.refresh_from_db()
    assert article.status == Status.APPROVED


def test_an_editor_sends_a_story_back(client, editor):
    """ "Send back" returns a story in review to draft."""
    article = DraftArticleFactory(status=Status.IN_REVIEW)
    client.force_login(editor)
    click(client, article, "send_back")
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_an_editor_publishes_an_approved_story_now(client, editor):
    """ "Publish" with no time puts the story on the site at once."""
    article = DraftArticleFactory(status=Status.APPROVED)
    client.force_login(editor)
    click(client, article, "publish")
    article.refresh_from_db()
    assert article.is_public
    assert article in Article.objects.published()


def test_an_editor_schedules_a_story(client, editor):
    """ "Publish" with a later time schedules it; it is not public until then."""
    article = DraftArticleFactory(status=Status.APPROVED)
    later = timezone.localtime() + timedelta(days=1)
    client.force_login(editor)
    click(
        client,
        article,
        "publish",
        publish_at_0=later.date().isoformat(),
        publish_at_1=later.strftime("%H:%M:%S"),
    )
    article.refresh_from_db()
    assert state_of(article).key == "scheduled"
    assert article not in Article.objects.published()
    assert article in Article.objects.published(at=later + timedelta(minutes=1))
    assert AuditEvent.objects.filter(action=Action.SCHEDULED).exists()


def test_an_editor_withdraws_a_published_story(client, editor):
    """ "Withdraw" takes the story off the site, back to draft, and says so."""
    article = ArticleFactory()
    client.force_login(editor)
    click(client, article, "withdraw")
    article.refresh_from_db()
    assert article.status == Status.DRAFT
    assert AuditEvent.objects.filter(action=Action.UNPUBLISHED).exists()


def test_an_editor_kills_a_story_giving_a_reason(client, editor):
    """The kill page asks why, then the story is killed and the reason recorded."""
    article = ArticleFactory()
    client.force_login(editor)
    url = reverse("admin:articles_article_kill", args=[article.pk])
    assert client.post(url, {"reason": ""}).status_code == 200
    article.refresh_from_db()
    assert article.status == Status.PUBLISHED
    client.post(url, {"reason": "court order"})
    article.refresh_from_db()
    assert article.status == Status.KILLED
    event = AuditEvent.objects.get(action=Action.KILLED)
    assert event.message == "court order"


def test_a_reporter_cannot_reach_the_kill_page(client, reporter):
    """Killing needs the editors' permission."""
    client.force_login(reporter)
    url = reverse("admin:articles_article_kill", args=[ArticleFactory().pk])
    assert client.get(url).status_code == 403


def test_a_reporter_cannot_publish_by_posting_the_button(client, reporter):
    """A forged "publish" click by a reporter is refused; the story stays a draft."""
    article = DraftArticleFactory(created_by=reporter)
    client.force_login(reporter)
    click(client, article, "publish")
    article.refresh_from_db()
    assert article.status == Status.DRAFT


# ------------------------------------------------------------ after a move


def said(response) -> list[str]:
    """The messages the admin left for the next page."""
    return [str(message) for message in get_messages(response.wsgi_request)]


def change_url(article) -> str:
    return reverse("admin:articles_article_change", args=[article.pk])


def add_with_move(client, move: str, **changes):
    """Fill the add form with a headline and body, then press a workflow button."""
    url = reverse("admin:articles_article_add")
    data = {
        **change_form_data(client.get(url)),
        "headline_ar": "خبر جديد من المراسل",
        "body_ar": "<p>نص الخبر.</p>",
        **changes,
        "_move": move,
    }
    return client.post(url, data)


def test_a_submit_from_the_change_form_names_the_move_and_stays(client, reporter):
    """The reporter reads "submitted for review", not "changed", on the story."""
    article = DraftArticleFactory(created_by=reporter)
    client.force_login(reporter)
    response = click(client, article, "submit")
    assert response.url == change_url(article)
    assert said(response) == ["أُرسل للمراجعة."]  # Submitted for review.


def test_a_submit_from_the_add_form_names_the_move_and_opens_the_story(
    client, reporter
):
    """A new story submitted at once: in review, and the page is its own."""
    client.force_login(reporter)
    response = add_with_move(client, "submit")
    article = Article.objects.get(created_by=reporter)
    assert article.status == Status.IN_REVIEW
    assert response.url == change_url(article)
    assert said(response) == ["أُرسل للمراجعة."]


def test_the_add_form_offers_a_reporter_submit_and_not_publish(client, reporter):
    """The buttons of a new story are the moves its writer may make on a draft."""
    client.force_login(reporter)
    html = client.get(reverse("admin:articles_article_add")).content.decode()
    assert 'value="submit"' in html
    assert 'value="publish"' not in html


def test_a_publish_from_the_change_form_says_published_and_stays(client, editor):
    """The editor reads "published" and is still on the story."""
    article = DraftArticleFactory(status=Status.APPROVED)
    client.force_login(editor)
    response = click(client, article, "publish")
    assert response.url == change_url(article)
    assert said(response) == ["نُشر."]  # Published.


def test_a_publish_from_the_add_form_says_published_and_opens_the_story(client, editor):
    """Breaking news written and published in one go lands on its own page."""
    client.force_login(editor)
    response = add_with_move(client, "publish")
    article = Article.objects.get(created_by=editor)
    assert article.is_public
    assert response.url == change_url(article)
    assert said(response) == ["نُشر."]


def test_a_schedule_says_when_the_story_goes_live(client, editor):
    """Publishing at a later time says "scheduled" and the time, in Arabic."""
    article = DraftArticleFactory(status=Status.APPROVED)
    later = timezone.localtime().replace(second=0, microsecond=0) + timedelta(days=1)
    client.force_login(editor)
    response = click(
        client,
        article,
        "publish",
        publish_at_0=later.date().isoformat(),
        publish_at_1=later.strftime("%H:%M:%S"),
    )
    [message] = said(response)
    assert message.startswith("جُدول: يُنشر الخبر في")  # Scheduled: goes live on
    with translation.override("ar"):
        assert date_format(later, "DATETIME_FORMAT") in message


def test_a_withdrawal_names_the_move_and_stays(client, editor):
    """Withdrawing says the story left the site and is a draft again."""
    article = ArticleFactory()
    client.force_login(editor)
    response = click(client, article, "withdraw")
    assert response.url == change_url(article)
    assert said(response) == ["سُحب من الموقع: عاد الخبر مسودة."]


def test_a_plain_save_keeps_djangos_own_message(client, reporter):
    """Without a workflow button, "Save" says the story was changed, as ever."""
    article = DraftArticleFactory(created_by=reporter)
    client.force_login(reporter)
    url = change_url(article)
    response = client.post(url, {**change_form_data(client.get(url)), "_continue": 1})
    assert response.url == url
    assert any("بنجاح" in message for message in said(response))  # successfully


# ------------------------------------------------------------ states and times


def test_a_killed_story_answers_410_and_shows_nothing(client, editor):
    """Its address says "gone" without headline or text, and lists drop it."""
    article = ArticleFactory(headline_ar="خبر سيُسحب نهائياً")
    article_kill(article=article, by=editor, reason="legal")
    with translation.override("ar"):
        response = client.get(article.get_absolute_url())
        home = client.get("/ar/").content.decode()
    assert response.status_code == 410
    assert "خبر سيُسحب نهائياً" not in response.content.decode()
    assert "خبر سيُسحب نهائياً" not in home


def test_a_killed_story_cannot_be_published_again(editor):
    """Killing is final."""
    article = ArticleFactory()
    article_kill(article=article, by=editor, reason="ethics")
    with pytest.raises(ValidationError):
        article_publish(article=article, by=editor)


def test_an_embargo_keeps_a_published_story_off_until_it_lifts(editor):
    """Published but embargoed: not public before the moment, public after it."""
    now = timezone.now()
    article = ArticleFactory(embargo_until=now + timedelta(hours=2))
    assert article not in Article.objects.published(at=now)
    assert article in Article.objects.published(at=now + timedelta(hours=3))
    assert state_of(article).key == "embargoed"


def test_an_embargoed_story_is_not_found_by_readers(client):
    """The public page of an embargoed story answers 404."""
    article = ArticleFactory(embargo_until=timezone.now() + timedelta(hours=1))
    with translation.override("ar"):
        assert client.get(article.get_absolute_url()).status_code == 404


def test_setting_an_embargo_needs_the_publish_permission(reporter, editor):
    """Reporters cannot set embargoes; an editor's change is audited."""
    article = DraftArticleFactory(created_by=reporter)
    article.embargo_until = timezone.now() + timedelta(days=1)
    with pytest.raises(PermissionDenied):
        article_save(edit=StoryEdit(article=article), by=reporter)
    article_save(edit=StoryEdit(article=article), by=editor)
    assert AuditEvent.objects.filter(action=Action.EMBARGO).exists()


def test_submitting_runs_the_identity_gate(reporter):
    """A move towards the public refuses a protected legal name."""
    from tests.factories import ProtectedPersonFactory

    ProtectedPersonFactory()
    article = DraftArticleFactory(created_by=reporter)
    Article.objects.filter(pk=article.pk).update(summary_ar="يوسف المنصوري")
    article.refresh_from_db()
    with pytest.raises(ValidationError):
        article_submit(article=article, by=reporter)


def test_the_change_page_shows_the_state_and_the_embargo(client, editor):
    """The state badge and an embargo notice are at the top of the form."""
    article = ArticleFactory(embargo_until=timezone.now() + timedelta(hours=5))
    client.force_login(editor)
    url = reverse("admin:articles_article_change", args=[article.pk])
    html = client.get(url).content.decode()
    assert "state-badge--embargoed" in html
    assert "embargo-notice" in html


def test_the_changelist_filters_the_desks_views(client, editor):
    """My drafts, in review, scheduled, embargoed, published and killed filter."""
    mine = DraftArticleFactory(created_by=editor)
    review = DraftArticleFactory(status=Status.IN_REVIEW)
    later = ArticleFactory(published_at=timezone.now() + timedelta(days=1))
    held = ArticleFactory(embargo_until=timezone.now() + timedelta(days=1))
    live = ArticleFactory()
    killed = ArticleFactory(status=Status.KILLED)
    client.force_login(editor)
    url = reverse("admin:articles_article_changelist")
    expected = {
        "mine": {mine},
        "in_review": {review},
        "scheduled": {later},
        "embargoed": {held},
        "published": {live},
        "killed": {killed},
    }
    for value, articles in expected.items():
        result = client.get(url, {"state": value}).context["cl"].result_list
        assert set(result) == articles, value
