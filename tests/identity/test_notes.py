"""A reason typed for the audit trail (a kill's, a deleted live entry's) is a door:
editors read the trail with legal names redacted, which would show its author
whose name the one they typed is."""

import pytest

from articles.models import Article, Status
from articles.services import article_kill
from core.roles import EDITORS
from identity.gate import IdentityLeakError
from live.models import LiveEntry
from live.services import live_entry_add, live_entry_delete, live_start
from tests.factories import ArticleFactory, ProtectedPersonFactory, member_of

pytestmark = pytest.mark.django_db

LEGAL_NAME = "يوسف المنصوري"


@pytest.fixture
def editor():
    ProtectedPersonFactory(name=LEGAL_NAME, public_name="الشاهد")
    return member_of(EDITORS, username="notes-editor")


def test_a_kill_whose_reason_names_a_protected_person_is_refused(editor):
    story = ArticleFactory()
    with pytest.raises(IdentityLeakError):
        article_kill(article=story, by=editor, reason=f"بطلب من {LEGAL_NAME}")
    assert Article.objects.get(pk=story.pk).status == Status.PUBLISHED


def test_a_live_entry_deleted_with_such_a_reason_stays(editor):
    story = ArticleFactory()
    live_start(article=story, by=editor)
    entry = live_entry_add(article=story, by=editor, body={"ar": "<p>تحديث</p>"})
    with pytest.raises(IdentityLeakError):
        live_entry_delete(entry=entry, by=editor, reason=f"حذف بطلب من {LEGAL_NAME}")
    assert LiveEntry.objects.get(pk=entry.pk).deleted_at is None


def test_a_reason_naming_anyone_else_is_kept(editor):
    story = ArticleFactory()
    article_kill(article=story, by=editor, reason="بطلب من سامر الحلبي")
    assert Article.objects.get(pk=story.pk).status == Status.KILLED
