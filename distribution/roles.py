"""Who may keep the content API's partners, their keys and webhooks, granted in the
registry of roles (core/roles.py), which imports this module at startup."""

from articles import permissions as perms
from core.roles import EDITORS, SOURCE_MANAGERS, grant

# Who may receive which stories, and whose rights they hold: editors decide what
# goes out; source managers keep the usage terms those rights come from. (Why keys
# are never deleted and deliveries never added: articles/permissions.py.)
_PARTNERS = [
    perms.VIEW_PARTNER,
    perms.ADD_PARTNER,
    perms.CHANGE_PARTNER,
    perms.DELETE_PARTNER,
    perms.VIEW_PARTNERKEY,
    perms.ADD_PARTNERKEY,
    perms.CHANGE_PARTNERKEY,
    perms.VIEW_WEBHOOK,
    perms.ADD_WEBHOOK,
    perms.CHANGE_WEBHOOK,
    perms.DELETE_WEBHOOK,
    perms.VIEW_DELIVERY,
    perms.CHANGE_DELIVERY,
]

grant(EDITORS, _PARTNERS)
grant(SOURCE_MANAGERS, _PARTNERS)
