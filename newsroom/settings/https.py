"""The HTTPS profile production runs with, behind a TLS-terminating proxy.

Kept apart from prod.py so a test can apply exactly these values and score the
headers production sends, without production's required environment.

The proxy (nginx, a load balancer) terminates TLS and forwards plain HTTP with
`X-Forwarded-Proto: https`; it must overwrite that header on every request, never
pass on one a client sent, or anyone could claim to be on HTTPS.
"""

import os

from .base import env_bool, env_list


def https_profile() -> dict[str, object]:
    """Settings for serving only over HTTPS, read from the environment."""
    return {
        # Trust the proxy's word that the request came in over TLS.
        "SECURE_PROXY_SSL_HEADER": (
            ("HTTP_X_FORWARDED_PROTO", "https")
            if env_bool("BEHIND_TLS_PROXY", True)
            else None
        ),
        # Whatever reaches us over plain HTTP is redirected, except the health
        # probe, which the orchestrator sends straight to the container.
        "SECURE_SSL_REDIRECT": env_bool("SECURE_SSL_REDIRECT", True),
        "SECURE_REDIRECT_EXEMPT": [r"^healthz$"],
        # A year of HSTS. Subdomains and preload are on by default; turn them off
        # (HSTS_INCLUDE_SUBDOMAINS=0, HSTS_PRELOAD=0) while any subdomain still
        # serves plain HTTP, since browsers will refuse it for a year.
        "SECURE_HSTS_SECONDS": int(os.environ.get("HSTS_SECONDS", "31536000")),
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": env_bool("HSTS_INCLUDE_SUBDOMAINS", True),
        "SECURE_HSTS_PRELOAD": env_bool("HSTS_PRELOAD", True),
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "LANGUAGE_COOKIE_SECURE": True,
        # Our scripts read the CSRF token from the form, never from the cookie.
        "CSRF_COOKIE_HTTPONLY": True,
        # Needed only when the browser's origin differs from the Host the proxy
        # forwards (another port or name): https://news.example.org,...
        "CSRF_TRUSTED_ORIGINS": env_list("CSRF_TRUSTED_ORIGINS"),
    }
