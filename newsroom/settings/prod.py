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

# Uploaded media. Django does not serve MEDIA_ROOT when DEBUG is off, so something
# else must, or every uploaded image answers 404: `nginx` (docker-compose's web
# server serves /media/ from the shared volume; deploy/nginx.conf), or `external`
# with an absolute MEDIA_URL of the server or bucket that holds the files.
MEDIA_SERVED_BY = os.environ.get("MEDIA_SERVED_BY", "")
if MEDIA_SERVED_BY == "external":
    MEDIA_URL = os.environ.get("MEDIA_URL", "")
    if not MEDIA_URL.startswith(("https://", "http://")) or not MEDIA_URL.endswith("/"):
        raise ImproperlyConfigured(
            "MEDIA_SERVED_BY=external needs MEDIA_URL, the absolute address (ending "
            "in /) where uploaded media is served, e.g. https://media.example.com/."
        )
elif MEDIA_SERVED_BY != "nginx":
    raise ImproperlyConfigured(
        "MEDIA_SERVED_BY must say who serves uploaded images, or every one answers "
        "404: 'nginx' (the web server in docker-compose.yml serves /media/) or "
        "'external' (with MEDIA_URL=https://...)."
    )
# Everyone who can publish or read legal names signs in with a second factor.
OTP_REQUIRED_FOR_PERMISSIONS = ["articles.publish_article", "articles.view_legal_name"]
