"""The demo's logins: one plain member of each role's group, and an administrator.

For development only (`load_demo --accounts` refuses when DEBUG is off): every
account shares one published password. A plain member meets the newsroom as its
staff will, with exactly the role's permissions; the superuser is kept apart, for
the accounts admin and what no role holds.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, SOURCE_MANAGERS

DEMO_PASSWORD = "newsroom-demo"


@dataclass(frozen=True)
class DemoAccount:
    username: str
    first_name: str
    last_name: str
    role: str  # a role of core.roles, or "" for the administrator
    title: str  # what the printed list calls it


DEMO_ACCOUNTS = (
    DemoAccount("reporter", "ريم", "الحسن", REPORTERS, "Reporter"),
    DemoAccount("editor", "نادر", "السعدي", EDITORS, "Editor"),
    DemoAccount("sources", "لينا", "عيسى", SOURCE_MANAGERS, "Source manager"),
    DemoAccount("officer", "كريم", "العلي", IDENTITY_OFFICERS, "Identity officer"),
    DemoAccount("admin", "مدير", "الموقع", "", "Administrator (superuser)"),
)


@transaction.atomic
def demo_accounts_load(password: str = DEMO_PASSWORD) -> list[DemoAccount]:
    """Create or reset each demo account: staff, in its role's group only (the
    administrator a superuser in none), with `password`."""
    users = get_user_model()
    for account in DEMO_ACCOUNTS:
        user, _created = users.objects.get_or_create(username=account.username)
        user.first_name = account.first_name
        user.last_name = account.last_name
        user.is_staff = user.is_active = True
        user.is_superuser = not account.role
        user.set_password(password)
        user.save()
        user.user_permissions.clear()
        user.groups.set([Group.objects.get(name=account.role)] if account.role else [])
    return list(DEMO_ACCOUNTS)
