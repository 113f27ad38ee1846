"""The demo newsroom loads and reloads cleanly."""

from io import StringIO

import pytest
from django.core.management import call_command

from articles.models import Article, Person
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
