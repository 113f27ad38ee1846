"""The demo newsroom loads and reloads cleanly."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from articles.models import Article
from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, SOURCE_MANAGERS
from identity.models import Person
from sources.models import Source

pytestmark = pytest.mark.django_db


def test_demo_loads_articles_in_both_languages():
    """The demo has Arabic stories, an English one, and a draft."""
    call_command("load_demo", verbosity=0)
    assert Article.objects.published().available_in("ar").count() >= 3
    assert Article.objects.published().available_in("en").exists()
    assert Article.objects.filter(status="draft").exists()


def test_demo_is_idempotent():
    """Loading twice leaves the same rows."""
    call_command("load_demo", verbosity=0)
    counts = (Article.objects.count(), Person.objects.count(), Source.objects.count())
    call_command("load_demo", verbosity=0)
    assert (
        Article.objects.count(),
        Person.objects.count(),
        Source.objects.count(),
    ) == counts


def test_demo_has_a_protected_person_and_an_embedded_post():
    """The seed-shaped story names a protected person and embeds a post."""
    call_command("load_demo", verbosity=0)
    assert Person.objects.filter(identity_protected=True).exists()
    assert Article.objects.published().filter(social_posts__isnull=False).exists()


def test_demo_shows_the_workflow():
    """The demo has a story in review, a scheduled one and an embargoed one."""
    call_command("load_demo", verbosity=0)
    assert Article.objects.filter(status="in_review").exists()
    assert Article.objects.scheduled().exists()
    assert Article.objects.embargoed().exists()


def test_demo_has_a_corrected_story():
    """One published story carries a correction at its end."""
    call_command("load_demo", verbosity=0)
    assert Article.objects.published().filter(corrections__isnull=False).exists()


def test_the_demo_login_says_two_factor_is_skipped(settings):
    """The printed demo login tells that development skips the second factor."""
    settings.DEBUG = True
    out = StringIO()
    call_command("load_demo", "--editor", stdout=out)
    assert "login editor / newsroom-demo" in out.getvalue()
    assert "Two-factor sign-in is skipped in development" in out.getvalue()


def logins(settings) -> str:
    settings.DEBUG = True
    out = StringIO()
    call_command("load_demo", "--accounts", stdout=out)
    return out.getvalue()


def test_the_demo_has_one_login_per_role_and_an_administrator(settings):
    """reporter, editor, sources and officer are plain staff members of their
    role's group only; admin is the one superuser."""
    logins(settings)
    users = get_user_model().objects
    for username, role in [
        ("reporter", REPORTERS),
        ("editor", EDITORS),
        ("sources", SOURCE_MANAGERS),
        ("officer", IDENTITY_OFFICERS),
    ]:
        user = users.get(username=username)
        assert user.is_staff and not user.is_superuser, username
        assert list(user.groups.values_list("name", flat=True)) == [role]
        assert not user.user_permissions.exists()
    assert users.get(username="admin").is_superuser
    assert users.filter(is_superuser=True).count() == 1


def test_every_demo_login_opens_the_admin_with_the_demo_password(client, settings):
    """Each printed login signs in with newsroom-demo."""
    printed = logins(settings)
    for username in ("reporter", "editor", "sources", "officer", "admin"):
        assert f"  {username} " in printed
        signed_in = client.post(
            reverse("admin:login"),
            {"username": username, "password": "newsroom-demo", "next": "/admin/"},
        )
        assert signed_in.status_code == 302, username
        assert client.get(reverse("admin:index")).status_code == 200
        client.logout()


def test_loading_the_accounts_again_puts_an_old_superuser_editor_in_its_place(
    settings,
):
    """The demo's former single login, a superuser named editor, becomes a plain
    editor."""
    get_user_model().objects.create_superuser("editor", password="old")
    logins(settings)
    editor = get_user_model().objects.get(username="editor")
    assert not editor.is_superuser
    assert editor.check_password("newsroom-demo")


def test_the_demo_accounts_are_refused_without_debug(settings):
    """With DEBUG off (production) no login with a known password is made, and no
    demo story either."""
    settings.DEBUG = False
    with pytest.raises(CommandError, match="development only"):
        call_command("load_demo", "--accounts", stdout=StringIO())
    assert not get_user_model().objects.exists()
    assert not Article.objects.exists()


def test_demo_has_a_live_coverage(client):
    """One story is covered live, with a pinned entry and a corrected one, and its
    page shows them."""
    from live.models import LiveEntry

    call_command("load_demo", verbosity=0)
    story = Article.objects.get(live_coverage__state="live")
    entries = LiveEntry.objects.filter(article=story)
    assert entries.filter(is_pinned=True).exists()
    assert entries.exclude(correction_ar="").exists()
    html = client.get(story.get_absolute_url()).content.decode()
    assert "أرقام الطوارئ" in html
