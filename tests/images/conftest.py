import tempfile
from pathlib import Path

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def media(settings):
    """A media folder of the test's own, removed afterwards, so a test can tell
    that nothing was stored."""
    with tempfile.TemporaryDirectory(prefix="newsroom-images-") as folder:
        settings.MEDIA_ROOT = folder
        yield Path(folder)


@pytest.fixture(autouse=True)
def english_messages():
    """Messages are read in English here; the Arabic catalog has its own check."""
    with translation.override("en"):
        yield


def stored_files(media: Path) -> list[Path]:
    return [path for path in media.rglob("*") if path.is_file()]


@pytest.fixture
def admin_client(client, editor, settings):
    """A superuser whose admin speaks English (the language menu's cookie)."""
    client.force_login(editor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
