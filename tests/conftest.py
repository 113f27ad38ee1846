import shutil

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.utils import translation

from core import events
from identity.cache import current_gate, forget_gate
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
    (the worker's own copies of recent pages, routes and the output check's gate
    included)."""
    cache.clear()
    recent_pages.clear()
    route_parameters.cache_clear()
    forget_gate()
    yield
    cache.clear()
    recent_pages.clear()
    route_parameters.cache_clear()
    forget_gate()


@pytest.fixture(autouse=True)
def identity_gate(request, empty_cache):
    """The output check's gate, loaded before a test that reads the database, as a
    worker loaded it long before a reader came: a request's query count is its own
    (protecting someone during the test loads it again, as it does in a worker)."""
    marker = request.node.get_closest_marker("django_db")
    if marker is not None:
        transaction = marker.kwargs.get("transaction", False)
        request.getfixturevalue("transactional_db" if transaction else "db")
    elif not {"db", "transactional_db"} & set(request.fixturenames):
        return
    current_gate()


@pytest.fixture
def heard():
    """Every domain event sent while the test runs, as (event name, sender, action),
    in order: what the receivers hear."""
    found = []

    def listen(signal, sender, action="", **kwargs):
        found.append((signal.name, sender, action))

    for event in events.all_events():
        event.connect(listen, dispatch_uid="tests.heard")
    yield found
    for event in events.all_events():
        event.disconnect(dispatch_uid="tests.heard")


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


@pytest.fixture
def receiver():
    """A partner's webhook receiver on loopback (tests/distribution/receiver.py)."""
    from tests.distribution.receiver import start_receiver

    receiver, server = start_receiver()
    yield receiver
    server.shutdown()
    server.server_close()
