"""Local development: debug on, a throwaway key, SQLite unless DATABASE_URL is set."""

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = SECRET_KEY or "dev-only-insecure-key-never-use-in-production"  # noqa: F405
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
# Files are served from the apps' folders in development; whitenoise wants the folder.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
# E-mail (an enrolment code, a note to the identity officers) is printed where
# `scripts/run` runs, not sent.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
