"""The story form's autosave lives in the editor's browser (admin_ext/autosave.js); the
server only names each draft and, after a successful save, tells the browser to forget
it. These are the server's parts; tests/articles/test_media_browser.py runs the rest."""

import pytest
from django.urls import reverse

from articles.admin.drafts import SAVED_COOKIE
from articles.models import Article
from core.roles import REPORTERS
from tests.articles.test_admin import add_url, article_post_data
from tests.factories import DraftArticleFactory, member_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def reporter(client):
    user = member_of(REPORTERS)
    client.force_login(user)
    client.user = user
    return client


def banner(response) -> str:
    html = response.content.decode()
    start = html.find('class="autosave-banner"')
    return html[start : html.find(">", start)] if start != -1 else ""


def test_the_add_form_names_the_users_new_story_draft(reporter):
    """One draft of a new story per user: "<user>:new"."""
    response = reporter.get(add_url())
    assert f'data-autosave-key="{reporter.user.pk}:new"' in banner(response)
    assert "autosave.js" in response.content.decode()


def test_the_change_form_names_the_draft_and_the_version_opened(reporter):
    """The draft of a story is "<user>:<story>", and the form says which version
    it was opened at."""
    story = DraftArticleFactory(created_by=reporter.user)
    response = reporter.get(reverse("admin:articles_article_change", args=[story.pk]))
    assert f'data-autosave-key="{reporter.user.pk}:{story.pk}"' in banner(response)
    assert f'data-autosave-version="{story.version}"' in banner(response)


def test_a_story_the_user_may_only_read_is_not_autosaved(reporter):
    """Someone else's story opens read-only for a Reporter: nothing to keep."""
    story = DraftArticleFactory()
    response = reporter.get(reverse("admin:articles_article_change", args=[story.pk]))
    assert response.status_code == 200
    assert banner(response) == ""


def test_a_successful_save_tells_the_browser_to_forget_the_draft(reporter):
    """Saving a new story answers with a cookie naming the draft, and no text."""
    response = reporter.post(add_url(), article_post_data())
    assert response.status_code == 302
    cookie = response.cookies[SAVED_COOKIE]
    assert cookie.value == f"{reporter.user.pk}:new"
    assert (cookie["path"], cookie["samesite"]) == ("/admin/", "Strict")


def test_a_successful_change_names_the_storys_draft(reporter):
    """Saving a story's changes forgets that story's draft."""
    story = DraftArticleFactory(created_by=reporter.user)
    url = reverse("admin:articles_article_change", args=[story.pk])
    data = article_post_data(headline_ar="عنوان جديد", base_version=story.version)
    response = reporter.post(url, data)
    assert response.status_code == 302
    assert response.cookies[SAVED_COOKIE].value == f"{reporter.user.pk}:{story.pk}"


def test_a_refused_save_keeps_the_draft(reporter):
    """A form shown again with its errors says nothing: the draft stays."""
    response = reporter.post(add_url(), article_post_data(headline_ar=""))
    assert response.status_code == 200
    assert SAVED_COOKIE not in response.cookies
    assert not Article.objects.exists()


def test_logging_out_forgets_the_browsers_drafts(reporter):
    """The logged-out page tells the script to forget every draft it keeps."""
    response = reporter.post(reverse("admin:logout"))
    assert "data-autosave-forget-all" in response.content.decode()


def test_a_move_saves_the_form_and_forgets_the_draft_too(reporter):
    """ "Save, then submit for review" saves the form first: its draft goes too."""
    story = DraftArticleFactory(created_by=reporter.user)
    url = reverse("admin:articles_article_change", args=[story.pk])
    data = article_post_data(base_version=story.version, _move="submit")
    response = reporter.post(url, data)
    assert response.status_code == 302
    assert response.cookies[SAVED_COOKIE].value == f"{reporter.user.pk}:{story.pk}"
