"""Identity officers protect someone in one step: the form lists the public stories
that print the name, and withdrawing them is part of the protection, the officer's
own move, audited as such. Officers gain no general permission to withdraw."""

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from articles import permissions as perms
from articles.audit_actions import Action
from articles.models import Article, Status
from articles.services import article_unpublish, article_withdraw_to_protect
from audit.models import AuditEvent
from core.roles import IDENTITY_OFFICERS, REPORTERS, granted
from identity.models import Person
from tests.factories import ArticleFactory, member_of

pytestmark = pytest.mark.django_db

NAME = "سالم الحربي"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def named():
    """A person not yet protected, and a public story printing their name."""
    person = Person.objects.create(name=NAME)
    article = ArticleFactory(body_ar=f"<p>قال {NAME} إن الملفات نقلت.</p>")
    return person, article


def protect(client, person, **extra):
    data = {
        "identity_protected": "on",
        "name": NAME,
        "other_spellings": "Salem al-Harbi",
        "public_name": "المصدر",
        "aliases": "",
        "description_ar": "",
        "description_en": "",
        **extra,
    }
    return client.post(reverse("admin:identity_person_change", args=[person.pk]), data)


def test_an_officer_is_shown_the_stories_then_protects_and_withdraws_them(
    named, client, settings
):
    """Over HTTP, as a plain member of the Identity officers group."""
    person, article = named
    officer = member_of(IDENTITY_OFFICERS)
    client.force_login(officer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    refused = protect(client, person)
    assert refused.status_code == 200
    assert f"#{article.pk}" in refused.content.decode()
    assert not Person.objects.get(pk=person.pk).identity_protected

    done = protect(client, person, withdraw_stories="on")
    assert done.status_code == 302
    article.refresh_from_db()
    assert article.status == Status.DRAFT
    assert Article.objects.published().count() == 0
    assert Person.objects.get(pk=person.pk).identity_protected
    withdrawn = AuditEvent.objects.get(action=Action.WITHDRAWN_TO_PROTECT)
    assert withdrawn.actor == officer
    assert withdrawn.object_id == str(article.pk)
    assert "المصدر" in withdrawn.message and NAME not in withdrawn.message
    assert AuditEvent.objects.filter(
        action=Action.PROTECTED, actor=officer, object_id=str(person.pk)
    ).exists()
    assert not AuditEvent.objects.filter(action=Action.UNPUBLISHED).exists()


def test_officers_hold_no_general_permission_to_withdraw(named):
    """The role is unchanged: officers may not unpublish a story by themselves."""
    _person, article = named
    officer = member_of(IDENTITY_OFFICERS)
    assert perms.UNPUBLISH_ARTICLE not in granted(IDENTITY_OFFICERS)
    assert not officer.has_perm(perms.UNPUBLISH_ARTICLE)
    with pytest.raises(PermissionDenied):
        article_unpublish(article=article, by=officer)
    article.refresh_from_db()
    assert article.status == Status.PUBLISHED


def test_a_reporter_may_protect_but_not_withdraw_in_the_same_step(
    named, client, settings
):
    """Withdrawal at protection is for officers (and those who withdraw stories
    anyway); a reporter's protection waits until the stories are fixed."""
    person, article = named
    client.force_login(member_of(REPORTERS))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = protect(client, person, withdraw_stories="on")
    assert response.status_code == 302
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("may not withdraw stories to protect an identity" in m for m in said)
    article.refresh_from_db()
    assert article.status == Status.PUBLISHED
    assert not Person.objects.get(pk=person.pk).identity_protected


def test_the_move_only_takes_public_stories_off_the_site(named):
    """A draft is not "withdrawn": the move needs a published story."""
    _person, article = named
    Article.objects.filter(pk=article.pk).update(status=Status.DRAFT)
    article.refresh_from_db()
    with pytest.raises(ValidationError) as refused:
        article_withdraw_to_protect(article=article, by=member_of(IDENTITY_OFFICERS))
    assert "cannot be moved this way" in str(refused.value)
