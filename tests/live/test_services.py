"""The live desk's services: who may do what, the identity gate, the audit trail
and the announcement after commit."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from articles.models import Article
from audit.models import AuditEvent
from identity.gate import IdentityLeakError
from live.models import LiveCoverage, LiveEntry
from live.services import (
    live_end,
    live_entry_change,
    live_entry_correct,
    live_entry_delete,
    live_entry_pin,
    live_pause,
    live_start,
)
from tests.factories import ArticleFactory, ProtectedPersonFactory
from tests.live.conftest import LEGAL_NAME, add

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    """The messages are matched in English (the desk's default is Arabic)."""
    with translation.override("en"):
        yield


def test_an_editor_starts_a_live_coverage(desk_editor):
    """Starting makes the story a live coverage, live from now."""
    article = ArticleFactory()
    coverage = live_start(article=article, by=desk_editor)
    assert coverage.state == LiveCoverage.State.LIVE
    assert coverage.started_at is not None


def test_a_reporter_may_not_start_a_coverage(reporter):
    """Running the coverage is the editors' call."""
    with pytest.raises(PermissionDenied):
        live_start(article=ArticleFactory(), by=reporter)


def test_a_reporter_adds_an_entry(live_story, reporter):
    """A plain member of Reporters posts an entry, signed with their name."""
    entry = add(live_story, reporter)
    assert entry.author == reporter
    assert LiveEntry.objects.filter(article=live_story).count() == 1


def test_an_entry_is_sanitized_with_the_body_allow_list(live_story, reporter):
    """A script in an entry never reaches the database."""
    entry = add(live_story, reporter, text="<p>نص<script>alert(1)</script></p>")
    entry.refresh_from_db()
    assert "script" not in entry.body_ar
    assert "نص" in entry.body_ar


def test_an_empty_entry_is_refused(live_story, reporter):
    """An entry with no text, post or picture says what is missing."""
    with pytest.raises(ValidationError, match="Write the entry"):
        add(live_story, reporter, text="  ")


def test_no_entry_before_the_coverage_starts(reporter):
    """A story that is not live takes no entries."""
    with pytest.raises(ValidationError, match="Start the live coverage"):
        add(ArticleFactory(), reporter)


def test_the_gate_refuses_a_protected_legal_name_in_an_entry(live_story, reporter):
    """A protected person's legal name in an entry is refused, with the message
    the gate gives everywhere, and nothing is written."""
    ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError) as refused:
        add(live_story, reporter, text=f"<p>قال {LEGAL_NAME} للصحفيين</p>")
    assert "live entry: text [ar]" in refused.value.messages[0]
    assert "Use the public name" in refused.value.messages[0]
    assert not LiveEntry.objects.exists()


def test_the_gate_refuses_a_legal_name_in_a_headline_change(live_story, reporter):
    """Changing an entry passes the gate too."""
    entry = add(live_story, reporter)
    ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError):
        live_entry_change(
            entry=entry, by=reporter, headline={"ar": LEGAL_NAME}, body={"ar": "نص"}
        )


def test_the_gate_refuses_a_legal_name_in_a_correction(live_story, desk_editor):
    """A correction printed on an entry passes the gate too."""
    entry = add(live_story, desk_editor)
    ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError):
        live_entry_correct(entry=entry, by=desk_editor, text={"ar": LEGAL_NAME})


def test_a_refusal_is_recorded_at_the_live_entry_door(live_story, reporter):
    """The refusal is evidence, recorded like any other door's."""
    ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError):
        add(live_story, reporter, text=f"<p>{LEGAL_NAME}</p>")
    event = AuditEvent.objects.get(action="identity_refused")
    assert event.message.startswith("live entry")


def test_adding_an_entry_leaves_the_story_version(live_story, reporter):
    """Entries are rows: the story's version (what its form merges on) stays."""
    version = Article.objects.get(pk=live_story.pk).version
    add(live_story, reporter)
    add(live_story, reporter)
    assert Article.objects.get(pk=live_story.pk).version == version


def test_adding_an_entry_moves_the_story_modified_time(live_story, reporter):
    """Readers and crawlers see the story changed."""
    before = Article.objects.get(pk=live_story.pk).updated_at
    add(live_story, reporter)
    assert Article.objects.get(pk=live_story.pk).updated_at > before


def test_an_entry_is_audited_and_announced_on_commit(
    live_story, reporter, django_capture_on_commit_callbacks, heard
):
    """The audit trail records the entry; caches hear of it after commit."""
    with django_capture_on_commit_callbacks(execute=True):
        entry = add(live_story, reporter)
    assert ("live_entry_changed", LiveEntry, "live_entry_added") in heard
    assert AuditEvent.objects.filter(
        action="live_entry_added", object_id=str(entry.pk)
    ).exists()


def test_an_editor_pins_and_unpins_an_entry(live_story, desk_editor):
    entry = add(live_story, desk_editor)
    assert live_entry_pin(entry=entry, by=desk_editor, pinned=True).is_pinned
    assert not live_entry_pin(entry=entry, by=desk_editor, pinned=False).is_pinned


def test_a_deleted_entry_keeps_its_reason_and_leaves_the_story(live_story, desk_editor):
    """Deleting needs a reason; the row stays for the record, off every page."""
    entry = add(live_story, desk_editor)
    live_entry_delete(entry=entry, by=desk_editor, reason="خبر غير مؤكد")
    assert not LiveEntry.objects.filter(pk=entry.pk).exists()
    kept = LiveEntry.all_entries.get(pk=entry.pk)
    assert kept.deleted_reason == "خبر غير مؤكد"
    assert list(Article.objects.get(pk=live_story.pk).live_entries.all()) == []


def test_deleting_without_a_reason_is_refused(live_story, desk_editor):
    entry = add(live_story, desk_editor)
    with pytest.raises(ValidationError, match="Say why"):
        live_entry_delete(entry=entry, by=desk_editor, reason=" ")


def test_a_reporter_may_not_delete_an_entry(live_story, reporter):
    entry = add(live_story, reporter)
    with pytest.raises(PermissionDenied):
        live_entry_delete(entry=entry, by=reporter, reason="خطأ")


def test_a_correction_is_printed_on_its_entry(live_story, desk_editor):
    entry = add(live_story, desk_editor)
    corrected = live_entry_correct(
        entry=entry, by=desk_editor, text={"ar": "العدد الصحيح 12 لا 20."}
    )
    assert corrected.correction_ar == "العدد الصحيح 12 لا 20."
    assert corrected.corrected_at is not None


def test_pause_then_resume(live_story, desk_editor):
    assert live_pause(article=live_story, by=desk_editor).state == "paused"
    assert live_start(article=live_story, by=desk_editor).state == "live"


def test_an_ended_coverage_takes_no_entries(live_story, desk_editor):
    """Ended is for good: no more entries, no restart."""
    coverage = live_end(article=live_story, by=desk_editor)
    assert coverage.ended_at is not None
    with pytest.raises(ValidationError, match="has ended"):
        add(live_story, desk_editor)
    with pytest.raises(ValidationError, match="has ended"):
        live_start(article=live_story, by=desk_editor)


def test_a_post_of_another_story_is_refused(live_story, desk_editor):
    from tests.factories import SocialPostFactory

    other = SocialPostFactory()
    with pytest.raises(ValidationError, match="another story"):
        add(live_story, desk_editor, post=other)
