"""Language choice for the editors' workplace."""

from django.conf import settings
from django.utils import translation


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


# Public pages load nothing from elsewhere: no platform scripts, fonts or trackers.
# If sanitizing ever missed something, the browser still refuses to run it.
PUBLIC_CSP = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "script-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class PublicContentSecurityPolicyMiddleware:
    """Send a strict Content-Security-Policy with every public (non-admin) page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith("/admin/"):
            response.headers.setdefault("Content-Security-Policy", PUBLIC_CSP)
        return response
