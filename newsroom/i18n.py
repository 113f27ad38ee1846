"""The language switch: Django's set_language, never echoing an overlong address."""

from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from core.middleware import MAX_REDIRECT_LENGTH


def set_language(request):
    """Set the language and return to `next`, or to the edition's home when the
    address to return to (`next`, else the Referer) is too long to be sent back.

    Django checks that `next` is safe (on this site) but not its length: thousands
    of characters, or a few hundred Arabic letters (six characters each once
    percent-encoded), would come back in the Location header, past what the proxy
    in front of the site accepts (core.middleware.MAX_REDIRECT_LENGTH).
    """
    response = django_set_language(request)
    if len(response.get("Location", "")) <= MAX_REDIRECT_LENGTH:
        return response
    language = translation.get_language()
    chosen = request.POST.get("language", "")
    if request.method == "POST" and translation.check_for_language(chosen):
        language = chosen
    with translation.override(language):
        home = HttpResponseRedirect(reverse("articles:home"))
    # The language cookie Django set, if the switch was posted.
    home.cookies = response.cookies
    return home
