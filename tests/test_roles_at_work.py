"""Each role does its day's work on the admin's screens as a plain member of its
group (never a superuser): a story with every part, the importer's draft, preview
links, sources' social accounts; and what each role may not do."""

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from articles import permissions as perms
from articles.models import Article, ArticlePerson, Byline, PreviewLink, Status
from articles.services import (
    StoryEdit,
    article_save,
    preview_link_create,
    preview_link_revoke,
)
from core.roles import (
    EDITORS,
    IDENTITY_OFFICERS,
    REPORTERS,
    ROLES,
    SOURCE_MANAGERS,
    granted,
)
from ingest.services import story_import
from sources.models import Attribution, SocialAccount
from tests.admin_forms import change_form_data, form_errors
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    DraftArticleFactory,
    ImageFactory,
    PersonFactory,
    ProtectedPersonFactory,
    SourceFactory,
    UserFactory,
    member_of,
)
from tests.test_admin_permissions import staff

pytestmark = pytest.mark.django_db

PARTS = {"bylines", "people_named", "social_posts", "attributions"}
LEGAL_NAME = ProtectedPersonFactory.name


def add_url() -> str:
    return reverse("admin:articles_article_add")


def change_url(article) -> str:
    return reverse("admin:articles_article_change", args=[article.pk])


def inlines(response) -> dict[str, object]:
    """The story form's inline formsets by prefix."""
    return {
        inline.formset.prefix: inline
        for inline in response.context["inline_admin_formsets"]
    }


# ------------------------------------------------------------ the grants themselves


@pytest.mark.parametrize("role", ROLES)
def test_each_group_holds_exactly_its_roles_permissions(role):
    """Migrating leaves every group with the permissions the apps grant its role,
    no more (core/roles.py)."""
    held = {
        f"{p.content_type.app_label}.{p.codename}"
        for p in Group.objects.get(name=role).permissions.select_related("content_type")
    }
    assert held == granted(role)


# ------------------------------------------------------------ the reporter


def test_a_reporters_story_form_offers_every_part_of_a_story(client):
    """Bylines, people named, social posts and attributions, each open for new rows."""
    client.force_login(member_of(REPORTERS))
    found = inlines(client.get(add_url()))
    assert set(found) == PARTS
    for prefix, inline in found.items():
        assert inline.has_add_permission, prefix


def test_a_reporter_saves_a_new_story_with_a_row_of_each_part(client):
    """One save of the add form writes the story, its byline, the person named, a
    social post and an attribution; the reporter is the story's author."""
    reporter = member_of(REPORTERS)
    person, source = PersonFactory(), SourceFactory()
    client.force_login(reporter)
    data = change_form_data(client.get(add_url()))
    data.update(
        {
            "headline_ar": "افتتاح جسر جديد فوق وادي الملح",
            "body_ar": "<p>افتتحت البلدية الجسر صباح اليوم.</p>",
            "bylines-0-user": str(reporter.pk),
            "people_named-0-person": str(person.pk),
            "people_named-0-role": ArticlePerson.Role.QUOTED,
            "social_posts-TOTAL_FORMS": "1",
            "social_posts-0-platform": "x",
            "social_posts-0-url": "https://x.com/city_works/status/1234567890",
            "social_posts-0-handle": "city_works",
            "social_posts-0-text": "الجسر مفتوح",
            "attributions-0-source": str(source.pk),
            "attributions-0-role": Attribution.Role.CITED,
        }
    )
    response = client.post(add_url(), data)
    assert response.status_code == 302, form_errors(response)
    article = Article.objects.get()
    assert article.created_by == reporter and article.status == Status.DRAFT
    assert [b.user for b in article.bylines.all()] == [reporter]
    assert [p.person for p in article.people_named.all()] == [person]
    assert [p.handle for p in article.social_posts.all()] == ["city_works"]
    assert [a.source for a in article.attributions.all()] == [source]


def test_a_reporter_finds_colleagues_for_the_byline_by_name(client):
    """The byline's staff picker answers a reporter with active staff only, by the
    name bylines print, though reporters may not open the accounts admin."""
    reporter = member_of(REPORTERS)
    colleague = UserFactory(username="salma", first_name="سلمى", last_name="الراشد")
    UserFactory(username="reader", first_name="سلمى", is_staff=False)
    UserFactory(username="gone", first_name="سلمى", is_active=False)
    client.force_login(reporter)
    url = reverse("admin:auth_user_staff_autocomplete")
    query = {"app_label": "articles", "model_name": "byline", "field_name": "user"}
    response = client.get(url, {**query, "term": "سلمى"})
    assert response.status_code == 200
    assert response.json()["results"] == [
        {"id": str(colleague.pk), "text": "سلمى الراشد (salma)"}
    ]
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403


def test_the_byline_picker_answers_only_for_bylines_and_their_writers(client):
    """It is no list of accounts: another field asking is refused, and so is a role
    that writes no bylines."""
    url = reverse("admin:auth_user_staff_autocomplete")
    byline = {"app_label": "articles", "model_name": "byline", "field_name": "user"}
    author = {
        "app_label": "articles",
        "model_name": "article",
        "field_name": "created_by",
    }
    client.force_login(member_of(REPORTERS))
    assert client.get(url, author).status_code == 403
    client.force_login(member_of(SOURCE_MANAGERS))
    assert client.get(url, byline).status_code == 403


def test_a_reporter_finds_library_images_for_the_hero(client):
    """The hero image's picker answers reporters (and not source managers)."""
    ImageFactory(title_ar="جسر المدينة")
    url = reverse("admin:images_image_autocomplete")
    query = {
        "app_label": "articles",
        "model_name": "article",
        "field_name": "hero_image",
        "term": "جسر",
    }
    client.force_login(member_of(REPORTERS))
    response = client.get(url, query)
    assert [r["text"] for r in response.json()["results"]] == ["جسر المدينة"]
    client.force_login(member_of(SOURCE_MANAGERS))
    assert client.get(url, query).status_code == 403


def test_a_reporter_submits_their_draft_for_review(client):
    """ "Submit for review" saves the form and moves the draft to the editors."""
    reporter = member_of(REPORTERS)
    draft = DraftArticleFactory(created_by=reporter)
    client.force_login(reporter)
    data = change_form_data(client.get(change_url(draft)))
    response = client.post(change_url(draft), {**data, "_move": "submit"})
    assert response.status_code == 302, form_errors(response)
    draft.refresh_from_db()
    assert draft.status == Status.IN_REVIEW


def test_a_reporter_cannot_publish_even_by_posting_the_move(client):
    """The button is not offered, and posting it leaves the draft a draft."""
    reporter = member_of(REPORTERS)
    draft = DraftArticleFactory(created_by=reporter)
    client.force_login(reporter)
    data = change_form_data(client.get(change_url(draft)))
    client.post(change_url(draft), {**data, "_move": "publish"})
    draft.refresh_from_db()
    assert draft.status == Status.DRAFT
    assert not Article.objects.published().exists()


def test_a_reporter_cannot_delete_a_story(client):
    """Not even their own draft: deleting is an editor's decision."""
    reporter = member_of(REPORTERS)
    draft = DraftArticleFactory(created_by=reporter)
    client.force_login(reporter)
    url = reverse("admin:articles_article_delete", args=[draft.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert Article.objects.filter(pk=draft.pk).exists()


def test_a_reporter_never_sees_a_legal_name_on_a_story_naming_the_person(client):
    """The story form and the person's page show the pseudonym only."""
    reporter = member_of(REPORTERS)
    person = ProtectedPersonFactory()
    draft = DraftArticleFactory(created_by=reporter)
    ArticlePersonFactory(article=draft, person=person)
    client.force_login(reporter)
    story = client.get(change_url(draft)).content.decode()
    page = client.get(reverse("admin:identity_person_change", args=[person.pk]))
    assert person.public_name in story
    assert LEGAL_NAME not in story
    assert LEGAL_NAME not in page.content.decode()


def test_a_story_part_needs_its_own_permission_in_the_service():
    """A user who may change stories but not bylines cannot add one through the
    service, whatever a hand-written request carries."""
    writer = staff(perms.VIEW_ARTICLE, perms.ADD_ARTICLE, perms.CHANGE_ARTICLE)
    article = DraftArticleFactory(created_by=writer)
    edit = StoryEdit(article=article, changed=[Byline(name="كاتب ضيف")])
    with pytest.raises(PermissionDenied):
        article_save(edit=edit, by=writer)
    assert not Byline.objects.exists()


# ------------------------------------------------------------ preview links


def test_a_reporter_shares_a_preview_of_their_own_draft():
    """Their own draft is theirs to show to someone outside."""
    reporter = member_of(REPORTERS)
    draft = DraftArticleFactory(created_by=reporter)
    link = preview_link_create(article=draft, by=reporter)
    assert link.article == draft and link.created_by == reporter


def test_a_reporter_cannot_share_a_preview_of_another_reporters_story(client):
    """Neither the service nor the admin's share page makes the link."""
    reporter = member_of(REPORTERS)
    colleagues = DraftArticleFactory(created_by=member_of(REPORTERS))
    with pytest.raises(PermissionDenied):
        preview_link_create(article=colleagues, by=reporter)
    client.force_login(reporter)
    url = reverse("admin:articles_article_preview_share", args=[colleagues.pk])
    assert client.post(url).status_code == 403
    assert not PreviewLink.objects.exists()


def test_a_reporter_cannot_share_their_story_once_submitted():
    """In review the story is the editors'; so is sharing it."""
    reporter = member_of(REPORTERS)
    submitted = DraftArticleFactory(created_by=reporter, status=Status.IN_REVIEW)
    with pytest.raises(PermissionDenied):
        preview_link_create(article=submitted, by=reporter)


def test_a_reporter_cannot_revoke_an_editors_preview_link():
    """Revoking a link of a story one may not edit is refused; the link still works."""
    story = DraftArticleFactory()
    link = preview_link_create(article=story, by=member_of(EDITORS))
    with pytest.raises(PermissionDenied):
        preview_link_revoke(link=link, by=member_of(REPORTERS))
    link.refresh_from_db()
    assert link.revoked_at is None


# ------------------------------------------------------------ the editor

PASTE = """افتتاح جسر جديد فوق وادي الملح

(رويترز) - افتتحت البلدية جسراً جديداً يربط ضفتي وادي الملح صباح اليوم.

وقالت سلمى الراشد، مديرة المشروع، إن الجسر يختصر الطريق نصف ساعة.

https://x.com/city_works/status/1234567890

وتوقعت البلدية أن يعبره عشرة آلاف سائق يومياً.

المصدر: موقع 24
"""


@pytest.fixture
def imported():
    """A draft the importer made for an editor: a person, a post, two credits."""
    PersonFactory(name="سلمى الراشد")
    SourceFactory(name_ar="رويترز", name_en="Reuters")
    SourceFactory(name_ar="موقع 24", name_en="24.ae", domains="24.ae")
    editor = member_of(EDITORS)
    article = story_import(text=PASTE, by=editor).article
    assert article.people_named.count() == 1
    assert article.social_posts.count() == 1
    assert article.attributions.count() == 2
    return editor, article


def test_an_editor_sees_the_people_post_and_sources_an_import_made(client, imported):
    """Each of the draft's rows is on its form, open for changes."""
    editor, article = imported
    client.force_login(editor)
    found = inlines(client.get(change_url(article)))
    counts = {
        prefix: len(inline.formset.initial_forms) for prefix, inline in found.items()
    }
    assert counts == {
        "bylines": 0,
        "people_named": 1,
        "social_posts": 1,
        "attributions": 2,
    }
    for prefix, inline in found.items():
        assert inline.has_change_permission and inline.has_delete_permission, prefix


def test_an_editor_fixes_the_people_post_and_sources_an_import_made(client, imported):
    """One save changes the person's role and the post's text and drops a credit."""
    editor, article = imported
    client.force_login(editor)
    data = change_form_data(client.get(change_url(article)))
    data.update(
        {
            "people_named-0-role": ArticlePerson.Role.QUOTED,
            "social_posts-0-text": "الجسر مفتوح أمام السيارات",
            "attributions-1-DELETE": "on",
        }
    )
    response = client.post(change_url(article), data)
    assert response.status_code == 302, form_errors(response)
    assert article.people_named.get().role == ArticlePerson.Role.QUOTED
    assert article.social_posts.get().text == "الجسر مفتوح أمام السيارات"
    assert [a.source.name_ar for a in article.attributions.all()] == ["رويترز"]


def test_an_editor_approves_and_publishes_a_submitted_story(client):
    """Approve, then publish: the story is on the site."""
    story = DraftArticleFactory(status=Status.IN_REVIEW)
    client.force_login(member_of(EDITORS))
    for move in ("approve", "publish"):
        data = change_form_data(client.get(change_url(story)))
        response = client.post(change_url(story), {**data, "_move": move})
        assert response.status_code == 302, form_errors(response)
    assert list(Article.objects.published()) == [story]


def test_an_editor_adds_a_correction(client):
    """The correction page takes an editor's note to the end of the story."""
    story = ArticleFactory()
    client.force_login(member_of(EDITORS))
    url = reverse("admin:articles_article_add_correction", args=[story.pk])
    response = client.post(url, {"kind": "correction", "text_ar": "صُحّح التاريخ."})
    assert response.status_code == 302
    assert story.corrections.get().text_ar == "صُحّح التاريخ."


def test_the_import_page_offers_new_sources_only_to_those_who_add_sources(client):
    """A reporter is told a source manager adds an unknown outlet instead of being
    offered a choice the service would refuse."""
    SourceFactory(name_ar="رويترز", name_en="Reuters")
    client.force_login(member_of(REPORTERS))
    text = PASTE.replace("المصدر: موقع 24", "المصدر: صحيفة الوادي")
    response = client.post(reverse("admin:articles_article_import"), {"text": text})
    assert response.status_code == 200
    assert not response.context["confirm"].fields["confirm_sources"].choices
    assert response.context["sources_left_to_managers"] == ["صحيفة الوادي"]
    assert 'name="confirm_sources"' not in response.content.decode()


# ------------------------------------------------------------ the source manager


def test_a_source_manager_adds_a_social_account_to_a_source(client):
    """The source's form takes a new account in its rows."""
    source = SourceFactory(name_ar="موقع 24", name_en="24.ae")
    client.force_login(member_of(SOURCE_MANAGERS))
    url = reverse("admin:sources_source_change", args=[source.pk])
    data = change_form_data(client.get(url))
    data.update(
        {
            "social_accounts-0-platform": "x",
            "social_accounts-0-handle": "24ae",
            "social_accounts-0-url": "https://x.com/24ae",
        }
    )
    response = client.post(url, data)
    assert response.status_code == 302, form_errors(response)
    assert SocialAccount.objects.get(source=source).handle == "24ae"


def test_a_source_manager_reads_stories_but_cannot_change_them(client):
    """The story opens read-only and without its rows; a save is refused."""
    story = DraftArticleFactory(headline_ar="عنوان أول")
    client.force_login(member_of(SOURCE_MANAGERS))
    page = client.get(change_url(story))
    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    data = {"headline_ar": "عنوان آخر", "language": "ar"}
    assert client.post(change_url(story), data).status_code == 403
    story.refresh_from_db()
    assert story.headline_ar == "عنوان أول"


# ------------------------------------------------------------ the identity officer


def test_an_identity_officer_opens_no_story(client):
    """Officers protect people; the stories themselves stay with the desk."""
    client.force_login(member_of(IDENTITY_OFFICERS))
    assert client.get(change_url(ArticleFactory())).status_code == 403
    assert client.get(add_url()).status_code == 403
