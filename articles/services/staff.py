"""Staff members' names: a byline prints its staff member's name (Byline.staff_name,
a public field), so renaming someone who signs stories passes the identity gate."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from core import events
from identity.gate import IdentityGate, IdentityLeakError, Leak
from identity.refusals import Door, door

from .. import permissions as perms
from ..models import Byline
from .base import Action, require_permission


class StaffNameLeakError(IdentityLeakError):
    """A new name for a staff member would put a protected legal name in bylines."""

    # One field, the name, which the message names: nothing to conceal.
    names_places = False

    def __init__(self, leaks: list[Leak]):
        super().__init__(leaks)
        self.message = _(
            "Bylines print this staff member's name, and the new name holds the "
            "legal name of a protected person. Choose another name; nothing was "
            "saved."
        )
        self.error_list = [self]


def printed_name(user: AbstractBaseUser) -> str:
    """The name bylines print for `user`, as they read it (Byline.staff_name)."""
    return Byline(user=user).staff_name


def staff_name_check(*, user: AbstractBaseUser) -> None:
    """Refuse a change of the name bylines print for `user` that would print a
    protected legal name.

    Every byline counts, drafts' too, as in story_check: every editor reads drafts,
    a draft is one click from the site, and its next save would be refused for the
    same name. Someone who signs no story yet may take any name: the byline that
    first names them passes story_check.
    """
    if user.pk is None:
        return  # a new account signs no story
    stored = get_user_model().objects.filter(pk=user.pk).first()
    if stored is None or printed_name(stored) == printed_name(user):
        return
    if not Byline.objects.filter(user_id=user.pk).exists():
        return
    leaks = IdentityGate.load().leaks([Byline(user=user)])
    if leaks:
        raise StaffNameLeakError(leaks)


@events.sends(events.byline_name_changed)
@door(Door.USER_RENAME)
@transaction.atomic
def staff_save(*, user: AbstractBaseUser, by: AbstractBaseUser) -> AbstractBaseUser:
    """Save an account as the accounts admin edits it; a new name that bylines
    print is checked by the identity gate, recorded and announced."""
    adding = user.pk is None
    require_permission(
        by,
        perms.ADD_USER if adding else perms.CHANGE_USER,
        _("You may not add users.") if adding else _("You may not change users."),
    )
    stored = None if adding else get_user_model().objects.filter(pk=user.pk).first()
    staff_name_check(user=user)
    user.save()
    renamed = stored is not None and printed_name(stored) != printed_name(user)
    if renamed and Byline.objects.filter(user_id=user.pk).exists():
        # Public pages print the name: recorded, and announced to purge them.
        message = "name printed in bylines"
        audit_record(by=by, action=Action.CHANGED, obj=user, message=message)
        events.send_on_commit(
            events.byline_name_changed,
            instance=user,
            by=by,
            action=Action.CHANGED,
            message=message,
        )
    return user
