"""Tests: fast hashing, in-memory cache and a temporary media folder."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-only-key"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Off unless a test turns it on: most tests change rows and read pages at once.
PAGE_CACHE = False
# One folder for the run's uploads and collected files, removed when the process
# ends (every process importing these settings makes its own).
_TEMPORARY = Path(tempfile.mkdtemp(prefix="newsroom-test-"))
atexit.register(shutil.rmtree, _TEMPORARY, ignore_errors=True)
# A task worker started by a test reads the test's media folder (TEST_MEDIA_ROOT).
MEDIA_ROOT = Path(os.environ.get("TEST_MEDIA_ROOT") or _TEMPORARY / "media")
STATIC_ROOT = _TEMPORARY / "static"
MEDIA_ROOT.mkdir(exist_ok=True)
STATIC_ROOT.mkdir()
# Large decodes take turns within this run only, not with other runs on the machine.
DECODE_SLOTS_DIR = _TEMPORARY / "decode-slots"
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}

# A story part that only the tests of the declaration turn on (articles.parts).
INSTALLED_APPS = [*INSTALLED_APPS, "tests.storyparts"]  # noqa: F405

# Lets two runs share one PostgreSQL server without clashing over `test_<name>`.
if os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}  # noqa: F405

# On PostgreSQL a second alias reads the same test database, so the replica router
# is tested on one server (tests/core/test_db_router.py). No router is installed
# here: only the tests that ask for it route reads to the replica.
if DATABASES["default"]["ENGINE"].endswith("postgresql"):  # noqa: F405
    DATABASES["replica"] = {  # noqa: F405
        **DATABASES["default"],  # noqa: F405
        "TEST": {"MIRROR": "default"},
    }
DATABASE_ROUTERS = []

# The tests' own webhook receiver and agency server listen on plain HTTP at 127.0.0.1.
SITE_URL = "http://testserver/"
WEBHOOKS_ALLOW_HTTP = True
OUTBOUND_ALLOW_PRIVATE_ADDRESSES = True
WEBHOOKS_TIMEOUT = 5
