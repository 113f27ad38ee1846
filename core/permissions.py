"""The permission check every service makes first."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied


def require_permission(
    by: AbstractBaseUser | None, permission: str, refusal: str
) -> None:
    """Raise PermissionDenied with `refusal` unless `by`, active, holds `permission`."""
    if by is None or not by.is_active or not by.has_perm(permission):
        raise PermissionDenied(refusal)
