"""Tags are merged through one door, `tag_merge`: its permission, the identity gate
and the audit. taggit's own merge action and page (no permission check, no gate)
are gone from the tag admin."""

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation
from taggit.models import Tag, TaggedItem

from articles.audit_actions import Action
from articles.services import tag_merge
from audit.models import AuditEvent
from core.roles import EDITORS, REPORTERS
from identity.gate import IdentityLeakError
from tests.factories import (
    ArticleFactory,
    ProtectedPersonFactory,
    UserFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

LEGAL_NAME = ProtectedPersonFactory.name
LATIN = "Yousef al-Mansouri"
MERGE_URL = "admin:taggit_tag_merge_tags"
CHANGELIST = "admin:taggit_tag_changelist"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def tagged():
    """Two published stories with two tags that mean the same thing."""
    ProtectedPersonFactory(other_spellings=LATIN)
    first, second = ArticleFactory(), ArticleFactory()
    first.tags.add("سجن")
    second.tags.add("سجون", "سجن")
    return {
        "stories": (first, second),
        "tags": list(Tag.objects.filter(name__in=["سجن", "سجون"]).order_by("pk")),
    }


def logged_in(client, user, settings):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def merge_page(tags) -> str:
    return f"{reverse(MERGE_URL)}?ids={','.join(str(t.pk) for t in tags)}"


def assert_nothing_merged(tagged) -> None:
    assert sorted(Tag.objects.values_list("name", flat=True)) == ["سجن", "سجون"]
    first, second = tagged["stories"]
    assert set(first.tags.names()) == {"سجن"}
    assert set(second.tags.names()) == {"سجن", "سجون"}


# ------------------------------------------------------------ the service


def test_merging_moves_the_stories_to_one_tag_and_deletes_the_others(tagged):
    """Every story tagged with a merged tag takes the target, once."""
    editor = member_of(EDITORS)
    target = tag_merge(tags=tagged["tags"], into="سجون", by=editor)
    assert list(Tag.objects.values_list("name", flat=True)) == ["سجون"]
    for story in tagged["stories"]:
        assert list(story.tags.names()) == ["سجون"]
    assert TaggedItem.objects.filter(tag=target).count() == 2


def test_a_merge_is_audited_and_announced_after_commit(
    tagged, django_capture_on_commit_callbacks, heard
):
    """The merge leaves its trace (by number) and purges pages once committed."""
    editor = member_of(EDITORS)
    numbers = ", ".join(f"#{t.pk}" for t in tagged["tags"])
    with django_capture_on_commit_callbacks(execute=True):
        target = tag_merge(tags=tagged["tags"], into="ملف السجون", by=editor)
    merged = AuditEvent.objects.get(action=Action.TAGS_MERGED)
    assert merged.actor == editor and merged.object_id == str(target.pk)
    assert merged.message == numbers
    assert AuditEvent.objects.filter(action=Action.DELETED).count() == 2
    assert ("tag_changed", Tag, Action.TAGS_MERGED) in heard


def test_merging_into_a_legal_name_is_refused_by_the_gate(tagged):
    """A target named with a protected legal spelling is refused, naming the field
    and never the name; nothing is created or moved."""
    editor = member_of(EDITORS)
    with pytest.raises(IdentityLeakError) as refused:
        tag_merge(tags=tagged["tags"], into=f"ملف {LEGAL_NAME}", by=editor)
    message = refused.value.messages[0]
    assert "tag: name" in message and LEGAL_NAME not in message
    assert_nothing_merged(tagged)


def test_a_reporter_may_not_merge_through_the_service(tagged):
    """The service checks the permission itself, whoever calls it."""
    with pytest.raises(PermissionDenied) as refused:
        tag_merge(tags=tagged["tags"], into="سجون", by=member_of(REPORTERS))
    assert "may not merge tags" in str(refused.value)
    assert_nothing_merged(tagged)


# ------------------------------------------------------------ the admin


def test_a_reporter_is_offered_no_merge_and_the_merge_page_refuses(
    tagged, client, settings
):
    """A Reporter reads tags, but no action merges them and the page answers 403,
    to a GET and to a POST alike."""
    client = logged_in(client, member_of(REPORTERS), settings)
    listing = client.get(reverse(CHANGELIST))
    assert listing.status_code == 200
    action_form = listing.context["action_form"]
    offered = (
        [name for name, _label in action_form.fields["action"].choices]
        if (action_form)
        else []
    )
    assert "merge_tags" not in offered and "render_tag_form" not in offered
    assert client.get(merge_page(tagged["tags"])).status_code == 403
    posted = client.post(
        merge_page(tagged["tags"]),
        {"ids": ",".join(str(t.pk) for t in tagged["tags"]), "into": LATIN},
    )
    assert posted.status_code == 403
    client.post(
        reverse(CHANGELIST),
        {
            "action": "merge_tags",
            "_selected_action": [t.pk for t in tagged["tags"]],
        },
    )
    assert_nothing_merged(tagged)


def test_staff_with_no_group_get_403_and_no_tag_is_created(tagged, client, settings):
    """taggit's page created the new tag before failing with a 500; ours refuses
    before reading anything."""
    client = logged_in(client, UserFactory(), settings)
    response = client.post(
        reverse(MERGE_URL),
        {"ids": ",".join(str(t.pk) for t in tagged["tags"]), "into": "وسم جديد"},
    )
    assert response.status_code == 403
    assert not Tag.objects.filter(name="وسم جديد").exists()
    assert client.get(reverse(MERGE_URL)).status_code == 403
    assert_nothing_merged(tagged)


def test_an_editor_merges_through_the_action_and_the_page(tagged, client, settings):
    """The action leads to the page, whose form merges through the service."""
    client = logged_in(client, member_of(EDITORS), settings)
    response = client.post(
        reverse(CHANGELIST),
        {"action": "merge_tags", "_selected_action": [t.pk for t in tagged["tags"]]},
    )
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200 and "سجون" in page.content.decode()
    ids = page.context["ids"]
    done = client.post(reverse(MERGE_URL), {"ids": ids, "into": "سجون"})
    assert done.status_code == 302
    assert list(Tag.objects.values_list("name", flat=True)) == ["سجون"]
    assert AuditEvent.objects.filter(
        action=Action.TAGS_MERGED, actor__isnull=False
    ).exists()


@pytest.mark.parametrize("into", [f"ملف {LEGAL_NAME}", LATIN, "YousefAlMansouri"])
def test_an_editor_merging_into_a_legal_name_is_refused_with_the_gates_message(
    tagged, client, settings, into
):
    """The page shows the gate's refusal (field, never name); nothing changes."""
    client = logged_in(client, member_of(EDITORS), settings)
    response = client.post(
        reverse(MERGE_URL),
        {"ids": ",".join(str(t.pk) for t in tagged["tags"]), "into": into},
    )
    assert response.status_code == 200
    errors = str(response.context["form"].errors)
    assert "legal name of a protected person" in errors and "tag: name" in errors
    for spelling in (LEGAL_NAME, LATIN, "YousefAlMansouri", "المنصوري"):
        assert spelling not in errors
    assert not list(get_messages(response.wsgi_request))
    assert_nothing_merged(tagged)
