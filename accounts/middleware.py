"""Keeping staff who need a second factor out of the admin until they gave one."""

from urllib.parse import urlencode

from django.http import HttpResponseRedirect
from django.urls import reverse

from .two_factor import two_factor_pending


class TwoFactorRequiredMiddleware:
    """Send an admin request of a session still owing a one-time code to the
    two-factor page (enrolment the first time, a code afterwards)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/admin/") and two_factor_pending(request.user):
            page = reverse("two-factor")
            open_paths = {page, reverse("admin:logout"), reverse("admin:jsi18n")}
            if request.path not in open_paths:
                query = urlencode({"next": request.get_full_path()})
                return HttpResponseRedirect(f"{page}?{query}")
        return self.get_response(request)
