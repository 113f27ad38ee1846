"""Settings shared by every environment; dev, test and prod change only what differs."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from django_prose_editor.config import html_tags
from js_asset import static_lazy

from arabic.dates import DIGITS, MONTH_STYLES
from articles import permissions as perms

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}.")
    return value


def env_list(name: str, default: str = "") -> list[str]:
    return [
        item.strip()
        for item in os.environ.get(name, default).split(",")
        if item.strip()
    ]


SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # modeltranslation must come before the admin so its patches apply.
    "modeltranslation",
    "newsroom.apps.NewsroomAdminConfig",  # django.contrib.admin, our site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.sitemaps",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "taggit",
    "reversion",
    "accounts.library_apps.LockoutsConfig",  # axes, named for the admin
    "django_otp",
    "accounts.library_apps.AuthenticatorAppsConfig",  # django_otp.plugins.otp_totp
    "accounts.library_apps.BackupCodesConfig",  # django_otp.plugins.otp_static
    "accounts.library_apps.EnrolmentCodesConfig",  # django_otp.plugins.otp_email
    "django_prose_editor",
    # Helpers for every app; an app itself for the roles (core/roles.py).
    "core",
    "images",
    "identity",
    "sources",
    "articles",
    "publishing",
    "live",
    "ingest",
    "distribution",
    "edge",
    "wire",
    "audit",
    "demo",
    "accounts",
    "django_tasks",
    "django_rq",
]

MIDDLEWARE = [
    # First, so every log line written for a request carries its id.
    "core.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.RefuseNulMiddleware",
    # ETag and Last-Modified answered with 304, cached pages included.
    "django.middleware.http.ConditionalGetMiddleware",
    # CSP with request.csp_nonce, Permissions-Policy, CORP; wraps the page cache,
    # so cached pages are answered with fresh headers.
    "core.security.SecurityHeadersMiddleware",
    # The surrogate keys a page was marked with, for the edge cache (edge/), on
    # the pages the page cache lets shared caches keep.
    "edge.middleware.SurrogateKeysMiddleware",
    # Before sessions, languages, CSRF and authentication: a cached page for a
    # reader without a session is answered without running any of them.
    "publishing.page_cache.PageCacheMiddleware",
    # Inside the page cache: every public response is read for protected legal
    # names before it is stored or sent (publishing/output_check.py).
    "publishing.output_check.OutputCheckMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Redirects never echo an address too long for the proxy's header buffer
    # (inside the page cache, so what it keeps is bounded too).
    "core.middleware.BoundedRedirectMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "core.middleware.AdminLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Knows who asks: the admin shows pseudonyms in place of legal names to whoever
    # may not read them (articles/redaction.py).
    "identity.redaction.AdminRedactionMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "accounts.middleware.TwoFactorRequiredMiddleware",
    "audit.middleware.AuditActorMiddleware",
    # Knows who asks, so anonymous readers' pages may read the replica, if any.
    "core.db_router.ReplicaReadsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, so it sees the login view's answer and turns a lockout into its page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "newsroom.urls"
WSGI_APPLICATION = "newsroom.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "publishing.navigation.navigation",
                "core.security.csp",
            ],
        },
    },
]


def database_from(name: str, url: str) -> dict:
    """DATABASES' entry for the address in the variable `name`; a malformed one
    stops start-up naming the variable (the address, which holds a password, is
    not repeated)."""
    try:
        # A persistent connection is checked before use, so a database restart
        # costs a reconnect, not errors until the worker restarts.
        return dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as error:
        raise ImproperlyConfigured(
            f"{name} is not a database address ({error}); it reads like "
            "postgres://user:password@host:5432/newsroom, with any special "
            "character of the password percent-encoded."
        ) from None


DATABASES = {
    "default": database_from(
        "DATABASE_URL",
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A read replica (PostgreSQL streaming replication) for anonymous readers' pages;
# writes, the admin and editors stay on the primary (core/db_router.py).
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
DATABASE_ROUTERS: list[str] = []
# Readers read the primary while the replica is further behind than this.
DATABASE_REPLICA_MAX_LAG = float(os.environ.get("DATABASE_REPLICA_MAX_LAG", "30"))
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = database_from("DATABASE_REPLICA_URL", DATABASE_REPLICA_URL)
    # Tests read the primary's test database through this alias.
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    # A replica that does not answer at once is left aside (core/db_router.py).
    DATABASES["replica"].setdefault("OPTIONS", {})["connect_timeout"] = 2
    DATABASE_ROUTERS = ["core.db_router.ReplicaRouter"]
# Behind a pooler in transaction pooling (PgBouncer), a cursor kept past its
# transaction may be asked of another server connection: none is kept.
if env_bool("DATABASE_TRANSACTION_POOLING"):
    for _database in DATABASES.values():
        _database["DISABLE_SERVER_SIDE_CURSORS"] = True


def caches_for(url: str) -> dict[str, dict]:
    """CACHES for CACHE_URL: Redis when it names one, else this process's memory."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            # Redis going away costs speed, not pages (core/cache.py); the
            # timeouts keep an unreachable server from holding a worker.
            "BACKEND": "core.cache.TolerantRedisCache",
            "LOCATION": url,
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 1.0},
        }
    }


CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = caches_for(CACHE_URL)

# Background work (Django's tasks API, images/tasks.py). Each kind of work has its
# queue and its own workers (docker-compose.yml), so none waits behind another: a
# slow agency feed (wire) never holds up an upload's renditions or a webhook.
TASK_QUEUES = ["default", "renditions", "webhooks", "wire"]
# How long a rendition job holds its image before the sweep (`sweep_renditions`)
# takes it for lost (a worker killed, Redis emptied); a running job renews it
# after each rendition it writes.
RENDITIONS_LEASE_SECONDS = int(os.environ.get("RENDITIONS_LEASE_SECONDS", "120"))


def tasks_for(url: str) -> tuple[dict[str, dict], dict[str, dict]]:
    """TASKS and RQ_QUEUES for TASKS_URL: RQ workers on that Redis when it names
    one, else each task runs at once in the process that enqueued it, after
    its commit (development, tests, `scripts/run`)."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        backend = "django_tasks.backends.immediate.ImmediateBackend"
        return {"default": {"BACKEND": backend, "QUEUES": TASK_QUEUES}}, {}
    return (
        {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": TASK_QUEUES}},
        # A job still running after this many seconds is stopped and counted as
        # failed: a 100-megapixel picture takes about a minute.
        {name: {"URL": url, "DEFAULT_TIMEOUT": 600} for name in TASK_QUEUES},
    )


TASKS_URL = os.environ.get("TASKS_URL", "")
TASKS, RQ_QUEUES = tasks_for(TASKS_URL)
# Workers (`manage.py rqworker`) run jobs as django-tasks' tasks, without a flag.
RQ = {"JOB_CLASS": "django_tasks_rq.Job"}
# A failed job is kept, with its traceback, for RQ's default of a year on the
# administrators' page of failed jobs (/admin/rq/).
# django-rq's own admin entry lets in any staff user; ours is for superusers.
RQ_SHOW_ADMIN_LINK = False

# Where a wire feed's document that could not be read is kept for the source
# manager (a drop folder keeps its own in rejected/); never under MEDIA_ROOT.
WIRE_REJECTED_DIR = Path(
    os.environ.get("WIRE_REJECTED_DIR", BASE_DIR / "var" / "wire-rejected")
)
# Every channel's drop folder is inside this folder (links followed), so a channel
# can never empty /etc or the media originals into its archive.
WIRE_ROOT = Path(os.environ.get("WIRE_ROOT", BASE_DIR / "var" / "wire"))
# A feed's or a picture's download, all of it, within this many seconds; a feed's
# document (and a drop folder's file) within these bounds, checked before it is
# parsed: an agency's item is tens of KB and a few hundred elements.
WIRE_FETCH_SECONDS = int(os.environ.get("WIRE_FETCH_SECONDS", "60"))
WIRE_ITEM_MAX_BYTES = int(os.environ.get("WIRE_ITEM_MAX_BYTES", str(2 * 1024 * 1024)))
WIRE_ITEM_MAX_ELEMENTS = int(os.environ.get("WIRE_ITEM_MAX_ELEMENTS", "50000"))
# A channel being polled is not polled again meanwhile; the lock lapses after this
# long, should a worker die holding it.
WIRE_POLL_LOCK_SECONDS = int(os.environ.get("WIRE_POLL_LOCK_SECONDS", "900"))

# Pictures too large to decode many at once take turns per machine: this many at a
# time across every process sharing DECODE_SLOTS_DIR (images/decoding.py).
DECODE_SLOTS = int(os.environ.get("DECODE_SLOTS", "1"))
DECODE_SLOTS_DIR = Path(
    os.environ.get("DECODE_SLOTS_DIR", "/tmp/newsroom-decode-slots")  # noqa: S108
)

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Arabic is the newsroom's first language; English is the second edition.
LANGUAGE_CODE = "ar"
LANGUAGES = [("ar", _("Arabic")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Dubai")
USE_I18N = True
USE_TZ = True
# Arabic Gregorian months: gulf "ديسمبر" (default), levant "كانون الأول", both.
NEWSROOM_MONTH_STYLE = env_choice("NEWSROOM_MONTH_STYLE", "gulf", MONTH_STYLES)
# Digits of dates and counts on Arabic pages: western 0–9 (default), arabic-indic ٠–٩.
NEWSROOM_DIGITS = env_choice("NEWSROOM_DIGITS", "western", DIGITS)

MODELTRANSLATION_DEFAULT_LANGUAGE = "ar"
MODELTRANSLATION_LANGUAGES = ("ar", "en")
# A missing English translation falls back to Arabic and an English-only story
# falls back to English, so a page is never blank.
MODELTRANSLATION_FALLBACK_LANGUAGES = {"default": ("ar", "en")}

STATIC_URL = "/static/"

# The body editor's own extensions: the module that implements them in the editor and
# the markup each may produce (the sanitizer's allow-list is derived from it, see
# articles.body.BODY_EXTENSIONS).
_BLOCKS_WITH_DIRECTION = ("p", "h2", "h3", "blockquote", "li")
DJANGO_PROSE_EDITOR_EXTENSIONS = [
    {
        "js": [static_lazy("articles/editor/story-extensions.js")],
        "extensions": {
            "TextDirection": html_tags(
                [], {tag: ["dir", "lang"] for tag in _BLOCKS_WITH_DIRECTION}
            ),
            "StoryEmbed": html_tags(
                ["figure"], {"figure": ["data-post", "data-post-key", "data-image"]}
            ),
            "ToolbarLabels": html_tags([]),
        },
    }
]

STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Uploads bigger than this are refused with a message instead of filling memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = 25 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

LOGIN_URL = "admin:login"

# Accounts (accounts/): axes counts failed logins, then Django checks the password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# After this many failed logins for one user name from one address, logging in as
# that user from that address is refused for LOGIN_LOCKOUT_MINUTES; every attempt
# meanwhile starts the wait again. Per name and address together: counted per name
# alone, anyone anywhere could keep an editor out by typing five wrong passwords
# every quarter hour. Guessing across many names is held back by the "login" rate
# limit per address, and those who publish or read legal names owe a second factor.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(
    minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15"))
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_RESET_ON_SUCCESS = True
# The trail of attempts is the audit trail's job; axes keeps only its counters.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
# How many proxies stand in front of the app; the lockout and the rate limits then
# read the reader's address from X-Forwarded-For (core/client_address.py).
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "core.client_address.client_address"
# Two-factor sign-in (TOTP or a backup code) for every user holding one of these
# permissions (articles/permissions.py). Off in development unless TWO_FACTOR=1;
# production turns it on.
OTP_REQUIRED_FOR_PERMISSIONS: list[str] = (
    list(perms.SECOND_FACTOR) if env_bool("TWO_FACTOR", False) else []
)
OTP_TOTP_ISSUER = os.environ.get("NEWSROOM_NAME", "Newsroom")
# A first authenticator is enrolled with a code e-mailed to the account or an
# administrator's invitation (accounts/enrolment.py).
OTP_EMAIL_SUBJECT = _("Your code to set up two-factor sign-in")
OTP_EMAIL_BODY_TEMPLATE_PATH = "accounts/enrolment_email.txt"
OTP_EMAIL_TOKEN_VALIDITY = 15 * 60
TWO_FACTOR_INVITATION_HOURS = float(os.environ.get("TWO_FACTOR_INVITATION_HOURS", "72"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# A staff session ends after this many idle hours: each request renews the cookie.
SESSION_COOKIE_AGE = int(float(os.environ.get("SESSION_IDLE_HOURS", "8")) * 3600)
SESSION_SAVE_EVERY_REQUEST = True
# Messages wait in the session, on the server, not in a cookie: a cookie's text is
# signed, not encrypted, so a message holding a protected legal name (a story's
# headline) would reach a browser whose user may not read it, before the admin's
# redaction could replace it.
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
# The admin's language choice is a cookie like the session's: never sent by another
# site's request (Django sets no SameSite on it by default).
LANGUAGE_COOKIE_SAMESITE = "Lax"

# Requests per window (seconds) for one user, or one address when logged out
# (core/ratelimit.py). RATE_LIMITS=0 turns every limit off.
RATE_LIMITS_ENABLED = env_bool("RATE_LIMITS", True)
RATE_LIMITS = {
    "search": (
        int(os.environ.get("RATE_LIMIT_SEARCH", "30")),
        60,
    ),
    "import": (int(os.environ.get("RATE_LIMIT_IMPORT", "20")), 300),
    "recognize": (int(os.environ.get("RATE_LIMIT_RECOGNIZE", "60")), 60),
    "login": (int(os.environ.get("RATE_LIMIT_LOGIN", "30")), 300),
}

# The partners' content API (distribution/): a release is listed only once it is
# this many seconds old, so a release whose write commits late is never passed by
# a cursor already handed out (distribution/releases.py).
PARTNER_API_SETTLE_SECONDS = int(os.environ.get("PARTNER_API_SETTLE_SECONDS", "10"))

# The site's own address, for what leaves without a request to take it from
# (webhook deliveries carry documents whose addresses are under it).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000/")
# Webhook deliveries (distribution.webhooks): HTTPS to public addresses only;
# the tests' own receiver listens on plain HTTP at 127.0.0.1.
WEBHOOKS_ALLOW_HTTP = False
# Requests to outside addresses (wire feeds and pictures, webhooks; core.outbound)
# reach public addresses only; the tests' own servers listen on loopback. The
# resolver, a dotted path to `resolve(host, port) -> list[str]`, is for tests.
OUTBOUND_ALLOW_PRIVATE_ADDRESSES = False
OUTBOUND_RESOLVER = ""
WEBHOOKS_TIMEOUT = 10
WEBHOOKS_USER_AGENT = "Newsroom-Webhooks/1 (+https://www.standardwebhooks.com/)"

# The publication's name as news aggregators list it (Google News sitemap).
NEWSROOM_NAME = os.environ.get("NEWSROOM_NAME", "Newsroom")

# Every record carries the request's id (core/logs.py); prod.py switches the
# console to one JSON object a line.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "core.logs.RequestIdFilter"},
        # A database outage fails every request alike: its 503s are logged once
        # per LOG_OUTAGE_SECONDS per process, with a count of the rest.
        "outage": {
            "()": "core.logs.OutageFilter",
            "interval": float(os.environ.get("LOG_OUTAGE_SECONDS", "30")),
        },
    },
    "formatters": {
        "plain": {"format": "%(levelname)s [%(request_id)s] %(name)s: %(message)s"},
        "json": {"()": "core.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "plain",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"filters": ["outage"]}},
}

# The page cache for anonymous readers (publishing/page_cache.py); PAGE_CACHE=0 turns
# it off. Pages live at most this long, and never past the next scheduled story or
# embargo lift; every editorial change purges them.
PAGE_CACHE = env_bool("PAGE_CACHE", True)
PAGE_CACHE_SECONDS = int(os.environ.get("PAGE_CACHE_SECONDS", "300"))
# The Varnish servers in front of the site (deploy/varnish/default.vcl), told to
# purge by surrogate key after every change (edge/).
EDGE_PURGE_URLS = [
    url.strip() for url in os.environ.get("EDGE_PURGE_URLS", "").split(",") if url
]
# Or Fastly's, or Cloudflare's: pages then say their keys in the header that CDN
# reads, and purges go to its API (edge/backends.py).
FASTLY_SERVICE_ID = os.environ.get("FASTLY_SERVICE_ID", "")
FASTLY_API_TOKEN = os.environ.get("FASTLY_API_TOKEN", "")
FASTLY_API_URL = os.environ.get("FASTLY_API_URL", "https://api.fastly.com")
CLOUDFLARE_ZONE_ID = os.environ.get("CLOUDFLARE_ZONE_ID", "")
CLOUDFLARE_API_TOKEN = os.environ.get("CLOUDFLARE_API_TOKEN", "")
CLOUDFLARE_API_URL = os.environ.get("CLOUDFLARE_API_URL", "https://api.cloudflare.com")
# Each worker also answers the pages it served in the last moments from its own
# memory, without asking the cache: a purge reaches the other workers within this
# many seconds (0 turns it off).
PAGE_CACHE_LOCAL_SECONDS = float(os.environ.get("PAGE_CACHE_LOCAL_SECONDS", "1"))
# How often a reader's page of a live coverage asks for updates (live/reading.py): an
# unchanged answer is a 304 from the page cache, so this is readers' delay, not load.
LIVE_POLL_SECONDS = int(os.environ.get("LIVE_POLL_SECONDS", "10"))

# How long a story marked breaking keeps the banner at the top of every page.
BREAKING_NEWS_HOURS = int(os.environ.get("BREAKING_NEWS_HOURS", "6"))

# Longest one import (the admin's Import page, its preview, the command) may run
# before it stops with a message, so a hostile paste never holds a worker.
INGEST_TIME_BUDGET = float(os.environ.get("INGEST_TIME_BUDGET", "10"))
# Refusals by the identity gate (identity.refusals): this many by one user
# within IDENTITY_REFUSAL_WINDOW_MINUTES pause their saves of new text and imports
# for IDENTITY_PAUSE_MINUTES, and the identity officers are told by e-mail.
IDENTITY_REFUSAL_LIMIT = int(os.environ.get("IDENTITY_REFUSAL_LIMIT", "5"))
IDENTITY_REFUSAL_WINDOW_MINUTES = int(
    os.environ.get("IDENTITY_REFUSAL_WINDOW_MINUTES", "60")
)
IDENTITY_PAUSE_MINUTES = int(os.environ.get("IDENTITY_PAUSE_MINUTES", "60"))
