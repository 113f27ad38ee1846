"""Request handling every page shares: refusing malformed addresses, and the
language of the editors' workplace."""

from django.conf import settings
from django.http import Http404
from django.utils import translation


class RefuseNulMiddleware:
    """An address with a NUL character is no page of ours: answer 404.

    Without this, a NUL in a slug or a query parameter (an admin filter, an
    autocomplete term) reaches the database, which refuses it (PostgreSQL cannot hold
    NUL in text) and the reader gets a server error. The decoded values are what
    reach the database, so they are what is checked: "%00" is a NUL too.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Without a query string there are no parameters to parse (a QueryDict
        # built for nothing on every page).
        query = request.META.get("QUERY_STRING")
        if "\x00" in request.path or (query and _holds_nul(request.GET.lists())):
            raise Http404("Malformed address.")
        return self.get_response(request)


def _holds_nul(parameters) -> bool:
    return any(
        "\x00" in name or any("\x00" in value for value in values)
        for name, values in parameters
    )


class AdminLanguageMiddleware:
    """Serve the admin in Arabic unless the editor chose English.

    The browser's Accept-Language is ignored in the admin: a newsroom's editors work
    in Arabic by default whatever their browser says, and switch per person with the
    language menu (stored in the language cookie).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith("/admin/"):
            return self.get_response(request)
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = (
            chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        )
        translation.activate(language)
        request.LANGUAGE_CODE = language
        # Runs after LocaleMiddleware, so this overrides its Accept-Language guess.
        return self.get_response(request)


# nginx answers 502 for a response whose headers outgrow its proxy buffer (one
# memory page, 4 KB, by default); a redirect's address is the one header that grows
# with what a visitor typed, so it is held well under that.
MAX_REDIRECT_LENGTH = 2000


class BoundedRedirectMiddleware:
    """No redirect echoes an overlong address into its Location header.

    Redirects built from the request grow with it: the admin's way to the login
    carries the page asked for in `next`, a slash appended to a 3,000-character
    path repeats it, a save returns to the list with its filters. A redirect whose
    address is too long goes to the same path without its query string when that
    fits, and answers 404 when even the path does not: no page of ours has an
    address that long.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        location = response.get("Location", "")
        if len(location) <= MAX_REDIRECT_LENGTH:
            return response
        path = location.split("?", 1)[0]
        if len(path) > MAX_REDIRECT_LENGTH:
            raise Http404("Address too long.")
        response["Location"] = path
        return response
