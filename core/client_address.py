"""The reader's address, for the login lockout and the rate limits.

Behind proxies REMOTE_ADDR is the nearest proxy's, the same for every reader. Each
proxy appends the address it was connected from to X-Forwarded-For, so with
PROXY_COUNT proxies in front of the app the reader is the entry that many places
from the right of (X-Forwarded-For + REMOTE_ADDR). Entries further left were sent
by the client itself and are not believed.
"""

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent `request`, as far as the proxies in front vouch."""
    remote = request.META.get("REMOTE_ADDR", "")
    count = settings.PROXY_COUNT
    if not count:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    chain = [part.strip() for part in forwarded.split(",") if part.strip()]
    chain.append(remote)
    return chain[-(count + 1)] if len(chain) > count else chain[0]
