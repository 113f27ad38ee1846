"""The bounds every admin puts on query values (core.admin_mixins.QueryBoundsMixin)."""

import pytest
from django.apps import apps
from django.contrib import admin

from articles.models import Article
from core.admin_mixins import QueryBoundsMixin
from tests.factories import SectionFactory

pytestmark = pytest.mark.django_db

STORIES = "/admin/articles/article/"


def test_every_registered_admin_has_the_bounds():
    """The site gives the bounds to every admin, the libraries' too."""
    registered = [m for m in apps.get_models() if admin.site.is_registered(m)]
    assert len(registered) > 10
    for model in registered:
        assert isinstance(admin.site.get_model_admin(model), QueryBoundsMixin)


def test_an_admin_s_own_initial_values_are_kept(rf, db):
    """Only the address's text is checked: what an admin adds itself (an object, a
    key that is no field) is left as it gave it."""
    section = SectionFactory()

    class StoryAdmin(admin.ModelAdmin):
        def get_changeform_initial_data(self, request):
            found = super().get_changeform_initial_data(request)
            return {**found, "section": section, "note": "x"}

    guarded = type("StoryAdmin", (QueryBoundsMixin, StoryAdmin), {})
    model_admin = guarded(Article, admin.site)
    request = rf.get(f"{STORIES}add/", {"slug": "a", "hero_image": "abc"})
    assert model_admin.get_changeform_initial_data(request) == {
        "slug": "a",
        "section": section,
        "note": "x",
    }
