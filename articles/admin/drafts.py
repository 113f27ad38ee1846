"""The story form's autosaved draft (static/admin_ext/autosave.js) is kept in the
editor's browser and never sent here; the admin only names it, and says when a save
succeeded so the browser forgets it."""

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse

from identity.redaction import ADMIN_PREFIX

from ..models import Article

# Read by autosave.js on the next admin page; it holds a draft's name, no text.
SAVED_COOKIE = "newsroom_draft_saved"


def draft_key(user: AbstractBaseUser, article: Article | None) -> str:
    """The name of `user`'s draft of `article` ("new" for a story not saved yet):
    one per user, so editors sharing a browser never see each other's drafts."""
    return f"{user.pk}:{article.pk if article is not None else 'new'}"


def draft_saved(response: HttpResponse, request: HttpRequest, key: str) -> HttpResponse:
    """`response` to a successful save, telling the browser to forget draft `key`."""
    response.set_cookie(
        SAVED_COOKIE,
        key,
        max_age=600,
        path=ADMIN_PREFIX,
        samesite="Strict",
        secure=request.is_secure(),
    )
    return response
