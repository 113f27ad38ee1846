"""Each role of the newsroom reaches what its work needs, and nothing else."""

import pytest
from django.urls import reverse

from articles.models import Status
from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, SOURCE_MANAGERS
from tests.factories import (
    ArticleFactory,
    DraftArticleFactory,
    PersonFactory,
    SourceFactory,
    member_of,
)
from tests.test_admin_permissions import admin_urls, get

pytestmark = pytest.mark.django_db

ALL = {
    "index",
    "import",
    "recognize",
    "autocomplete",
    "audit list",
    "article correction",
    "article revisions",
    "article kill",
    *(
        f"{model} {page}"
        for model in ("article", "section", "person", "tag", "source")
        for page in ("list", "add", "change", "delete", "history")
    ),
}
READ = {"list", "change", "history"}  # a read-only change page answers 200 too

# What each role may open; every other page of ALL answers 403.
ALLOWED = {
    REPORTERS: {
        "index",
        "import",
        "recognize",
        "autocomplete",
        *(f"article {p}" for p in ("list", "add", "change", "history")),
        "article revisions",
        *(f"section {p}" for p in READ),
        *(f"person {p}" for p in ("list", "add", "change", "history")),
        *(f"tag {p}" for p in READ),
        *(f"source {p}" for p in READ),
    },
    EDITORS: {
        "index",
        "import",
        "recognize",
        "autocomplete",
        "audit list",
        *(f"article {p}" for p in ("list", "add", "change", "delete", "history")),
        "article revisions",
        "article kill",
        "article correction",
        *(f"section {p}" for p in ("list", "add", "change", "history")),
        *(f"person {p}" for p in ("list", "add", "change", "history")),
        *(f"tag {p}" for p in ("list", "add", "change", "delete", "history")),
        *(f"source {p}" for p in READ),
    },
    SOURCE_MANAGERS: {
        "index",
        *(f"article {p}" for p in READ),
        "article revisions",
        *(f"source {p}" for p in ("list", "add", "change", "delete", "history")),
    },
    IDENTITY_OFFICERS: {
        "index",
        "autocomplete",
        *(f"person {p}" for p in ("list", "add", "change", "history")),
    },
}


@pytest.fixture
def newsroom():
    article = ArticleFactory()
    article.tags.add("اقتصاد")
    return {
        "article": article,
        "section": article.section,
        "person": PersonFactory(),
        "tag": article.tags.get(),
        "source": SourceFactory(),
    }


@pytest.mark.parametrize("role", ALLOWED)
def test_each_role_opens_exactly_its_pages(client, newsroom, role):
    """Every admin page and endpoint answers 200 or 403 as the roles' grants say."""
    client.force_login(member_of(role))
    urls = admin_urls(newsroom)
    assert set(urls) == ALL
    for name, url in urls.items():
        expected = 200 if name in ALLOWED[role] else 403
        assert get(client, url).status_code == expected, (role, name)


def offered_actions(client) -> set[str]:
    response = client.get(reverse("admin:articles_article_changelist"))
    if response.context["action_form"] is None:  # no action at all
        return set()
    return {
        value
        for value, _label in response.context["action_form"].fields["action"].choices
    } - {""}


@pytest.mark.parametrize(
    "role,actions",
    [
        (REPORTERS, set()),
        (EDITORS, {"publish", "unpublish", "delete_selected"}),
        (SOURCE_MANAGERS, set()),
    ],
)
def test_each_role_is_offered_its_list_actions(client, role, actions):
    """The changelist offers publish and withdraw to editors only."""
    DraftArticleFactory()
    client.force_login(member_of(role))
    assert offered_actions(client) == actions


def buttons(client, article) -> set[str]:
    """The workflow buttons the change page offers."""
    url = reverse("admin:articles_article_change", args=[article.pk])
    return {move.name for move in client.get(url).context["workflow_moves"]}


def test_a_reporter_may_submit_own_draft_and_nothing_more(client):
    """A reporter's own draft offers "submit"; a colleague's story is read-only."""
    reporter = member_of(REPORTERS)
    own = DraftArticleFactory(created_by=reporter)
    other = DraftArticleFactory()
    client.force_login(reporter)
    assert buttons(client, own) == {"submit"}
    url = reverse("admin:articles_article_change", args=[other.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert not response.context["has_change_permission"]


def test_an_editor_is_offered_the_moves_of_each_state(client):
    """In review: approve, send back, publish; published: publish again, withdraw."""
    client.force_login(member_of(EDITORS))
    in_review = DraftArticleFactory(status=Status.IN_REVIEW)
    assert buttons(client, in_review) == {"approve", "send_back", "publish"}
    published = ArticleFactory()
    assert buttons(client, published) == {"publish", "withdraw"}


def test_only_editors_see_the_kill_link(client):
    """Killing is an editor's decision."""
    article = ArticleFactory()
    url = reverse("admin:articles_article_change", args=[article.pk])
    client.force_login(member_of(EDITORS))
    assert client.get(url).context["kill_url"]
    client.force_login(member_of(REPORTERS))
    assert not client.get(url).context.get("kill_url")
