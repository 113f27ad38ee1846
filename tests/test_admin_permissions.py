"""Every admin door answers each kind of user as it should, and legal names stay
with identity officers."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from taggit.models import Tag

from articles.audit_actions import Action
from articles.models import Article, Status
from audit.models import AuditEvent
from identity.models import Person
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    DraftArticleFactory,
    ProtectedPersonFactory,
    SourceFactory,
    SuperuserFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

LEGAL_NAME = ProtectedPersonFactory.name
LATIN = "Yousef al-Mansouri"
OFFICERS = "Identity officers"


@pytest.fixture
def newsroom():
    """A story naming a protected person, a source and a tag: one of everything."""
    person = ProtectedPersonFactory(other_spellings=LATIN)
    article = ArticleFactory()
    ArticlePersonFactory(article=article, person=person)
    article.tags.add("سجون")
    return {
        "article": article,
        "section": article.section,
        "person": person,
        "tag": Tag.objects.get(),
        "source": SourceFactory(),
    }


def admin_urls(rows) -> dict[str, str]:
    """Every page of every model admin, plus the importer's page and endpoint."""
    pages = {
        "index": reverse("admin:index"),
        "import": reverse("admin:articles_article_import"),
        "recognize": reverse("admin:articles_article_recognize_post"),
        "autocomplete": reverse("admin:autocomplete")
        + "?app_label=articles&model_name=articleperson&field_name=person&term=x",
    }
    models = {
        "article": "articles_article",
        "section": "articles_section",
        "person": "identity_person",
        "tag": "taggit_tag",
        "source": "sources_source",
    }
    for key, prefix in models.items():
        pk = rows[key].pk
        pages[f"{key} list"] = reverse(f"admin:{prefix}_changelist")
        pages[f"{key} add"] = reverse(f"admin:{prefix}_add")
        pages[f"{key} change"] = reverse(f"admin:{prefix}_change", args=[pk])
        pages[f"{key} delete"] = reverse(f"admin:{prefix}_delete", args=[pk])
        pages[f"{key} history"] = reverse(f"admin:{prefix}_history", args=[pk])
    pages["audit list"] = reverse("admin:audit_auditevent_changelist")
    story = rows["article"].pk
    pages["article revisions"] = reverse(
        "admin:articles_article_revisions", args=[story]
    )
    pages["article kill"] = reverse("admin:articles_article_kill", args=[story])
    pages["article correction"] = reverse(
        "admin:articles_article_add_correction", args=[rows["article"].pk]
    )
    return pages


def get(client, url):
    if "recognize" in url:
        return client.post(url, {"paste": "https://x.com/a/status/1"})
    return client.get(url)


def staff(*codenames: str, groups=()):
    user = UserFactory()
    for name in codenames:
        app, codename = name.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=codename)
        )
    for group in groups:
        user.groups.add(Group.objects.get(name=group))
    return user


def test_anonymous_visitors_are_sent_to_the_login_page(client, newsroom):
    """Nobody reaches an admin page or endpoint without logging in."""
    for name, url in admin_urls(newsroom).items():
        response = get(client, url)
        assert response.status_code == 302, name
        assert "/admin/login/" in response["Location"], name


def test_logged_in_readers_who_are_not_staff_are_sent_to_login(client, newsroom):
    """A reader's account is not a newsroom account."""
    client.force_login(UserFactory(is_staff=False))
    for name, url in admin_urls(newsroom).items():
        response = get(client, url)
        assert response.status_code == 302, name


def test_staff_without_permissions_see_only_the_index(client, newsroom):
    """Staff status alone opens nothing: every page and endpoint answers 403."""
    client.force_login(staff())
    for name, url in admin_urls(newsroom).items():
        expected = 200 if name == "index" else 403
        assert get(client, url).status_code == expected, name


def test_identity_officers_reach_people_and_nothing_else(client, newsroom):
    """The officers' group may view, add and change people (and find them in the
    story form's person picker), not stories."""
    client.force_login(staff(groups=[OFFICERS]))
    allowed = {
        "index",
        "autocomplete",
        "person list",
        "person add",
        "person change",
        "person history",
    }
    for name, url in admin_urls(newsroom).items():
        expected = 200 if name in allowed else 403
        assert get(client, url).status_code == expected, name


def test_editors_with_every_permission_reach_every_page(client, newsroom):
    """A superuser reaches every page (the audit trail is read-only for all)."""
    client.force_login(SuperuserFactory())
    for name, url in admin_urls(newsroom).items():
        assert get(client, url).status_code == 200, name


def test_story_writers_may_import(client, newsroom):
    """ "Add article" opens the import page and the paste endpoint."""
    client.force_login(staff("articles.add_article"))
    urls = admin_urls(newsroom)
    assert client.get(urls["import"]).status_code == 200
    assert get(client, urls["recognize"]).status_code == 200


def test_a_user_without_publish_permission_cannot_publish_by_action(client):
    """The publish action is not offered, and posting it changes nothing."""
    article = DraftArticleFactory()
    client.force_login(staff("articles.view_article", "articles.change_article"))
    url = reverse("admin:articles_article_changelist")
    assert 'value="publish"' not in client.get(url).content.decode()
    client.post(url, {"action": "publish", "_selected_action": [article.pk]})
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_a_user_without_publish_permission_gets_no_publish_button(client):
    """The change form offers "Save and publish" only to those who may publish."""
    article = DraftArticleFactory()
    url = reverse("admin:articles_article_change", args=[article.pk])
    client.force_login(staff("articles.view_article", "articles.change_article"))
    assert 'value="publish"' not in client.get(url).content.decode()
    client.force_login(staff("articles.change_article", "articles.publish_article"))
    assert 'value="publish"' in client.get(url).content.decode()


def test_correcting_a_story_needs_the_correction_permission(client):
    """A reporter who writes and edits stories neither sees "Add a correction" nor
    reaches the page; posting to it adds nothing."""
    article = ArticleFactory()
    client.force_login(
        staff(
            "articles.view_article", "articles.add_article", "articles.change_article"
        )
    )
    change = client.get(reverse("admin:articles_article_change", args=[article.pk]))
    url = reverse("admin:articles_article_add_correction", args=[article.pk])
    assert change.status_code == 200
    assert url not in change.content.decode()
    assert client.get(url).status_code == 403
    response = client.post(url, {"kind": "correction", "text_ar": "تصحيح"})
    assert response.status_code == 403
    assert not article.corrections.exists()


def test_editors_with_the_correction_permission_may_correct(client):
    """With "add correction" the story page links to the page, which adds it."""
    article = ArticleFactory()
    client.force_login(staff("articles.change_article", "articles.add_correction"))
    change = client.get(reverse("admin:articles_article_change", args=[article.pk]))
    url = reverse("admin:articles_article_add_correction", args=[article.pk])
    assert url in change.content.decode()
    assert client.get(url).status_code == 200
    response = client.post(url, {"kind": "correction", "text_ar": "تصحيح"})
    assert response.status_code == 302
    assert article.corrections.exists()


def test_editing_sources_needs_the_source_permission(client, newsroom):
    """Story editors cannot change the list of sources."""
    client.force_login(staff("articles.change_article", "articles.view_article"))
    url = reverse("admin:sources_source_change", args=[newsroom["source"].pk])
    assert client.get(url).status_code == 403


# ------------------------------------------------------------ legal names


def everything_an_editor_sees(client, rows) -> dict[str, str]:
    """The HTML (or JSON) of every admin page and search a busy editor opens."""
    pages = {name: get(client, url) for name, url in admin_urls(rows).items()}
    # The search box echoes what was typed; the results must not add the name.
    people = reverse("admin:identity_person_changelist")
    pages["search by part of the name"] = client.get(people, {"q": "Mansouri"})
    pages["autocomplete by legal name"] = client.get(
        reverse("admin:autocomplete"),
        {
            "app_label": "articles",
            "model_name": "articleperson",
            "field_name": "person",
            "term": "المنصوري",
        },
    )
    return {name: response.content.decode() for name, response in pages.items()}


def all_but_legal_names():
    """A staff user holding every permission except seeing legal names."""
    user = UserFactory()
    user.user_permissions.add(
        *Permission.objects.exclude(codename="view_legal_name").filter(
            content_type__app_label__in=[
                "articles",
                "identity",
                "sources",
                "taggit",
                "audit",
            ]
        )
    )
    return user


def test_legal_names_never_appear_in_the_admin_without_permission(client, newsroom):
    """Pages, lists, searches, autocompletes, history and the audit trail hide it."""
    user = all_but_legal_names()
    client.force_login(user)
    person = newsroom["person"]
    person.description_en = "A source"
    client.post(
        reverse("admin:identity_person_change", args=[person.pk]),
        {
            "public_name": person.public_name,
            "aliases": person.aliases,
            "description_ar": "",
            "description_en": "Changed",
        },
    )
    assert LogEntry.objects.exists() and AuditEvent.objects.exists()
    for name, html in everything_an_editor_sees(client, newsroom).items():
        assert LEGAL_NAME not in html, name
        assert LATIN not in html, name


def test_searching_by_a_legal_name_finds_nothing_without_permission(client, newsroom):
    """Search cannot confirm an identity to someone not entitled to it."""
    client.force_login(all_but_legal_names())
    response = client.get(
        reverse("admin:identity_person_changelist"), {"q": "يوسف المنصوري"}
    )
    assert list(response.context["cl"].result_list) == []


def test_identity_officers_find_people_by_legal_name(client, newsroom):
    """Officers search legal spellings too."""
    client.force_login(staff(groups=[OFFICERS]))
    response = client.get(
        reverse("admin:identity_person_changelist"), {"q": "Mansouri"}
    )
    assert list(response.context["cl"].result_list) == [newsroom["person"]]


def test_showing_a_legal_name_to_an_officer_is_recorded(client, newsroom):
    """Each time an officer opens a protected person, the trail says who saw whom."""
    officer = staff(groups=[OFFICERS])
    client.force_login(officer)
    url = reverse("admin:identity_person_change", args=[newsroom["person"].pk])
    html = client.get(url).content.decode()
    assert LEGAL_NAME in html
    event = AuditEvent.objects.get(action=Action.LEGAL_NAME_VIEWED)
    assert event.actor == officer
    assert event.object_id == str(newsroom["person"].pk)
    assert LEGAL_NAME not in event.object_repr


def test_a_non_officer_cannot_unprotect_a_person(client, newsroom):
    """Without the permission, "identity protected" is read-only."""
    client.force_login(all_but_legal_names())
    person = newsroom["person"]
    client.post(
        reverse("admin:identity_person_change", args=[person.pk]),
        {
            "identity_protected": "",
            "public_name": person.public_name,
            "aliases": person.aliases,
            "description_ar": "",
            "description_en": "",
        },
    )
    assert Person.objects.get(pk=person.pk).identity_protected


def test_protecting_someone_named_in_public_stories_lists_them(client):
    """The person form refuses, naming the stories, until they are withdrawn."""
    person = Person.objects.create(name="سالم الحربي")
    article = ArticleFactory(body_ar="<p>قال سالم الحربي</p>")
    client.force_login(SuperuserFactory())
    url = reverse("admin:identity_person_change", args=[person.pk])
    data = {
        "identity_protected": "on",
        "name": "سالم الحربي",
        "other_spellings": "",
        "public_name": "المصدر",
        "aliases": "",
        "description_ar": "",
        "description_en": "",
    }
    refused = client.post(url, data)
    assert refused.status_code == 200
    assert f"#{article.pk}" in refused.content.decode()
    assert not Person.objects.get(pk=person.pk).identity_protected
    done = client.post(url, {**data, "withdraw_stories": "on"})
    assert done.status_code == 302
    article.refresh_from_db()
    assert article.status == Status.DRAFT
    assert Article.objects.published().count() == 0
