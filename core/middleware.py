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
