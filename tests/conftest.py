import pytest

from tests.factories import SuperuserFactory


@pytest.fixture
def editor(db):
    """A superuser editor, as the admin tests log in."""
    return SuperuserFactory(username="chief")


@pytest.fixture
def admin_client(client, editor):
    client.force_login(editor)
    return client
