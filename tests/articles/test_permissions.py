"""Permissions are spelled once, in articles.permissions (or, for the apps below
it, in theirs, which it re-exports), and each name there is a permission Django
knows."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission

from articles import permissions
from audit import permissions as audit_permissions
from core.roles import model_permissions
from identity import permissions as identity_permissions
from images import permissions as image_permissions

CONSTANTS = {k: v for k, v in vars(permissions).items() if k.isupper()}
NAMED = {name: value for name, value in CONSTANTS.items() if isinstance(value, str)}
# Sets of permissions with one purpose (who signs in with a second factor).
GROUPS = {name: value for name, value in CONSTANTS.items() if name not in NAMED}
# articles' module, and those of the apps below it (which it re-exports).
LOWER_HOMES = (audit_permissions, identity_permissions, image_permissions)
HOMES = {Path(module.__file__).resolve() for module in (permissions, *LOWER_HOMES)}
# Not project code (the virtualenv), frozen history (migrations), or code that may
# spell a permission to test it.
SKIPPED_FOLDERS = {".venv", "migrations", "tests", "node_modules"}


def project_modules() -> list[Path]:
    modules = []
    for folder, subfolders, files in os.walk(settings.BASE_DIR):
        subfolders[:] = [
            name
            for name in subfolders
            if name not in SKIPPED_FOLDERS and not name.startswith(".")
        ]
        modules += [Path(folder, name) for name in files if name.endswith(".py")]
    return modules


@pytest.mark.django_db
def test_every_named_permission_exists():
    """Each constant names a permission row: a typo would make a check always fail
    and leave the role meant to pass it without it."""
    rows = {
        f"{app}.{codename}"
        for app, codename in Permission.objects.values_list(
            "content_type__app_label", "codename"
        )
    }
    assert set(NAMED.values()) - rows == set()


def test_the_lower_apps_permissions_are_named_here_too():
    """The permissions spelled by the apps below articles are re-exported, so the
    code above reads them from one module and the test above checks them."""
    for module in LOWER_HOMES:
        spelled = {v for k, v in vars(module).items() if k.isupper()}
        assert spelled and spelled <= set(NAMED.values())


def test_a_set_of_permissions_is_made_of_named_ones():
    assert GROUPS
    for members in GROUPS.values():
        assert set(members) <= set(NAMED.values())


def test_no_module_outside_the_home_spells_a_permission():
    """Services, workflow, admin, roles and settings use the constants; only
    articles/permissions.py (and, for their own, the permissions.py of identity,
    images and audit) spell a permission as a string."""
    literals = [f"{q}{perm}{q}" for perm in sorted(model_permissions()) for q in "\"'"]
    offenders = []
    for path in project_modules():
        if path.resolve() in HOMES:
            continue
        text = path.read_text(encoding="utf-8")
        offenders += [
            f"{path.relative_to(settings.BASE_DIR)}: {literal}"
            for literal in literals
            if literal in text
        ]
    assert offenders == []
