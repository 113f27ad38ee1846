"""Refusals by the identity gate are evidence: each door records who was refused,
where and in which fields (never the name), in a record the rollback of the refused
write does not undo; repeated refusals pause the user's saves of new text and
imports, and the identity officers are told."""

import io
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation
from taggit.models import Tag

from articles.audit_actions import Action
from articles.forms import ArticleAdminForm
from articles.models import Article, Status
from articles.services import (
    StoryEdit,
    article_save,
    article_unpublish,
    correction_add,
    tag_save,
)
from audit.models import AuditEvent
from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS
from identity.gate import IdentityLeakError
from identity.refusals import SavesPausedError
from ingest.problems import StoryImportError
from ingest.result import Confirmation
from ingest.services import story_import
from tests.admin_forms import change_form_data
from tests.factories import (
    ArticleFactory,
    DraftArticleFactory,
    ProtectedPersonFactory,
    SuperuserFactory,
    member_of,
)

LEGAL_NAME = ProtectedPersonFactory.name
LATIN = "Yousef al-Mansouri"
SPELLINGS = (LEGAL_NAME, LATIN, "المنصوري", "Mansouri", "YousefAlMansouri")


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def protected(db):
    return ProtectedPersonFactory(other_spellings=LATIN)


@pytest.fixture
def reporter(db):
    return member_of(REPORTERS, username="reporter")


def refusals(user=None):
    events = AuditEvent.objects.filter(action=Action.IDENTITY_REFUSED)
    return events.filter(actor=user) if user is not None else events


def leaking_edit(user, n: int = 0) -> StoryEdit:
    article = Article(language="en", headline_en=f"Meeting {LATIN} ({n})")
    return StoryEdit(article=article)


def assert_no_name(*texts: str) -> None:
    for text in texts:
        for spelling in SPELLINGS:
            assert spelling not in text, text


def logged_in(client, user, settings):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


# ------------------------------------------------------------ each door records


@pytest.mark.django_db
def test_a_refused_story_save_is_recorded_with_user_door_and_field(protected, reporter):
    """The service called directly: the refusal, then the record of it."""
    with pytest.raises(IdentityLeakError):
        article_save(edit=leaking_edit(reporter), by=reporter)
    (event,) = refusals()
    assert event.actor == reporter and event.object_id == str(reporter.pk)
    # The address made from the headline would carry the name too.
    assert event.message == "story save: headline [en], slug [en]"
    assert_no_name(event.message, event.object_repr)
    assert not Article.objects.exists()


@pytest.mark.django_db
def test_the_change_form_records_the_refusal_it_shows(
    protected, reporter, client, settings
):
    """A Reporter's own draft, edited over HTTP: the form's check is the door."""
    client = logged_in(client, reporter, settings)
    article = DraftArticleFactory(created_by=reporter, headline_en="A story")
    url = reverse("admin:articles_article_change", args=[article.pk])
    data = change_form_data(client.get(url))
    data["summary_en"] = f"About {LATIN}"
    response = client.post(url, data)
    assert response.status_code == 200
    (event,) = refusals(reporter)
    assert event.message == "story save: summary [en]"


@pytest.mark.django_db
def test_a_refusal_at_save_time_survives_the_admins_rollback(
    protected, client, settings, monkeypatch
):
    """When the form's check passed and the service refuses (someone protected the
    name meanwhile), the view's transaction rolls back with the record in it: the
    admin writes it again once it has caught the refusal."""
    editor = member_of(EDITORS)
    client = logged_in(client, editor, settings)
    monkeypatch.setattr(ArticleAdminForm, "check_submission", lambda *a: None)
    article = DraftArticleFactory(headline_en="A story")
    url = reverse("admin:articles_article_change", args=[article.pk])
    data = change_form_data(client.get(url))
    data["summary_en"] = f"About {LATIN}"
    response = client.post(url, data)
    assert response.status_code == 302
    (event,) = refusals(editor)
    assert event.message == "story save: summary [en]"
    article.refresh_from_db()
    assert not article.summary_en


@pytest.mark.django_db
def test_the_correction_door_records_its_refusal(protected):
    editor = member_of(EDITORS)
    with pytest.raises(IdentityLeakError):
        correction_add(
            article=ArticleFactory(), by=editor, kind="correction", text_en=LATIN
        )
    (event,) = refusals(editor)
    assert event.message == "correction: correction: text [en]"


@pytest.mark.django_db
def test_the_tag_door_records_its_refusal(protected, client, settings):
    """A tag added on the tag admin's form, over HTTP."""
    editor = member_of(EDITORS)
    client = logged_in(client, editor, settings)
    response = client.post(
        reverse("admin:taggit_tag_add"), {"name": LATIN, "slug": "witness-file"}
    )
    assert response.status_code == 200
    (event,) = refusals(editor)
    # Both fields the form filled, not only the one holding the name.
    assert event.message == "tag save: tag: name, tag: slug"
    assert not Tag.objects.exists()


@pytest.mark.django_db
def test_the_person_door_records_its_refusal(protected, reporter, client, settings):
    """Another person's public name holding the legal name, over HTTP."""
    client = logged_in(client, reporter, settings)
    response = client.post(
        reverse("admin:identity_person_add"),
        {
            "name": "سامي",
            "public_name": f"{LEGAL_NAME} الثاني",
            "aliases": "",
            "description_ar": "",
            "description_en": "",
        },
    )
    assert response.status_code == 200
    (event,) = refusals(reporter)
    # Every field the form filled, not only the one holding the name.
    assert event.message == "person save: person: public name, person: name"


@pytest.mark.django_db
def test_the_import_page_records_each_refused_preview_once(
    protected, reporter, client, settings
):
    """A preview is what someone guessing names would use: it counts. Confirming
    refused copy records no second refusal for the same click."""
    client = logged_in(client, reporter, settings)
    url = reverse("admin:articles_article_import")
    text = f"عنوان الخبر\n\nقال {LATIN} إن الملفات نقلت."
    client.post(url, {"text": text})
    client.post(url, {"text": text, "confirm": "1"})
    events = list(refusals(reporter))
    assert [e.message for e in events] == ["import: the copy"] * 2
    assert not Article.objects.exists()


@pytest.mark.django_db
def test_a_disguised_name_in_the_copy_is_recorded_at_the_import_door(
    protected, reporter, client, settings
):
    """A name split by quotes and a digit is refused (the matcher reads it as its
    words near each other) and recorded by door, never the name or its place."""
    client = logged_in(client, reporter, settings)
    text = "لقاء في المدينة القديمة\n\nوصل المدعو «يوسف»1«المنصوري» إلى الساحة."
    client.post(reverse("admin:articles_article_import"), {"text": text})
    (event,) = refusals(reporter)
    assert event.message == "import: the copy"
    assert "المنصوري" not in event.message


@pytest.mark.django_db(transaction=True)
def test_a_refusal_inside_the_imports_transaction_is_kept():
    """The import saves its story in a transaction that the refusal rolls back; the
    record is written after it, and is really there (no test transaction here)."""
    ProtectedPersonFactory(other_spellings=LATIN)
    # No groups here: a test that truly commits must not rely on migrated rows.
    reporter = SuperuserFactory(username="reporter")
    # Copy the preview's check lets through, but the story's rows do not: a tag
    # whose address holds the name, which only the saved rows carry.
    Tag.objects.create(name="ملف الشاهد", slug="yousef-al-mansouri-file")
    text = "ملف الشاهد\n\nنشرت الوثائق في ملف الشاهد اليوم."
    with pytest.raises(StoryImportError) as refused:
        story_import(
            text=text,
            by=reporter,
            confirmation=Confirmation(tags=["ملف الشاهد"]),
        )
    assert any(p.code == "protected_name" for p in refused.value.problems)
    assert not Article.objects.exists()
    (event,) = refusals(reporter)
    assert event.message == "import: tag: slug"


@pytest.mark.django_db(transaction=True)
def test_a_refused_service_call_leaves_its_record_outside_the_transaction():
    """Called with no transaction around it (a shell, a command), the service's own
    transaction rolls back and the record stays."""
    ProtectedPersonFactory(other_spellings=LATIN)
    reporter = SuperuserFactory(username="reporter")
    with pytest.raises(IdentityLeakError):
        article_save(edit=leaking_edit(reporter), by=reporter)
    assert refusals(reporter).count() == 1
    assert not Article.objects.exists()


# ------------------------------------------------------------ repeated refusals


@pytest.mark.django_db
def test_five_refusals_within_the_hour_pause_saves_and_tell_the_officers(
    protected, reporter, django_capture_on_commit_callbacks
):
    """The fifth refusal pauses the user's saves of new text; the officers get an
    audit event and an e-mail, none of which holds the name."""
    officer = member_of(IDENTITY_OFFICERS, email="officer@example.com")
    member_of(IDENTITY_OFFICERS, email="", username="no-mail-officer")
    member_of(EDITORS, email="editor@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(4):
            with pytest.raises(IdentityLeakError):
                article_save(edit=leaking_edit(reporter, n), by=reporter)
    assert not AuditEvent.objects.filter(action=Action.SAVES_PAUSED).exists()
    assert mail.outbox == []
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(IdentityLeakError),
    ):
        article_save(edit=leaking_edit(reporter, 5), by=reporter)
    paused = AuditEvent.objects.get(action=Action.SAVES_PAUSED)
    assert paused.object_id == str(reporter.pk)
    assert "5 refusals" in paused.message and "story save" in paused.message
    (message,) = mail.outbox
    assert message.to == [officer.email]
    assert "reporter" in message.subject and "paused" in message.body
    assert_no_name(paused.message, message.subject, message.body)
    # Clean text is paused too: the door is shut, the gate is not consulted.
    clean = StoryEdit(article=Article(language="en", headline_en="Harmless"))
    with pytest.raises(SavesPausedError) as shut:
        article_save(edit=clean, by=reporter)
    assert "paused until" in shut.value.messages[0]
    assert not Article.objects.exists()
    assert refusals(reporter).count() == 5


@pytest.mark.django_db
def test_a_paused_user_is_told_on_the_import_page_and_the_change_form(
    protected, reporter, client, settings
):
    """The Import page and the story form say saves are paused, and run no gate."""
    for n in range(5):
        with pytest.raises(IdentityLeakError):
            article_save(edit=leaking_edit(reporter, n), by=reporter)
    client = logged_in(client, reporter, settings)
    url = reverse("admin:articles_article_import")
    preview = client.post(url, {"text": "عنوان الخبر\n\nفقرة عادية لا شيء فيها."})
    assert "are paused until" in preview.content.decode()
    assert not preview.context["can_import"]
    article = DraftArticleFactory(created_by=reporter, headline_en="A story")
    change = reverse("admin:articles_article_change", args=[article.pk])
    data = change_form_data(client.get(change))
    data["summary_en"] = f"About {LATIN}"
    response = client.post(change, data)
    assert response.status_code == 200
    assert "are paused until" in response.content.decode()
    assert refusals(reporter).count() == 5  # the gate did not even look


@pytest.mark.django_db
def test_the_import_command_is_paused_too(protected, reporter, tmp_path):
    """import_story --user runs the same door."""
    for n in range(5):
        with pytest.raises(IdentityLeakError):
            article_save(edit=leaking_edit(reporter, n), by=reporter)
    path = tmp_path / "story.txt"
    path.write_text("عنوان الخبر\n\nفقرة عادية.", encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command(
            "import_story",
            str(path),
            "--user",
            "reporter",
            stdout=io.StringIO(),
            stderr=err,
        )
    assert "paused until" in err.getvalue()


@pytest.mark.django_db
def test_the_pause_lifts_after_the_hour_and_the_count_starts_again(protected, reporter):
    """After the pause, earlier refusals no longer count towards another."""
    for n in range(5):
        with pytest.raises(IdentityLeakError):
            article_save(edit=leaking_edit(reporter, n), by=reporter)
    past = timezone.now() - timedelta(minutes=61)
    AuditEvent.objects.filter(action=Action.SAVES_PAUSED).update(at=past)
    AuditEvent.objects.filter(action=Action.IDENTITY_REFUSED).update(
        at=past - timedelta(minutes=1)
    )
    clean = StoryEdit(article=Article(language="en", headline_en="Harmless"))
    article_save(edit=clean, by=reporter)
    with pytest.raises(IdentityLeakError):
        article_save(edit=leaking_edit(reporter, 9), by=reporter)
    assert AuditEvent.objects.filter(action=Action.SAVES_PAUSED).count() == 1


@pytest.mark.django_db
def test_refusals_count_per_user_and_within_the_hour(protected, reporter):
    """Another user's refusals, and one's own from over an hour ago, do not count."""
    other = member_of(REPORTERS, username="other")
    for n in range(3):
        with pytest.raises(IdentityLeakError):
            article_save(edit=leaking_edit(other, n), by=other)
    AuditEvent.objects.filter(action=Action.IDENTITY_REFUSED).update(
        at=timezone.now() - timedelta(minutes=90)
    )
    for n in range(4):
        with pytest.raises(IdentityLeakError):
            article_save(edit=leaking_edit(reporter, n), by=reporter)
    with pytest.raises(IdentityLeakError):
        article_save(edit=leaking_edit(other, 7), by=other)
    assert not AuditEvent.objects.filter(action=Action.SAVES_PAUSED).exists()
    tag_save(tag=Tag(name="خبر", slug="khabar"), by=member_of(EDITORS))


@pytest.mark.django_db
def test_moves_and_deletions_are_not_paused(protected, reporter):
    """A pause holds back new text; an editor can still take a story down."""
    editor = member_of(EDITORS)
    for n in range(5):
        with pytest.raises(IdentityLeakError):
            article_save(edit=leaking_edit(editor, n), by=editor)
    story = ArticleFactory()
    article_unpublish(article=story, by=editor)
    story.refresh_from_db()
    assert story.status == Status.DRAFT
