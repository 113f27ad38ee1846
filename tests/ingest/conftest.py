"""Shared rows and samples for the import tests."""

from pathlib import Path

import pytest

from tests.factories import PersonFactory, ProtectedPersonFactory, SourceFactory

SAMPLES = Path(__file__).resolve().parent / "samples"


def sample_bytes(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def sample(name: str) -> str:
    return sample_bytes(name).decode("utf-8-sig")


@pytest.fixture
def newsroom_sources(db):
    """Outlets the samples credit, with the aliases editors type."""
    return {
        "24": SourceFactory(name_ar="موقع 24", name_en="24.ae", domains="24.ae"),
        "afp": SourceFactory(
            name_ar="وكالة الصحافة الفرنسية", name_en="AFP", aliases="أ ف ب\nفرانس برس"
        ),
        "reuters": SourceFactory(name_ar="رويترز", name_en="Reuters"),
        "wam": SourceFactory(
            name_ar="وكالة أنباء الإمارات",
            name_en="Emirates News Agency",
            aliases="وام",
        ),
        "national": SourceFactory(
            name_ar="ذا ناشونال", name_en="The National", domains="thenationalnews.com"
        ),
    }


@pytest.fixture
def newsroom_people(db):
    """A public figure, a revealed source and two protected people."""
    return {
        "assad": PersonFactory(name="بشار الأسد", aliases="الأسد"),
        "sami": PersonFactory(name="أسامة عثمان", public_name="سامي", aliases="سامي"),
        "caesar": PersonFactory(
            name="فريد المصور",
            public_name="قيصر",
            aliases="قيصر\nCaesar",
            identity_protected=True,
        ),
        "witness": ProtectedPersonFactory(),
    }


@pytest.fixture(autouse=True)
def english_messages(settings):
    """Assertions read the English messages; Arabic comes from the translators."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def admin_client(client, editor, settings):
    """A logged-in editor whose admin is in English (the language menu's cookie)."""
    client.force_login(editor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def desk_client(client, settings):
    """A plain member of the Editors group (the import page's users), in English."""
    from core.roles import EDITORS
    from tests.factories import member_of

    client.force_login(member_of(EDITORS, username="desk"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def arabic_desk_client(client, settings):
    """The same editor, with the admin in Arabic (the newsroom's default)."""
    from core.roles import EDITORS
    from tests.factories import member_of

    client.force_login(member_of(EDITORS, username="desk"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    return client
