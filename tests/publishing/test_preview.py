"""Previews of a story before it is published: for editors in the admin, and for
anyone holding a signed share link."""

import re
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from articles.audit_actions import Action
from articles.models import Article, PreviewLink
from articles.services import preview_link_create, preview_link_revoke
from audit.models import AuditEvent
from tests.admin_forms import change_form_data
from tests.factories import (
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    DraftArticleFactory,
    ImageFactory,
    ProtectedPersonFactory,
    SocialPostFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

HEADLINE = "مسودة عن قافلة المساعدات"
LEGAL_NAME = ProtectedPersonFactory.name
BANNER = "Preview — not published"


def staff(*codenames: str):
    """A staff user holding only the given permissions ("app.codename")."""
    user = UserFactory()
    for name in codenames:
        app, codename = name.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=codename)
        )
    return user


@pytest.fixture
def draft():
    return DraftArticleFactory(headline_ar=HEADLINE)


@pytest.fixture
def english_admin(admin_client):
    """The editor's admin, and so the admin preview, in English."""
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return admin_client


def preview_url(article) -> str:
    return reverse("admin:articles_article_preview", args=[article.pk])


def change_url(article) -> str:
    return reverse("admin:articles_article_change", args=[article.pk])


def share_url(link: PreviewLink, language: str = "en") -> str:
    with translation.override(language):
        return link.get_absolute_url()


# ------------------------------------------------------------ the admin preview


def test_the_change_form_offers_a_preview_in_a_new_tab(admin_client, draft):
    """The Preview button posts the form as it stands to the preview, in a new tab."""
    html = admin_client.get(change_url(draft)).content.decode()
    assert f'formaction="{preview_url(draft)}" formtarget="_blank"' in html


def test_admin_preview_shows_unsaved_changes_and_saves_nothing(english_admin, draft):
    """Posting the change form to the preview shows the edited headline under the
    banner, with the note on related rows; the story, its tags and the audit trail
    stay as they were."""
    data = change_form_data(english_admin.get(change_url(draft)))
    data.update(headline_ar="عنوان لم يحفظ بعد", tags="وسم جديد")
    # Logging in is audited; the preview itself must add nothing.
    events = AuditEvent.objects.count()
    response = english_admin.post(preview_url(draft), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "عنوان لم يحفظ بعد" in html
    assert BANNER in html
    assert "as last saved" in html
    stored = Article.objects.get(pk=draft.pk)
    assert stored.headline_ar == HEADLINE
    assert list(stored.tags.all()) == []
    assert AuditEvent.objects.count() == events


def test_admin_preview_shows_a_newly_chosen_image_without_saving_it(
    admin_client, draft
):
    """Another library image chosen on the form shows in the preview; the stored
    story keeps its own (here none)."""
    image = ImageFactory(alt_text_ar="صورة المعاينة")
    data = change_form_data(admin_client.get(change_url(draft)))
    data["hero_image"] = str(image.pk)
    response = admin_client.post(preview_url(draft), data)
    assert response.status_code == 200
    assert 'alt="صورة المعاينة"' in response.content.decode()
    assert Article.objects.get(pk=draft.pk).hero_image is None


def test_admin_preview_of_an_invalid_form_says_so(english_admin, draft):
    """A form that does not validate gets a short page naming the problem, not an
    error page, and nothing is saved."""
    data = change_form_data(english_admin.get(change_url(draft)))
    data.update(headline_ar="")
    response = english_admin.post(preview_url(draft), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "cannot be previewed" in html
    assert "A headline in the story&#x27;s language is required." in html
    assert Article.objects.get(pk=draft.pk).headline_ar == HEADLINE


def test_admin_preview_of_a_form_naming_a_protected_person_is_refused(
    english_admin, draft
):
    """The identity gate runs on the submitted form as on a save: the preview page
    names the field, never the name."""
    ProtectedPersonFactory()
    data = change_form_data(english_admin.get(change_url(draft)))
    data.update(body_ar=f"<p>قال {LEGAL_NAME} إن القافلة وصلت.</p>")
    html = english_admin.post(preview_url(draft), data).content.decode()
    assert "cannot be previewed" in html
    assert LEGAL_NAME not in html


def test_admin_preview_of_a_saved_draft_opens_for_an_editor(english_admin, draft):
    """GET shows the saved draft with the public templates and the banner."""
    response = english_admin.get(preview_url(draft))
    html = response.content.decode()
    assert response.status_code == 200
    assert HEADLINE in html
    assert BANNER in html
    assert '<article class="article"' in html


def test_admin_preview_shows_the_saved_related_rows(admin_client, draft):
    """Bylines, people, posts and sources come from the saved story."""
    BylineFactory(article=draft, name="كاتبة المسودة")
    ArticlePersonFactory(article=draft, name_used="شاهد العيان")
    SocialPostFactory(article=draft, author_name="حساب المنشور")
    AttributionFactory(article=draft, source__name_ar="صحيفة المصدر")
    html = admin_client.get(preview_url(draft)).content.decode()
    for text in ("كاتبة المسودة", "شاهد العيان", "حساب المنشور", "صحيفة المصدر"):
        assert text in html


def test_admin_preview_can_show_the_other_edition(admin_client, draft):
    """?language=en renders the English edition, and the page's language switch
    leads to the preview, not to the story's public address."""
    response = admin_client.get(preview_url(draft), {"language": "en"})
    html = response.content.decode()
    assert '<html lang="en" dir="ltr">' in html
    assert f'href="{preview_url(draft)}?language=ar"' in html


def test_admin_preview_is_for_staff_who_may_view_stories(client, draft):
    """Staff without the view permission are refused."""
    client.force_login(staff())
    assert client.get(preview_url(draft)).status_code == 403


def test_admin_preview_opens_for_staff_who_may_only_view(client, draft):
    """Viewing is enough to preview the saved story."""
    client.force_login(staff("articles.view_article"))
    assert client.get(preview_url(draft)).status_code == 200


def test_admin_preview_of_unsaved_changes_needs_the_change_permission(client, draft):
    """Posting a form to the preview is for those who may edit the story."""
    client.force_login(staff("articles.view_article"))
    response = client.post(preview_url(draft), {"headline_ar": "عنوان آخر"})
    assert response.status_code == 403


def test_admin_preview_sends_anonymous_visitors_to_the_login_page(client, draft):
    """Without logging in, the admin preview redirects to the login page."""
    response = client.get(preview_url(draft))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_admin_preview_is_neither_indexed_nor_cached(admin_client, draft):
    """The editors' preview carries the same noindex and no-store as share links."""
    response = admin_client.get(preview_url(draft))
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in response["Cache-Control"]
    assert '<meta name="robots" content="noindex, nofollow">' in (
        response.content.decode()
    )


def test_previewing_leaves_the_draft_off_the_site(admin_client, client, draft):
    """After a preview, the story's public address still answers 404."""
    admin_client.get(preview_url(draft))
    with translation.override("ar"):
        public = draft.get_absolute_url()
    assert client.get(public).status_code == 404


# ------------------------------------------------------------ making share links


def test_creating_a_link_records_it_and_an_audit_event(editor, draft):
    """The service writes the link, valid 48 hours, and audits it on the story
    without the token."""
    link = preview_link_create(article=draft, by=editor)
    assert PreviewLink.objects.get() == link
    assert link.created_by == editor
    assert link.expires_at - link.created_at == timedelta(hours=48)
    event = AuditEvent.objects.get(action=Action.PREVIEW_SHARED)
    assert event.actor == editor
    assert event.object_id == str(draft.pk)
    assert link.token not in event.message


def test_link_tokens_are_random_and_unique(editor, draft):
    """Two links for one story carry different, long tokens."""
    first = preview_link_create(article=draft, by=editor)
    second = preview_link_create(article=draft, by=editor)
    assert first.token != second.token
    assert len(first.token) >= 32


def test_a_link_lasts_no_longer_than_the_limit(editor, draft):
    """A lifetime of zero hours or past the limit is refused."""
    for hours in (0, 31 * 24):
        with pytest.raises(ValidationError):
            preview_link_create(article=draft, by=editor, hours=hours)
    assert not PreviewLink.objects.exists()


def test_users_without_change_permission_cannot_create_links(draft):
    """The service refuses a user who may only view stories."""
    with pytest.raises(PermissionDenied):
        preview_link_create(article=draft, by=staff("articles.view_article"))
    assert not PreviewLink.objects.exists()


def test_the_admin_refuses_links_to_users_without_change_permission(client, draft):
    """The share button is not offered, and posting to its address answers 403."""
    client.force_login(staff("articles.view_article"))
    html = client.get(change_url(draft)).content.decode()
    assert "Share a preview link" not in html and "preview-links" not in html
    share = reverse("admin:articles_article_preview_share", args=[draft.pk])
    assert client.post(share).status_code == 403
    assert not PreviewLink.objects.exists()


def test_sharing_through_the_admin_lists_the_link(english_admin, draft):
    """The share button creates a link and the form lists it with its expiry."""
    share = reverse("admin:articles_article_preview_share", args=[draft.pk])
    response = english_admin.post(share)
    assert response.status_code == 302
    link = PreviewLink.objects.get(article=draft)
    html = english_admin.get(change_url(draft)).content.decode()
    assert "/preview/" + link.token in html
    assert "Revoke" in html


def test_a_story_naming_a_protected_person_cannot_be_shared(editor, draft):
    """Creating a link runs the identity gate, as publishing does."""
    ProtectedPersonFactory()
    Article.objects.filter(pk=draft.pk).update(body_ar=f"<p>{LEGAL_NAME}</p>")
    draft.refresh_from_db()
    with pytest.raises(ValidationError):
        preview_link_create(article=draft, by=editor)
    assert not PreviewLink.objects.exists()


# ------------------------------------------------------------ opening share links


@pytest.fixture
def link(editor, draft):
    return preview_link_create(article=draft, by=editor)


def test_a_share_link_shows_the_draft_to_anyone(client, link):
    """An anonymous visitor reads the draft under the banner; search engines are
    told to stay away and nothing may be cached."""
    response = client.get(share_url(link))
    html = response.content.decode()
    assert response.status_code == 200
    assert HEADLINE in html
    assert BANNER in html
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]


def test_a_share_link_keeps_the_draft_off_the_site(client, link, draft):
    """A live share link does not open the story's public address."""
    assert client.get(share_url(link)).status_code == 200
    with translation.override("ar"):
        assert client.get(draft.get_absolute_url()).status_code == 404


def test_a_share_link_opens_in_each_edition(client, link):
    """The language switch of a shared preview keeps the signed address."""
    html = client.get(share_url(link, "ar")).content.decode()
    # Signed as the page is rendered (the signature carries the time): compared by
    # the link it opens, not character by character.
    english = re.search(r'<a href="/en/preview/([^/"]+)/" hreflang="en"', html)
    assert english, "no link to the English edition"
    assert PreviewLink.objects.get_signed(english.group(1)) == link


def test_a_tampered_link_shows_nothing(client, link):
    """A changed signature answers 404 with no word of the story."""
    url = share_url(link)
    signed = url.rstrip("/").rsplit("/", 1)[1]
    forged = signed[:-1] + ("A" if signed[-1] != "A" else "B")
    response = client.get(url.replace(signed, forged))
    assert response.status_code == 404
    assert HEADLINE not in response.content.decode()
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_an_unsigned_token_shows_nothing(client, link):
    """The bare token, without the signature, opens nothing."""
    with translation.override("en"):
        url = reverse("articles:preview", kwargs={"signed": link.token})
    assert client.get(url).status_code == 404


def test_an_expired_link_is_gone(client, link):
    """A link past its expiry answers 410 with no word of the story."""
    PreviewLink.objects.filter(pk=link.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    response = client.get(share_url(link))
    assert response.status_code == 410
    assert HEADLINE not in response.content.decode()


def test_a_signature_older_than_the_link_is_gone(client, link):
    """A signature made longer ago than the link's lifetime no longer opens it,
    whatever the row says."""
    PreviewLink.objects.filter(pk=link.pk).update(
        expires_at=timezone.now() + timedelta(hours=1),
        created_at=timezone.now() - timedelta(hours=1),
    )
    link.refresh_from_db()
    three_hours_ago = time.time() - 3 * 3600
    with mock.patch("django.core.signing.time.time", return_value=three_hours_ago):
        url = share_url(link)
    assert client.get(url).status_code == 410


def test_a_revoked_link_is_gone(client, link, editor):
    """A revoked link answers 410 with no word of the story."""
    preview_link_revoke(link=link, by=editor)
    response = client.get(share_url(link))
    assert response.status_code == 410
    assert HEADLINE not in response.content.decode()


def test_a_share_link_never_shows_a_protected_legal_name(client, link, draft):
    """A story whose rows came to hold a protected legal name after the link was
    made (written around the services) is withheld, without a word of it."""
    ProtectedPersonFactory()
    Article.objects.filter(pk=draft.pk).update(
        body_ar=f"<p>قال {LEGAL_NAME} إن القافلة وصلت.</p>"
    )
    response = client.get(share_url(link))
    html = response.content.decode()
    assert response.status_code == 403
    assert LEGAL_NAME not in html
    assert HEADLINE not in html
    assert "not available" in html


def test_a_share_link_withholds_a_legal_name_in_a_related_row(client, link, draft):
    """The gate reads the story's related rows too, not only its own fields."""
    ProtectedPersonFactory()
    byline = BylineFactory(article=draft, name="كاتب")
    type(byline).objects.filter(pk=byline.pk).update(name=LEGAL_NAME)
    response = client.get(share_url(link))
    assert response.status_code == 403
    assert LEGAL_NAME not in response.content.decode()


@pytest.mark.parametrize("n", [1, 10])
def test_a_share_link_reads_a_fixed_number_of_queries(
    client, link, draft, django_assert_num_queries, n
):
    """The link, the story with its related rows, the gate and the menu: the same
    count with 1 or 10 of every related row."""
    for i in range(n):
        BylineFactory(article=draft, name=f"كاتب {i}")
        ArticlePersonFactory(article=draft)
        SocialPostFactory(article=draft)
        AttributionFactory(article=draft)
    url = share_url(link)
    # link, article, 6 related lists (corrections included), the sources whose
    # accounts posted the posts, related stories, protected people, section menu,
    # breaking-news banner, and the live entries the gate reads (never prefetched)
    with django_assert_num_queries(14):
        assert client.get(url).status_code == 200


# ------------------------------------------------------------ revoking


def test_revoking_through_the_admin_closes_the_link(english_admin, client, link):
    """The Revoke button stops the link, records it, and the list drops it."""
    revoke = reverse(
        "admin:articles_article_preview_revoke", args=[link.article_id, link.pk]
    )
    url = share_url(link)
    assert english_admin.post(revoke).status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert AuditEvent.objects.filter(action=Action.PREVIEW_REVOKED).count() == 1
    assert client.get(url).status_code == 410
    html = english_admin.get(change_url(link.article)).content.decode()
    assert link.token not in html
    assert "No active preview links." in html


def test_revoking_needs_the_change_permission(client, link):
    """A user who may only view stories cannot revoke a link."""
    client.force_login(staff("articles.view_article"))
    revoke = reverse(
        "admin:articles_article_preview_revoke", args=[link.article_id, link.pk]
    )
    assert client.post(revoke).status_code == 403
    link.refresh_from_db()
    assert link.revoked_at is None


def test_revoking_twice_records_one_event(editor, link):
    """A second revocation changes nothing."""
    preview_link_revoke(link=link, by=editor)
    preview_link_revoke(link=link, by=editor)
    assert AuditEvent.objects.filter(action=Action.PREVIEW_REVOKED).count() == 1


def test_a_killed_story_is_gone_from_its_share_links(client, link, draft):
    """Killing a story closes its preview links too (410, nothing shown)."""
    from articles.models import Article, Status

    Article.objects.filter(pk=draft.pk).update(status=Status.KILLED)
    response = client.get(share_url(link))
    assert response.status_code == 410
    assert draft.headline_ar not in response.content.decode()


def test_a_share_link_page_gives_no_headline_to_link_unfurlers(client, link, draft):
    """No OpenGraph or canonical on a preview: chat apps cannot unfurl the draft."""
    html = client.get(share_url(link)).content.decode()
    assert 'property="og:title"' not in html
    assert 'rel="canonical"' not in html
