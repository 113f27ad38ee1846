"""The newsroom's roles: a registry each app fills with what every role may do on the
app's own models, and the sync that gives each role's group exactly that.

An app grants in its own `roles` module, which the core app imports at startup (as
the audit app discovers `audit_actions`), and only its own models' permissions, so
the app that adds a model says who may use it:

    from core.roles import EDITORS, grant

    grant(EDITORS, [perms.VIEW_LIVEENTRY, perms.DELETE_LIVEENTRY])

After every `migrate` (and every flush of the tests' database) each role's group is
created if missing and given exactly the permissions granted to it; a change of a
grant needs no data migration. Superusers keep every permission; everyone else gets
what their groups give.
"""

from collections.abc import Iterable

from django.apps import AppConfig
from django.apps import apps as global_apps
from django.apps.registry import Apps
from django.contrib.auth import get_permission_codename
from django.contrib.auth.management import create_permissions
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, router

# The groups' names: stored in the database and read by people in the accounts admin.
REPORTERS = "Reporters"
EDITORS = "Editors"
SOURCE_MANAGERS = "Source managers"
# Repeated refusals by the identity gate are reported to them (identity/refusals.py).
IDENTITY_OFFICERS = "Identity officers"
ROLES = (REPORTERS, EDITORS, SOURCE_MANAGERS, IDENTITY_OFFICERS)

_granted: dict[str, set[str]] = {role: set() for role in ROLES}


def grant(role: str, permissions: Iterable[str]) -> None:
    """Let `role` hold each of `permissions` ("app_label.codename")."""
    if role not in _granted:
        raise ImproperlyConfigured(f"{role!r} is not a role; the roles are {ROLES}.")
    wanted = list(permissions)
    known = model_permissions()
    for permission in wanted:
        # Checked now, not when the groups are synced: a misspelt permission would
        # otherwise be skipped there like one whose model is not migrated yet, and
        # the role would silently go without it.
        if not isinstance(permission, str) or permission not in known:
            raise ImproperlyConfigured(
                f"{permission!r} is not the app_label.codename of a permission of"
                " an installed model."
            )
        # Two modules granting one permission are two copies of one rule, waiting
        # to disagree when one of them changes.
        if permission in _granted[role] or wanted.count(permission) > 1:
            raise ImproperlyConfigured(f"{permission!r} is granted to {role!r} twice.")
    _granted[role].update(wanted)


def granted(role: str) -> frozenset[str]:
    """The permissions registered for `role`."""
    return frozenset(_granted[role])


def model_permissions() -> set[str]:
    """Every permission of the installed models, as "app_label.codename": what
    Django's create_permissions() makes (each model's default permissions and
    those of its Meta.permissions)."""
    found = set()
    for model in global_apps.get_models():
        opts = model._meta
        found |= {
            f"{opts.app_label}.{get_permission_codename(action, opts)}"
            for action in opts.default_permissions
        }
        found |= {f"{opts.app_label}.{codename}" for codename, _ in opts.permissions}
    return found


def groups_sync(*, using: str = DEFAULT_DB_ALIAS, apps: Apps = global_apps) -> None:
    """Give each role's group exactly its granted permissions, creating the group if
    missing. A granted permission not in the database yet (its model's migration has
    not run) is left out until a later sync."""
    try:
        group_model = apps.get_model("auth", "Group")
        permission_model = apps.get_model("auth", "Permission")
    except LookupError:  # auth itself is not migrated yet
        return
    if not router.allow_migrate_model(using, group_model):
        return
    rows = permission_model.objects.using(using).values_list(
        "content_type__app_label", "codename", "pk"
    )
    pks = {f"{app_label}.{codename}": pk for app_label, codename, pk in rows}
    for role in ROLES:
        group, _created = group_model.objects.using(using).get_or_create(name=role)
        group.permissions.set([pks[p] for p in _granted[role] if p in pks])


def groups_sync_after_migrate(
    sender: AppConfig, using: str = DEFAULT_DB_ALIAS, apps: Apps = global_apps, **kwargs
) -> None:
    """post_migrate: sync the groups once every app's permissions exist."""
    # Django sends post_migrate once for each app with models, in INSTALLED_APPS
    # order, and creates that app's permissions in its own receiver; so the groups
    # are synced at the last app's. That app's permissions are made here too, in
    # case this receiver runs before Django's (it skips those already made).
    # A flush sends the signal without `apps`: the installed models are the state.
    if sender.label != _last_app_with_models().label:
        return
    create_permissions(sender, verbosity=0, using=using, apps=apps)
    groups_sync(using=using, apps=apps)


def _last_app_with_models() -> AppConfig:
    configs = global_apps.get_app_configs()
    return [config for config in configs if config.models_module is not None][-1]
