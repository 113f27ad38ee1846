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
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import django.contrib.admin
from django.conf import settings

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


def _sha256_source(text: str) -> str:
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def _editor_style_hashes() -> list[str]:
    """Hashes of the base CSS the body editor (Tiptap, in django-prose-editor)
    injects as a <style> element when it starts.

    Read from the installed bundle, so an upgrade keeps it right; only literals
    without escapes or interpolation are taken, whose text is exactly what the
    browser hashes. The Chromium test of the article form fails if this drifts.
    """
    try:
        import django_prose_editor
    except ImportError:
        return []
    bundle = Path(django_prose_editor.__file__).parent / "static"
    bundle = bundle / "django_prose_editor" / "editor.js"
    if not bundle.exists():
        return []
    blocks = re.findall(r"`(\.ProseMirror \{[^`$\\]*)`", bundle.read_text())
    return [_sha256_source(block) for block in blocks]


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
            hashes.append(_sha256_source(block))
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
    "style-src": ["'self'", *_admin_style_hashes(), *_editor_style_hashes()],
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


def _media_origin(media_url: str) -> str | None:
    """The origin of MEDIA_URL when uploads are served from elsewhere."""
    address = urlsplit(media_url)
    if address.scheme in ("http", "https") and address.netloc:
        return f"{address.scheme}://{address.netloc}"
    return None


def content_security_policy(path: str, nonce: CspNonce) -> str:
    """The policy header for a response to `path`, with the nonce if it was used."""
    admin = path.startswith("/admin/")
    media = str(settings.MEDIA_URL)
    if not nonce.used:
        return _policy_without_nonce(admin, media)
    return _policy_text(admin, media, f"'nonce-{nonce}'")


@lru_cache(maxsize=16)
def _policy_without_nonce(admin: bool, media_url: str) -> str:
    # The same text for every response that printed no nonce: made once.
    return _policy_text(admin, media_url, None)


def _policy_text(admin: bool, media_url: str, nonce_source: str | None) -> str:
    policy = ADMIN_POLICY if admin else PUBLIC_POLICY
    media = _media_origin(media_url)
    if media:  # MEDIA_SERVED_BY=external: pictures come from that server
        policy = {**policy, "img-src": [*policy["img-src"], media]}
    if nonce_source:
        policy = {
            **policy,
            "script-src": [*policy["script-src"], nonce_source],
            "style-src": [*policy["style-src"], nonce_source],
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

    def process_template_response(self, request, response):
        """Give the page's form media the nonce (django-js-asset's Media).

        The body editor's widget media carries an inline import map; widgets are
        built without the request, so the nonce is added here, where the admin's
        change form is about to render `{{ media }}`.
        """
        context = response.context_data or {}
        media = context.get("media")
        if hasattr(media, "with_nonce") and hasattr(request, "csp_nonce"):
            context["media"] = media.with_nonce(request.csp_nonce)
        return response
