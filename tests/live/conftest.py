import pytest

from core.roles import EDITORS, REPORTERS
from live.services import live_entry_add, live_start
from tests.factories import ArticleFactory, member_of

LEGAL_NAME = "يوسف المنصوري"


@pytest.fixture
def desk_editor(db):
    return member_of(EDITORS, username="live-editor", first_name="منى")


@pytest.fixture
def reporter(db):
    return member_of(REPORTERS, username="live-reporter", first_name="Sami")


@pytest.fixture
def live_story(desk_editor):
    article = ArticleFactory(slug_ar="زلزال", headline_en="Earthquake live")
    live_start(article=article, by=desk_editor)
    return article


def add(article, by, text="<p>وصلت فرق الإنقاذ إلى المدينة.</p>", **kwargs):
    return live_entry_add(article=article, by=by, body={"ar": text}, **kwargs)
