"""The roles are granted by the apps, each for its own models, and every migrate or
flush gives each role's group exactly its grants (core/roles.py)."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from articles import permissions as perms
from core import roles
from core.roles import EDITORS, REPORTERS, ROLES, grant, granted, groups_sync


@pytest.fixture
def fresh_registry(monkeypatch):
    """Grants a test registers are forgotten when it ends."""
    monkeypatch.setattr(
        roles, "_granted", {role: set(held) for role, held in roles._granted.items()}
    )


def held(role: str) -> set[str]:
    group = Group.objects.get(name=role)
    return {
        f"{p.content_type.app_label}.{p.codename}"
        for p in group.permissions.select_related("content_type")
    }


def test_every_role_is_granted_something():
    """Each role's group holds what some app grants it: none is left empty."""
    assert all(granted(role) for role in ROLES)


def test_a_grant_to_an_unknown_role_is_refused(fresh_registry):
    """A role is one of the registry's names; a misspelt one fails at startup."""
    with pytest.raises(ImproperlyConfigured, match="is not a role"):
        grant("Editor", [perms.VIEW_ARTICLE])


@pytest.mark.parametrize(
    "permission",
    ["view_article", "articles.", "articles.view article", "articles.view_artikle"],
)
def test_a_permission_no_model_declares_is_refused(fresh_registry, permission):
    """A grant names an installed model's permission as app_label.codename; a typo
    fails at startup instead of leaving the role without it."""
    with pytest.raises(ImproperlyConfigured, match="is not the app_label.codename"):
        grant(EDITORS, [permission])
    assert permission not in granted(EDITORS)


def test_granting_a_permission_twice_is_refused(fresh_registry):
    """Two modules granting one permission to one role are two copies of a rule."""
    with pytest.raises(ImproperlyConfigured, match="twice"):
        grant(EDITORS, [perms.VIEW_ARTICLE])


def test_a_refused_grant_registers_none_of_its_permissions(fresh_registry):
    """A grant is checked whole before any of it is registered."""
    with pytest.raises(ImproperlyConfigured):
        grant(REPORTERS, [perms.KILL_ARTICLE, "articles.kill_artikle"])
    assert perms.KILL_ARTICLE not in granted(REPORTERS)


@pytest.mark.django_db
def test_a_new_grant_reaches_the_group_at_the_next_sync(fresh_registry):
    """Granting needs no data migration: the next migrate gives it to the group."""
    grant(REPORTERS, [perms.KILL_ARTICLE])
    groups_sync()
    assert perms.KILL_ARTICLE in held(REPORTERS)


@pytest.mark.django_db
def test_a_sync_takes_back_what_no_app_grants():
    """A permission added to a role's group by hand is gone after the sync."""
    extra = Permission.objects.get(codename="add_user")
    Group.objects.get(name=REPORTERS).permissions.add(extra)
    groups_sync()
    assert held(REPORTERS) == granted(REPORTERS)


@pytest.mark.django_db
def test_a_sync_makes_a_missing_group_and_keeps_the_others():
    """A deleted group is made again; the others keep their rows (and members)."""
    Group.objects.get(name=EDITORS).delete()
    kept = Group.objects.get(name=REPORTERS).pk
    groups_sync()
    assert held(EDITORS) == granted(EDITORS)
    assert Group.objects.get(name=REPORTERS).pk == kept


@pytest.mark.django_db
def test_syncing_twice_changes_nothing():
    """The sync is idempotent: the second run leaves every group as the first."""
    groups_sync()
    first = {role: held(role) for role in ROLES}
    groups_sync()
    assert {role: held(role) for role in ROLES} == first


@pytest.mark.django_db(transaction=True)
def test_the_groups_are_made_again_after_a_flush():
    """A flush (as after every transactional test) empties the groups' tables and
    sends post_migrate: each group is back with exactly its grants."""
    Group.objects.create(name="Interns")
    call_command("flush", interactive=False, verbosity=0)
    assert not Group.objects.filter(name="Interns").exists()
    assert {role: held(role) for role in ROLES} == {
        role: set(granted(role)) for role in ROLES
    }
