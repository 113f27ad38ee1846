"""A byline prints its staff member's name (Byline.staff_name is public), so a new
name for someone who signs stories passes the identity gate, at the accounts admin
and in `staff_save`."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation

from articles.audit_actions import Action
from articles.models import Status
from articles.services import StaffNameLeakError, staff_save
from audit.models import AuditEvent
from tests.admin_forms import change_form_data
from tests.factories import (
    ArticleFactory,
    BylineFactory,
    DraftArticleFactory,
    ProtectedPersonFactory,
    SuperuserFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

User = get_user_model()
LEGAL_NAME = ProtectedPersonFactory.name  # يوسف المنصوري
LATIN = "Yousef al-Mansouri"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def protected():
    return ProtectedPersonFactory(other_spellings=LATIN)


@pytest.fixture
def reporter():
    """A staff member who signs a published story."""
    user = UserFactory(username="reporter", first_name="سامر", last_name="حداد")
    BylineFactory(article=ArticleFactory(), user=user, name="")
    return user


def account_admins():
    """Who may change accounts: no role does, so a superuser, and a staff member
    given the permission by hand."""
    keeper = UserFactory(username="keeper")
    keeper.user_permissions.add(
        Permission.objects.get(codename="change_user", content_type__app_label="auth"),
        Permission.objects.get(codename="view_user", content_type__app_label="auth"),
    )
    return [SuperuserFactory(username="root"), keeper]


def change_form_post(client, user, **names):
    """Post the account's change form as the admin shows it, with `names` changed."""
    url = reverse("admin:auth_user_change", args=[user.pk])
    data = change_form_data(client.get(url))
    # The reader of forms formats an empty multiple choice as "[]": none is chosen.
    data = {k: v for k, v in data.items() if v != "[]"}
    data.update(names)
    return client.post(url, data)


@pytest.mark.parametrize("who", [0, 1], ids=["superuser", "change_user"])
@pytest.mark.parametrize(
    "names",
    [
        {"first_name": "يوسف", "last_name": "المنصوري"},
        {"first_name": "Yousef", "last_name": "al-Mansouri"},
        {"first_name": "Yousef-Al", "last_name": "Mansouri"},
    ],
    ids=["arabic", "latin", "split differently"],
)
def test_renaming_a_bylined_staff_member_to_a_legal_name_is_refused(
    protected, reporter, client, settings, who, names
):
    """The form says bylines print the name, never the name; nothing is saved."""
    admin_user = account_admins()[who]
    client.force_login(admin_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = change_form_post(client, reporter, **names)
    assert response.status_code == 200
    errors = str(response.context["adminform"].form.errors)
    assert "Bylines print this staff member" in errors
    assert "legal name of a protected person" in errors
    for spelling in (LEGAL_NAME, LATIN, "المنصوري", "Mansouri"):
        assert spelling not in errors
    reporter.refresh_from_db()
    assert (reporter.first_name, reporter.last_name) == ("سامر", "حداد")
    refusal = AuditEvent.objects.get(action=Action.IDENTITY_REFUSED)
    assert refusal.actor == admin_user
    assert refusal.message == "user rename: byline: staff member"


def test_a_draft_byline_counts_as_story_check_counts_drafts(protected):
    """Drafts are not public, but every editor reads them and their next save would
    be refused for the same name: the rename is refused as for a published story."""
    user = UserFactory(first_name="سامر")
    BylineFactory(article=DraftArticleFactory(), user=user, name="")
    user.first_name, user.last_name = "يوسف", "المنصوري"
    with pytest.raises(StaffNameLeakError):
        staff_save(user=user, by=SuperuserFactory())
    assert User.objects.get(pk=user.pk).first_name == "سامر"


def test_a_user_name_printed_for_lack_of_a_full_name_is_checked(protected):
    """A byline prints the user name when there is no full name."""
    user = UserFactory(username="samer", first_name="")
    BylineFactory(article=ArticleFactory(status=Status.PUBLISHED), user=user, name="")
    user.username = "yousef.almansouri"
    with pytest.raises(StaffNameLeakError):
        staff_save(user=user, by=SuperuserFactory())


def test_someone_who_signs_nothing_may_be_renamed(protected, client, settings):
    """No byline prints the name, so the rename is saved: a byline that names
    them later passes story_check, which refuses it then."""
    user = UserFactory(username="newcomer", first_name="سامر")
    client.force_login(SuperuserFactory())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = change_form_post(client, user, first_name="يوسف", last_name="المنصوري")
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.get_full_name() == "يوسف المنصوري"
    assert not AuditEvent.objects.filter(action=Action.IDENTITY_REFUSED).exists()


def test_an_ordinary_rename_of_a_bylined_staff_member_is_saved_and_recorded(
    protected, reporter, client, settings
):
    """A name with no legal spelling in it is saved, recorded and announced."""
    client.force_login(SuperuserFactory())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = change_form_post(client, reporter, first_name="سامي")
    assert response.status_code == 302
    reporter.refresh_from_db()
    assert reporter.first_name == "سامي"
    changed = AuditEvent.objects.get(action=Action.CHANGED, object_id=str(reporter.pk))
    assert changed.message == "name printed in bylines"


def test_other_changes_to_a_bylined_account_do_not_run_the_gate(protected):
    """Only a change of the printed name is checked: the gate never refuses an
    e-mail change of someone whose name was given before a person was protected."""
    user = UserFactory(first_name="يوسف", last_name="المنصوري")
    BylineFactory(article=ArticleFactory(), user=user, name="")
    user.email = "new@example.com"
    staff_save(user=user, by=SuperuserFactory())
    assert User.objects.get(pk=user.pk).email == "new@example.com"


def test_staff_save_checks_the_permission_itself(protected, reporter):
    """Only those who may change users rename them, whoever calls the service."""
    reporter.first_name = "سامي"
    with pytest.raises(PermissionDenied) as refused:
        staff_save(user=reporter, by=UserFactory())
    assert "may not change users" in str(refused.value)
