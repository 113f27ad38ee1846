"""Revisions: every save is one, any two compare side by side, and one restores."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from articles.identity import IdentityLeakError
from articles.models import Article, SocialPost, Status
from articles.revision_diff import compare
from articles.revisions import revisions_of, snapshot
from articles.roles import EDITORS, REPORTERS
from articles.services import (
    StoryEdit,
    article_publish,
    article_restore,
    article_save,
)
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
