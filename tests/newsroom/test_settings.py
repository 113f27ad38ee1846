"""Production settings refuse to start half-configured, and pass `check --deploy`."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "q7L-v2xR9_kZ0mWc4tY8bN1sD6fH3jPaE5gU-iOoXlKzVqB7nMr"
PROD_ENV = {
    "SECRET_KEY": STRONG_KEY,
    "ALLOWED_HOSTS": "news.example.org",
    "DATABASE_URL": "postgres://newsroom@db.invalid:5432/newsroom",
    "CACHE_URL": "redis://cache.invalid:6379/1",
    "TASKS_URL": "redis://cache.invalid:6379/2",
    "MEDIA_SERVED_BY": "nginx",
}


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def import_prod_settings(env: dict[str, str]) -> subprocess.CompletedProcess:
    return run_python("import newsroom.settings.prod", env)


def without(name: str) -> dict[str, str]:
    return {key: value for key, value in PROD_ENV.items() if key != name}


def test_production_starts_with_every_required_variable():
    """A strong key, hosts, a database and a Redis cache are enough to start."""
    result = import_prod_settings(PROD_ENV)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "name", ["SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CACHE_URL", "TASKS_URL"]
)
def test_production_refuses_to_start_without_a_required_variable(name):
    """Each missing variable stops start-up with a message naming it."""
    result = import_prod_settings(without(name))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"{name} must be set in production" in result.stderr


@pytest.mark.parametrize(
    "key",
    [
        "k" * 20 + "9f8e7d6c5b4a3210zz",  # the 38 characters once accepted
        "ab" * 30,  # long but only two different characters
        "django-insecure-" + STRONG_KEY,  # Django's generated development key
    ],
    ids=["short", "repetitive", "django-insecure"],
)
def test_production_refuses_a_weak_secret_key(key):
    """A key failing Django's own strength rule is refused by name."""
    result = import_prod_settings({**PROD_ENV, "SECRET_KEY": key})
    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr


def test_production_refuses_a_wildcard_host():
    """ALLOWED_HOSTS=* is refused: any Host header would go into absolute links."""
    result = import_prod_settings({**PROD_ENV, "ALLOWED_HOSTS": "*"})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must name the site's hosts" in result.stderr


def test_production_refuses_a_per_process_cache():
    """A CACHE_URL that is not Redis is refused: purges must reach every worker."""
    result = import_prod_settings({**PROD_ENV, "CACHE_URL": "locmem://"})
    assert result.returncode != 0
    assert "CACHE_URL must be a Redis address" in result.stderr


def test_production_refuses_a_task_queue_outside_redis():
    """A TASKS_URL that is not Redis is refused: workers on every machine read it."""
    result = import_prod_settings({**PROD_ENV, "TASKS_URL": "memory://"})
    assert result.returncode != 0
    assert "TASKS_URL must be a Redis address" in result.stderr


def test_production_refuses_the_task_queue_in_the_cache_database():
    """TASKS_URL equal to CACHE_URL is refused: a cache clear would drop jobs."""
    result = import_prod_settings({**PROD_ENV, "TASKS_URL": PROD_ENV["CACHE_URL"]})
    assert result.returncode != 0
    assert "TASKS_URL must name another Redis database" in result.stderr


def test_production_runs_tasks_on_rq_workers():
    """Under production settings tasks go to RQ on TASKS_URL, one queue a kind."""
    result = run_python(
        "from newsroom.settings import prod;"
        "print(prod.TASKS['default']['BACKEND'],"
        " sorted((name, q['URL']) for name, q in prod.RQ_QUEUES.items()))",
        PROD_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(maxsplit=1) == [
        "django_tasks_rq.RQBackend",
        "[('default', 'redis://cache.invalid:6379/2'), "
        "('renditions', 'redis://cache.invalid:6379/2'), "
        "('webhooks', 'redis://cache.invalid:6379/2'), "
        "('wire', 'redis://cache.invalid:6379/2')]\n",
    ]


def test_production_refuses_to_start_with_media_unserved():
    """Without MEDIA_SERVED_BY every uploaded image would answer 404: no start."""
    result = import_prod_settings(without("MEDIA_SERVED_BY"))
    assert result.returncode != 0
    assert "MEDIA_SERVED_BY" in result.stderr and "404" in result.stderr


def test_production_refuses_external_media_without_an_absolute_address():
    """MEDIA_SERVED_BY=external with the default /media/ address is refused."""
    result = import_prod_settings({**PROD_ENV, "MEDIA_SERVED_BY": "external"})
    assert result.returncode != 0
    assert "MEDIA_URL" in result.stderr


def test_production_serves_media_from_an_external_address():
    """MEDIA_SERVED_BY=external with an absolute MEDIA_URL is accepted."""
    result = import_prod_settings(
        {
            **PROD_ENV,
            "MEDIA_SERVED_BY": "external",
            "MEDIA_URL": "https://media.example.com/",
        }
    )
    assert result.returncode == 0, result.stderr


def test_production_passes_the_deployment_checks():
    """`manage.py check --deploy` finds nothing to warn about under production."""
    result = run_python(
        "import sys; from django.core.management import execute_from_command_line;"
        "execute_from_command_line(['manage.py', 'check', '--deploy', "
        "'--fail-level', 'WARNING'])",
        {**PROD_ENV, "DJANGO_SETTINGS_MODULE": "newsroom.settings.prod"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_every_cookie_is_secure_and_same_site_in_production():
    """The language cookie too, not only the session's and the CSRF token's."""
    result = run_python(
        "from newsroom.settings import prod;"
        "print(prod.LANGUAGE_COOKIE_SECURE, prod.LANGUAGE_COOKIE_SAMESITE,"
        " prod.SESSION_COOKIE_SECURE, prod.CSRF_COOKIE_SECURE)",
        PROD_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "Lax", "True", "True"]


def test_hsts_subdomains_and_preload_can_be_turned_off():
    """HSTS_INCLUDE_SUBDOMAINS=0 and HSTS_PRELOAD=0 drop those directives."""
    result = run_python(
        "from newsroom.settings import prod;"
        "print(prod.SECURE_HSTS_INCLUDE_SUBDOMAINS, prod.SECURE_HSTS_PRELOAD,"
        " prod.SECURE_HSTS_SECONDS)",
        {**PROD_ENV, "HSTS_INCLUDE_SUBDOMAINS": "0", "HSTS_PRELOAD": "0"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "31536000"]


def test_sentry_starts_only_when_a_dsn_is_set():
    """Without SENTRY_DSN no Sentry client runs; with one, it does, without PII."""
    code = (
        "import newsroom.settings.prod, sentry_sdk;"
        "client = sentry_sdk.get_client();"
        "print(client.is_active(), client.options.get('send_default_pii'),"
        " client.options.get('include_local_variables'))"
    )
    off = run_python(code, PROD_ENV)
    on = run_python(code, {**PROD_ENV, "SENTRY_DSN": "https://public@sentry.invalid/1"})
    assert off.returncode == 0 and on.returncode == 0, off.stderr + on.stderr
    assert off.stdout.split()[0] == "False"
    assert on.stdout.split() == ["True", "False", "False"]


def test_a_mistyped_digits_setting_is_refused():
    """NEWSROOM_DIGITS outside western/arabic-indic stops start-up with its name."""
    result = import_prod_settings({**PROD_ENV, "NEWSROOM_DIGITS": "hindi"})
    assert result.returncode != 0
    assert "NEWSROOM_DIGITS" in result.stderr


def test_a_mistyped_month_style_is_refused():
    """NEWSROOM_MONTH_STYLE outside gulf/levant/both stops start-up with its name."""
    result = import_prod_settings({**PROD_ENV, "NEWSROOM_MONTH_STYLE": "egypt"})
    assert result.returncode != 0
    assert "NEWSROOM_MONTH_STYLE" in result.stderr


def test_production_sends_webhooks_under_the_sites_first_host():
    """Webhook documents carry addresses under SITE_URL; without it, the first
    allowed host over HTTPS."""
    result = run_python(
        "from newsroom.settings import prod; print(prod.SITE_URL)", PROD_ENV
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "https://news.example.org/"


@pytest.mark.parametrize(
    "tasks_url",
    [
        "redis://cache.invalid:6379/1/",  # a trailing slash
        "redis://cache.invalid/1",  # the default port left out
        "redis://cache.invalid:6379?db=1",  # the database as a parameter
    ],
)
def test_the_task_queue_in_the_cache_database_is_seen_however_it_is_written(
    tasks_url,
):
    """The same database spelled another way is still the same database."""
    result = import_prod_settings({**PROD_ENV, "TASKS_URL": tasks_url})
    assert result.returncode != 0
    assert "TASKS_URL must name another Redis database" in result.stderr


def test_localhost_and_its_address_are_one_redis():
    """A host name and the address it resolves to are the same server."""
    env = {
        **PROD_ENV,
        "CACHE_URL": "redis://localhost:6390/1",
        "TASKS_URL": "redis://127.0.0.1:6390/1/",
    }
    result = import_prod_settings(env)
    assert result.returncode != 0
    assert "TASKS_URL must name another Redis database" in result.stderr


def test_another_database_of_the_same_redis_is_accepted():
    env = {
        **PROD_ENV,
        "CACHE_URL": "redis://localhost:6390/1",
        "TASKS_URL": "redis://127.0.0.1:6390/2",
    }
    assert import_prod_settings(env).returncode == 0


@pytest.mark.parametrize("name", ["DATABASE_URL", "DATABASE_REPLICA_URL"])
@pytest.mark.parametrize(
    "url", ["postgres://newsroom@db:port/newsroom", "postgress://db/newsroom"]
)
def test_a_malformed_database_address_is_named_without_its_password(name, url):
    secret = url.replace("newsroom@", "newsroom:s3cret-pw@")
    result = import_prod_settings({**PROD_ENV, name: secret})
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {name} is not a database address" in result.stderr
    assert "s3cret-pw" not in result.stderr


def test_a_malformed_redis_address_is_named():
    result = import_prod_settings({**PROD_ENV, "TASKS_URL": "redis://cache:63x9/2"})
    assert result.returncode != 0
    assert "TASKS_URL is not a Redis address" in result.stderr


def test_sentry_hears_of_a_database_outage_once_per_interval():
    """Five failed requests of one outage make one Sentry event; another error
    still makes its own."""
    code = """
import newsroom.settings.prod, sentry_sdk
from django.db import OperationalError
from sentry_sdk.transport import Transport

class Kept(Transport):
    events = []
    def capture_envelope(self, envelope):
        items = envelope.items
        self.events += [item.payload.json for item in items if item.type == "event"]

client = sentry_sdk.get_client()
client.transport = Kept(client.options)
for _ in range(5):
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        sentry_sdk.capture_exception()
try:
    raise ValueError("something else")
except ValueError:
    sentry_sdk.capture_exception()
client.flush()
print([event["exception"]["values"][0]["type"] for event in Kept.events])
"""
    result = run_python(code, {**PROD_ENV, "SENTRY_DSN": "https://k@sentry.invalid/1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['OperationalError', 'ValueError']"
