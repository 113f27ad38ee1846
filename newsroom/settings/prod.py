"""Production: refuses to start without a real secret key and explicit hosts."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if len(SECRET_KEY) < 32 or SECRET_KEY.startswith(("dev-", "test-", "change-me")):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a random value of at least 32 characters."
    )
if "ALLOWED_HOSTS" not in os.environ:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the site's host names.")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
X_FRAME_OPTIONS = "DENY"

# Everyone who can publish or read legal names signs in with a second factor.
OTP_REQUIRED_FOR_PERMISSIONS = ["articles.publish_article", "articles.view_legal_name"]
