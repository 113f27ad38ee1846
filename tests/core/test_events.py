"""Every service that changes what readers or partners see sends its domain event
once its transaction commits, and none when it rolls back.

The services are found, not listed: every public function of the apps' service
modules that takes the actor as `by` is either declared with `@events.sends` (and
called here), passes through one that is, or is named below as changing nothing
public. A new service fails this test until it is one of the three.
"""

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone
from taggit.models import Tag

from articles.models import Section, Status
from articles.revisions import revisions_of
from articles.services import (
    StoryEdit,
    article_approve,
    article_delete,
    article_kill,
    article_publish,
    article_restore,
    article_save,
    article_send_back,
    article_submit,
    article_unpublish,
    article_withdraw_to_protect,
    correction_add,
    image_delete,
    image_save,
    section_delete,
    section_save,
    staff_save,
    tag_delete,
    tag_merge,
    tag_save,
)
from core import events
from distribution.models import Delivery, Event, Partner, Release, WebhookEndpoint
from distribution.services import partner_save
from distribution.webhooks.services import delivery_replay
from identity.models import Person
from identity.services import person_delete, person_save
from images.models import Image
from live.services import (
    live_end,
    live_entry_add,
    live_entry_change,
    live_entry_correct,
    live_entry_delete,
    live_entry_pin,
    live_pause,
    live_start,
)
from sources.models import Source
from sources.services import source_delete, source_save
from tests.factories import (
    ArticleFactory,
    BylineFactory,
    DraftArticleFactory,
    ImageFactory,
    PersonFactory,
    SectionFactory,
    SourceFactory,
    SuperuserFactory,
    UserFactory,
)
from tests.images.pictures import photo_bytes, upload

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent

# Services that change nothing a reader or a partner is shown, and why.
CHANGE_NOTHING_PUBLIC = {
    "audit.services.audit_record": "the trail itself",
    "articles.services.previews.preview_link_create": "a preview is private",
    "articles.services.previews.preview_link_revoke": "a preview is private",
    "distribution.services.partner_save": "partners' settings show nowhere",
    "distribution.services.partner_delete": "partners' settings show nowhere",
    "distribution.services.partner_key_create": "partners' settings show nowhere",
    "distribution.services.partner_key_revoke": "partners' settings show nowhere",
    "distribution.webhooks.services.webhook_save": "partners' settings",
    "distribution.webhooks.services.webhook_delete": "partners' settings",
    "distribution.webhooks.services.webhook_secret_rotate": "partners' settings",
    "wire.services.wire_prune": "agency copy nobody took",
}
# Services whose event is sent by the declared service or the shared save they
# call (`row_save`, `row_delete` send the event their caller names).
THROUGH_ANOTHER = {
    "articles.services.base.row_save": "the event its caller names",
    "audit.services.row_delete": "the event its caller names",
    "ingest.services.story_import": "article_save",
    "wire.services.story_update": "article_save",
    "wire.services.wire_take": "article_save",
    "wire.services.wire_update_apply": "article_save",
    "wire.services.channel_save": "row_save (wire_settings_changed)",
    "wire.services.topic_section_save": "row_save (wire_settings_changed)",
}


def service_modules() -> list[str]:
    """The dotted names of every app's service modules."""
    paths = [*ROOT.glob("*/services.py"), *ROOT.glob("*/*/services.py")]
    paths += [p for p in ROOT.glob("*/services/*.py") if p.name != "__init__.py"]
    names = []
    for path in sorted(paths):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[0] not in {"tests", "scripts", ".venv"}:
            names.append(".".join(parts))
    return names


def services_found() -> set[str]:
    """Every public function of the service modules that takes `by` by keyword."""
    found = set()
    for name in service_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith("_") or not inspect.isfunction(value):
                continue
            if value.__module__ != name:
                continue  # imported from elsewhere
            by = inspect.signature(value).parameters.get("by")
            if by is not None and by.kind is inspect.Parameter.KEYWORD_ONLY:
                found.add(f"{name}.{attr}")
    return found


# ------------------------------------------------------------ what each one does

Call = Callable[[], object]


def _draft(status=Status.DRAFT):
    return DraftArticleFactory(status=status)


def _live(by):
    story = ArticleFactory(headline_en="Earthquake live")
    live_start(article=story, by=by)
    return story


def _entry(by):
    return live_entry_add(article=_live(by), by=by, body={"ar": "<p>وصلت الفرق.</p>"})


def _replayable(by):
    partner = partner_save(partner=Partner(name="Gulf Daily"), by=by)
    endpoint = WebhookEndpoint.objects.create(
        # Nothing listens on the discard port: the try after commit fails at once.
        partner=partner,
        url="http://127.0.0.1:9/hook",
        events=Event.values,
    )
    now = timezone.now()
    release = Release.objects.create(
        article=ArticleFactory(),
        language="ar",
        event=Event.PUBLISHED,
        version=1,
        version_created=now,
        visible_at=now,
    )
    return Delivery.objects.create(
        endpoint=endpoint,
        release=release,
        event=Event.PUBLISHED,
        message_id="msg_replayed",
        body="{}",
        status=Delivery.Status.FAILED,
    )


SCENARIOS: dict[str, Callable[[object], Call]] = {}


def scenario(service: str) -> Callable:
    """Register how a test calls `service`: the function makes the rows it needs
    and returns the call itself."""

    def register(make: Callable[[object], Call]) -> Callable[[object], Call]:
        SCENARIOS[service] = make
        return make

    return register


@scenario("articles.services.desk.section_save")
def adding_a_section(by):
    section = Section(name_ar="قسم الرياضة", slug="sport")
    return lambda: section_save(section=section, by=by)


@scenario("articles.services.desk.section_delete")
def deleting_a_section(by):
    section = SectionFactory()
    return lambda: section_delete(section=section, by=by)


@scenario("articles.services.desk.tag_save")
def adding_a_tag(by):
    tag = Tag(name="انتخابات", slug="elections")
    return lambda: tag_save(tag=tag, by=by)


@scenario("articles.services.desk.tag_delete")
def deleting_a_tag(by):
    tag = Tag.objects.create(name="قديم", slug="old")
    return lambda: tag_delete(tag=tag, by=by)


@scenario("articles.services.desk.tag_merge")
def merging_tags(by):
    tags = [
        Tag.objects.create(name="سجن", slug="prison"),
        Tag.objects.create(name="سجون", slug="prisons"),
    ]
    return lambda: tag_merge(tags=tags, into="ملف السجون", by=by)


@scenario("articles.services.stories.article_save")
def saving_a_story(by):
    story = _draft()
    return lambda: article_save(edit=StoryEdit(article=story), by=by)


@scenario("articles.services.stories.article_restore")
def restoring_a_revision(by):
    story = _draft()
    article_save(edit=StoryEdit(article=story), by=by)
    first = revisions_of(story).first()
    story.headline_ar = "عنوان آخر"
    article_save(edit=StoryEdit(article=story), by=by)
    return lambda: article_restore(article=story, by=by, revision=first)


def _move(service: Callable, status=Status.DRAFT, factory=None, **kwargs):
    def make(by):
        story = (factory or DraftArticleFactory)(status=status)
        return lambda: service(article=story, by=by, **kwargs)

    return make


for _service, _make in {
    "article_submit": _move(article_submit),
    "article_approve": _move(article_approve, Status.IN_REVIEW),
    "article_send_back": _move(article_send_back, Status.IN_REVIEW),
    "article_publish": _move(article_publish),
    "article_unpublish": _move(article_unpublish, Status.PUBLISHED, ArticleFactory),
    "article_withdraw_to_protect": _move(
        article_withdraw_to_protect, Status.PUBLISHED, ArticleFactory
    ),
    "article_kill": _move(
        article_kill, Status.PUBLISHED, ArticleFactory, reason="a court order"
    ),
    "article_delete": _move(article_delete),
}.items():
    scenario(f"articles.services.stories.{_service}")(_make)


@scenario("articles.services.corrections.correction_add")
def correcting_a_story(by):
    story = ArticleFactory()
    return lambda: correction_add(
        article=story, by=by, kind="correction", text_ar="صُحّح الرقم."
    )


@scenario("identity.services.person_save")
def adding_a_person(by):
    person = Person(name="شاهد مجهول", public_name="الشاهد")
    return lambda: person_save(person=person, by=by)


@scenario("identity.services.person_delete")
def deleting_a_person(by):
    person = PersonFactory()
    return lambda: person_delete(person=person, by=by)


@scenario("articles.services.images.image_save")
def uploading_an_image(by):
    image = Image(file=upload(photo_bytes((400, 300)), "p.jpg"), title_ar="صورة")
    return lambda: image_save(image=image, by=by)


@scenario("articles.services.images.image_delete")
def deleting_an_image(by):
    image = ImageFactory()
    return lambda: image_delete(image=image, by=by)


@scenario("articles.services.staff.staff_save")
def renaming_a_byline(by):
    user = UserFactory(first_name="سامي")
    BylineFactory(user=user, article=ArticleFactory())
    user.first_name = "سامر"
    return lambda: staff_save(user=user, by=by)


@scenario("sources.services.source_save")
def adding_a_source(by):
    source = Source(name_ar="وكالة الأنباء", slug="agency")
    return lambda: source_save(source=source, by=by)


@scenario("sources.services.source_delete")
def deleting_a_source(by):
    source = SourceFactory()
    return lambda: source_delete(source=source, by=by)


@scenario("live.services.live_start")
def starting_live_coverage(by):
    story = ArticleFactory()
    return lambda: live_start(article=story, by=by)


@scenario("live.services.live_pause")
def pausing_live_coverage(by):
    story = _live(by)
    return lambda: live_pause(article=story, by=by)


@scenario("live.services.live_end")
def ending_live_coverage(by):
    story = _live(by)
    return lambda: live_end(article=story, by=by)


@scenario("live.services.live_entry_add")
def adding_an_entry(by):
    story = _live(by)
    return lambda: live_entry_add(article=story, by=by, body={"ar": "<p>خبر</p>"})


@scenario("live.services.live_entry_change")
def changing_an_entry(by):
    entry = _entry(by)
    return lambda: live_entry_change(
        entry=entry, by=by, body={"ar": "<p>وصلت الفرق كلها.</p>"}
    )


@scenario("live.services.live_entry_pin")
def pinning_an_entry(by):
    entry = _entry(by)
    return lambda: live_entry_pin(entry=entry, by=by, pinned=True)


@scenario("live.services.live_entry_correct")
def correcting_an_entry(by):
    entry = _entry(by)
    return lambda: live_entry_correct(entry=entry, by=by, text={"ar": "كانت فرقتين."})


@scenario("live.services.live_entry_delete")
def deleting_an_entry(by):
    entry = _entry(by)
    return lambda: live_entry_delete(entry=entry, by=by, reason="مكرر")


@scenario("distribution.webhooks.services.delivery_replay")
def replaying_a_delivery(by):
    delivery = _replayable(by)
    return lambda: delivery_replay(delivery=delivery, by=by)


class RolledBack(Exception):
    pass


@pytest.fixture
def chief():
    return SuperuserFactory(username="chief")


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def test_every_service_is_declared_passes_through_one_or_changes_nothing_public():
    """A service that takes `by` says what it sends, or why it sends nothing."""
    declared = set(events.senders())
    assert services_found() == (
        declared | set(THROUGH_ANOTHER) | set(CHANGE_NOTHING_PUBLIC)
    )
    assert not declared & (set(THROUGH_ANOTHER) | set(CHANGE_NOTHING_PUBLIC))


def test_every_declared_service_is_called_here():
    """The table of calls below covers exactly the declared services."""
    assert set(SCENARIOS) == set(events.senders())


def test_every_event_is_sent_by_something():
    """No event is left that nothing sends: each is declared by a service, but the
    renditions job's and the one wire's settings send through row_save."""
    sent = {e for _service, declared in events.senders().values() for e in declared}
    assert set(events.all_events()) - sent == {
        events.image_renditions_made,
        events.wire_settings_changed,
    }


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_service_sends_its_event_only_after_commit(
    name, chief, heard, django_capture_on_commit_callbacks
):
    """Nothing is heard while the change is uncommitted; once it commits, the
    service's declared events are, and no other."""
    call = SCENARIOS[name](chief)
    heard.clear()  # what the rows made above sent
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        call()
    assert heard == []
    for callback in callbacks:
        callback()
    declared = {event.name for event in events.senders()[name][1]}
    sent = {event_name for event_name, _sender, _action in heard}
    assert sent and sent <= declared


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_service_sends_nothing_when_its_transaction_rolls_back(
    name, chief, heard, django_capture_on_commit_callbacks
):
    """A change rolled back is never announced."""
    call = SCENARIOS[name](chief)
    heard.clear()
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RolledBack),
        transaction.atomic(),
    ):
        call()
        raise RolledBack
    assert heard == []
    assert callbacks == []
