"""Revisions: every save is one, any two compare side by side, and one restores."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from articles.models import Article, SocialPost, Status
from articles.revision_diff import compare
from articles.revisions import revisions_of, snapshot
from articles.services import (
    StoryEdit,
    article_publish,
    article_restore,
    article_save,
)
from core.roles import EDITORS, REPORTERS
from identity.gate import IdentityLeakError
from tests.factories import (
    AttributionFactory,
    DraftArticleFactory,
    PersonFactory,
    SuperuserFactory,
    member_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def chief():
    return SuperuserFactory(username="chief")


def edit(article, by, **fields):
    """Save `article` with `fields` changed, through the service."""
    for name, value in fields.items():
        setattr(article, name, value)
    return article_save(edit=StoryEdit(article=article), by=by)


def story_with_rows(by):
    """A draft with a post, an attribution and a tag, saved through the service."""
    article = DraftArticleFactory.build(
        headline_en="First words", body_en="<p>One.</p><p>Two.</p>", section=None
    )
    post = SocialPost(platform="x", handle="desk", text="posted")
    article_save(edit=StoryEdit(article=article, tags=["water"], changed=[post]), by=by)
    AttributionFactory(article=article)
    return Article.objects.get(pk=article.pk)


def test_every_save_and_move_is_a_revision_with_user_and_comment(chief):
    """Creating, editing and publishing each leave a revision by their editor."""
    article = story_with_rows(chief)
    edit(article, chief, headline_en="Second words")
    article_publish(article=article, by=chief)
    revisions = list(revisions_of(article))
    assert len(revisions) == 3
    assert all(revision.user == chief for revision in revisions)
    assert [r.comment for r in revisions] == ["Published", "Changed", "Created"]


def test_a_revision_holds_the_story_and_its_rows(chief):
    """Posts, attributions and tags are in the revision beside the story."""
    article = story_with_rows(chief)
    edit(article, chief)  # the attribution was added around the services
    shot = snapshot(revisions_of(article).first(), article)
    kinds = {model._meta.model_name for model in shot.rows}
    assert {"socialpost", "attribution"} <= kinds
    assert shot.tags == ["water"]
    assert shot.article["headline_en"] == "First words"


def test_comparing_shows_changed_words_and_paragraphs(chief):
    """The body compares by paragraph, the headline by word."""
    article = story_with_rows(chief)
    edit(
        article,
        chief,
        headline_en="First changed words",
        body_en="<p>One.</p><p>Three.</p><p>Four.</p>",
    )
    newer, older = revisions_of(article)[:2]
    changes = compare(snapshot(older, article), snapshot(newer, article))
    by_field = {(c.label, c.language): c for c in changes.fields}
    headline = by_field[("headline", "en")].lines[0]
    assert "<ins>changed</ins>" in headline.new
    body = by_field[("body", "en")].lines
    assert [line.kind for line in body] == ["same", "changed", "added"]


def test_comparing_lists_rows_added_and_removed(chief):
    """A removed post and an added person show as such."""
    article = story_with_rows(chief)
    post = article.social_posts.get()
    from articles.models import ArticlePerson

    person = ArticlePerson(person=PersonFactory(name="Hala Youssef"))
    article_save(
        edit=StoryEdit(article=article, changed=[person], deleted=[post]), by=chief
    )
    newer, older = revisions_of(article)[:2]
    rows = compare(snapshot(older, article), snapshot(newer, article)).rows
    assert {(row.kind_label, row.change) for row in rows} >= {
        ("social post", "removed"),
        ("person in the story", "added"),
    }


def test_restoring_brings_back_words_and_rows_as_a_new_revision(chief):
    """The old headline and the removed post return; a revision records it."""
    article = story_with_rows(chief)
    first = revisions_of(article).first()
    post = article.social_posts.get()
    article.headline_en = "Rewritten"
    article_save(edit=StoryEdit(article=article, deleted=[post]), by=chief)
    article_restore(article=article, by=chief, revision=first)
    article.refresh_from_db()
    assert article.headline_en == "First words"
    assert article.social_posts.get().handle == "desk"
    assert revisions_of(article).first().comment.startswith("Revision restored")


def test_restoring_never_publishes(chief):
    """A draft restored from a published revision stays a draft."""
    article = story_with_rows(chief)
    article_publish(article=article, by=chief)
    published = revisions_of(article).first()
    article.status = Status.DRAFT
    article.save()
    article_restore(article=article, by=chief, revision=published)
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_restoring_runs_the_identity_gate(chief):
    """A revision naming someone protected since is refused."""
    from tests.factories import ProtectedPersonFactory

    article = story_with_rows(chief)
    edit(article, chief, summary_en="About Yousef al-Mansouri")
    named = revisions_of(article).first()
    edit(article, chief, summary_en="About the witness")
    ProtectedPersonFactory(other_spellings="Yousef al-Mansouri")
    with pytest.raises(IdentityLeakError):
        article_restore(article=article, by=chief, revision=named)


def test_a_revision_of_another_story_is_refused(chief):
    """Restore takes only the story's own revisions."""
    article, other = story_with_rows(chief), story_with_rows(chief)
    with pytest.raises(ValidationError):
        article_restore(article=article, by=chief, revision=revisions_of(other).first())


# ------------------------------------------------------------ the admin pages


def test_the_revisions_page_lists_and_compares(client, chief, settings):
    """The page lists revisions and compares the two picked."""
    article = story_with_rows(chief)
    edit(article, chief, headline_en="Second words")
    client.force_login(member_of(EDITORS))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("admin:articles_article_revisions", args=[article.pk])
    newer, older = revisions_of(article)[:2]
    html = client.get(url, {"a": older.pk, "b": newer.pk}).content.decode()
    assert "<ins>Second</ins>" in html
    assert 'dir="auto"' in html


def test_an_editor_restores_from_the_page(client, chief):
    """The restore button brings the revision back and returns to the story."""
    article = story_with_rows(chief)
    first = revisions_of(article).first()
    edit(article, chief, headline_en="Second words")
    client.force_login(member_of(EDITORS))
    url = reverse("admin:articles_article_restore", args=[article.pk, first.pk])
    response = client.post(url)
    assert response.status_code == 302
    article.refresh_from_db()
    assert article.headline_en == "First words"


def test_a_reporter_cannot_restore_a_colleagues_story(client, chief):
    """Restoring is a change: reporters may not on stories they cannot edit."""
    article = story_with_rows(chief)
    first = revisions_of(article).first()
    edit(article, chief, headline_en="Second words")
    client.force_login(member_of(REPORTERS))
    url = reverse("admin:articles_article_restore", args=[article.pk, first.pk])
    client.post(url)
    article.refresh_from_db()
    assert article.headline_en == "Second words"


# ------------------------------------------------------------ restoring a live story


@pytest.fixture
def desk(client, settings):
    """A plain member of the Editors, reading the admin in English."""
    client.force_login(member_of(EDITORS))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def published_then_edited(chief, *, at=None):
    """A published (or, with `at`, scheduled) story whose headline changed since;
    returns it with the revision holding the first headline."""
    article = story_with_rows(chief)
    article_publish(article=article, by=chief, at=at)
    first = revisions_of(article).first()
    edit(article, chief, headline_en="Second words")
    return article, first


def restore_url(article, revision) -> str:
    return reverse("admin:articles_article_restore", args=[article.pk, revision.pk])


def test_restoring_a_published_story_asks_first_saying_the_live_page_changes(
    desk, chief
):
    """The restore button of a live story opens a question, which changes nothing."""
    article, first = published_then_edited(chief)
    response = desk.get(restore_url(article, first))
    html = response.content.decode()
    assert response.status_code == 200
    assert "changes its live page at once" in html
    assert 'name="confirmed"' in html
    article.refresh_from_db()
    assert article.headline_en == "Second words"


def test_the_question_shows_what_the_restore_changes(desk, chief):
    """The current headline is "before", the revision's "after"."""
    article, first = published_then_edited(chief)
    html = desk.get(restore_url(article, first)).content.decode()
    assert "<del>Second</del>" in html
    assert "<ins>First</ins>" in html


def test_a_confirmed_restore_changes_the_live_story_and_says_so(desk, chief):
    """Confirming restores the text; the story stays published, and the message
    says the live page shows it now."""
    article, first = published_then_edited(chief)
    response = desk.post(restore_url(article, first), {"confirmed": "1"})
    assert response.url == reverse("admin:articles_article_change", args=[article.pk])
    article.refresh_from_db()
    assert article.headline_en == "First words"
    assert article.is_public
    [message] = [str(m) for m in get_messages(response.wsgi_request)]
    assert "the live page shows it now" in message


def test_a_restore_posted_without_the_confirmation_asks_first(desk, chief):
    """A button from a page opened while the story was a draft leads to the
    question; nothing is restored."""
    article, first = published_then_edited(chief)
    response = desk.post(restore_url(article, first))
    assert response.url == restore_url(article, first)
    article.refresh_from_db()
    assert article.headline_en == "Second words"


def test_restoring_a_scheduled_story_says_what_goes_out_changes(desk, chief):
    """A scheduled story's question names the time it goes live."""
    later = timezone.now() + timedelta(days=1)
    article, first = published_then_edited(chief, at=later)
    html = desk.get(restore_url(article, first)).content.decode()
    assert "scheduled to go live on" in html
    assert "changes what goes out then" in html


def test_the_revisions_page_of_a_live_story_links_restore_to_the_question(desk, chief):
    """No form on the list restores a published story directly."""
    article, first = published_then_edited(chief)
    url = reverse("admin:articles_article_revisions", args=[article.pk])
    html = desk.get(url).content.decode()
    assert f'href="{restore_url(article, first)}"' in html
    assert f'action="{restore_url(article, first)}"' not in html


def test_a_draft_restores_straight_from_the_revisions_page(desk, chief):
    """Readers see nothing of a draft: its restore button restores at once."""
    article = story_with_rows(chief)
    first = revisions_of(article).first()
    edit(article, chief, headline_en="Second words")
    url = reverse("admin:articles_article_revisions", args=[article.pk])
    assert f'action="{restore_url(article, first)}"' in desk.get(url).content.decode()
    desk.post(restore_url(article, first))
    article.refresh_from_db()
    assert article.headline_en == "First words"


def test_a_reporter_cannot_open_the_question_on_a_colleagues_story(client, chief):
    """The confirmation is for those who may change the story."""
    article, first = published_then_edited(chief)
    client.force_login(member_of(REPORTERS))
    assert client.get(restore_url(article, first)).status_code == 403


def test_a_revision_of_another_story_is_not_found(desk, chief):
    """Ids are checked against the story's own revisions."""
    article, _first = published_then_edited(chief)
    other = story_with_rows(chief)
    assert (
        desk.get(restore_url(article, revisions_of(other).first())).status_code == 404
    )
