import shutil

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.utils import translation

from publishing.page_cache import recent_pages, route_parameters
from tests.browser import browser  # noqa: F401 (a fixture for the browser tests)
from tests.factories import SuperuserFactory


@pytest.fixture(autouse=True)
def default_language(settings):
    """A request leaves its language active; each test starts from the default."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with a cold cache, so query counts do not depend on order
    (the worker's own copies of recent pages and routes included)."""
    cache.clear()
    recent_pages.clear()
    route_parameters.cache_clear()
    yield
    cache.clear()
    recent_pages.clear()
    route_parameters.cache_clear()


@pytest.fixture
def editor(db):
    """A superuser editor, as the admin tests log in."""
    return SuperuserFactory(username="chief")


@pytest.fixture
def admin_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture(autouse=True, scope="session")
def remove_test_folders():
    """The test settings' media and static folders go when the run ends."""
    yield
    for folder in (django_settings.MEDIA_ROOT, django_settings.STATIC_ROOT):
        shutil.rmtree(folder, ignore_errors=True)
