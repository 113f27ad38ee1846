"""Security headers on every response, the admin's included.

Django 5.2 has no Content-Security-Policy of its own (6.0 will). This is a small
middleware rather than django-csp because what it must do is specific and short:
two fixed policies (public pages, admin), a per-request nonce that enters the
header only when a template used it, and a flag the page cache reads so a page
carrying a nonce is never stored and replayed with another request's header.

A template that needs an inline script or style (an import map, say) writes
`<script type="importmap" nonce="{{ csp_nonce }}">` (or `request.csp_nonce`, the
attribute django-csp and django-js-asset's CSP helpers read); module scripts from
our own origin need nothing. Data blocks (`<script type="application/ld+json">`)
are not executed and need no nonce.
"""

import base64
import hashlib
import re
import secrets
from pathlib import Path

import django.contrib.admin

# Permissions the site never asks for, refused for any frame or script.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)
# Pages and files are for our own pages only; crawlers fetching a card image are
# not browsers and are unaffected.
CROSS_ORIGIN_RESOURCE_POLICY = "same-origin"


def _admin_style_hashes() -> list[str]:
    """Hashes of the inline <style> blocks in Django's admin templates.

    The change list without actions prints a one-rule <style>; allowing its hash
    (read from the installed Django, so an upgrade keeps it right) keeps
    'unsafe-inline' out of the admin's policy.
    """
    templates = Path(django.contrib.admin.__file__).parent / "templates" / "admin"
    hashes = []
    for template in sorted(templates.rglob("*.html")):
        for block in re.findall(r"<style>(.*?)</style>", template.read_text(), re.S):
            if "{%" in block or "{{" in block:
                continue  # rendered content varies: cannot be hashed ahead
            digest = hashlib.sha256(block.encode()).digest()
            hashes.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return hashes


# Public pages load nothing from elsewhere: no platform scripts, fonts or trackers.
# If sanitizing ever missed something, the browser still refuses to run it.
PUBLIC_POLICY = {
    "default-src": ["'none'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "manifest-src": ["'self'"],
    "form-action": ["'self'"],
    "base-uri": ["'none'"],
    "object-src": ["'none'"],
    # Related-object popups in the admin are windows, not frames: nothing of ours
    # is ever framed.
    "frame-ancestors": ["'none'"],
}
ADMIN_POLICY = {
    **PUBLIC_POLICY,
    "style-src": ["'self'", *_admin_style_hashes()],
}


class CspNonce:
    """A nonce made when first printed; `used` tells whether anything printed it."""

    def __init__(self) -> None:
        self._value: str | None = None

    def __str__(self) -> str:
        if self._value is None:
            self._value = secrets.token_urlsafe(18)
        return self._value

    @property
    def used(self) -> bool:
        return self._value is not None


def content_security_policy(path: str, nonce: CspNonce) -> str:
    """The policy header for a response to `path`, with the nonce if it was used."""
    policy = ADMIN_POLICY if path.startswith("/admin/") else PUBLIC_POLICY
    if nonce.used:
        source = f"'nonce-{nonce}'"
        policy = {
            **policy,
            "script-src": [*policy["script-src"], source],
            "style-src": [*policy["style-src"], source],
        }
    return "; ".join(
        f"{directive} {' '.join(sources)}" for directive, sources in policy.items()
    )


def csp(request) -> dict[str, object]:
    """Template context: `csp_nonce`, the name Django 6's own CSP support uses."""
    return {"csp_nonce": getattr(request, "csp_nonce", "")}


class SecurityHeadersMiddleware:
    """Add CSP (with `request.csp_nonce`), Permissions-Policy and CORP.

    Django's SecurityMiddleware sends nosniff, Referrer-Policy, COOP and HSTS;
    XFrameOptionsMiddleware sends X-Frame-Options for older browsers.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.csp_nonce = CspNonce()
        response = self.get_response(request)
        response.headers.setdefault(
            "Content-Security-Policy",
            content_security_policy(request.path, request.csp_nonce),
        )
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        response.headers.setdefault(
            "Cross-Origin-Resource-Policy", CROSS_ORIGIN_RESOURCE_POLICY
        )
        return response
