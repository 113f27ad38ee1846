"""Production settings refuse to start half-configured."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _import_prod_settings(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import newsroom.settings.prod"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
    )


def test_production_refuses_a_missing_secret_key():
    """Without SECRET_KEY, production settings fail loudly."""
    result = _import_prod_settings({"ALLOWED_HOSTS": "example.com"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_accepts_a_real_secret_key():
    """A long random key, explicit hosts and who serves media are enough to start."""
    result = _import_prod_settings(
        {
            "SECRET_KEY": "k" * 20 + "9f8e7d6c5b4a3210zz",
            "ALLOWED_HOSTS": "example.com",
            "MEDIA_SERVED_BY": "nginx",
        }
    )
    assert result.returncode == 0, result.stderr


READY = {"SECRET_KEY": "k" * 20 + "9f8e7d6c5b4a3210zz", "ALLOWED_HOSTS": "example.com"}


def test_production_refuses_to_start_with_media_unserved():
    """Without MEDIA_SERVED_BY every uploaded image would answer 404: no start."""
    result = _import_prod_settings(READY)
    assert result.returncode != 0
    assert "MEDIA_SERVED_BY" in result.stderr and "404" in result.stderr


def test_production_refuses_external_media_without_an_absolute_address():
    """MEDIA_SERVED_BY=external with the default /media/ address is refused."""
    result = _import_prod_settings({**READY, "MEDIA_SERVED_BY": "external"})
    assert result.returncode != 0
    assert "MEDIA_URL" in result.stderr


def test_production_serves_media_from_an_external_address():
    """MEDIA_SERVED_BY=external with an absolute MEDIA_URL is accepted."""
    result = _import_prod_settings(
        {
            **READY,
            "MEDIA_SERVED_BY": "external",
            "MEDIA_URL": "https://media.example.com/",
        }
    )
    assert result.returncode == 0, result.stderr


def test_a_mistyped_digits_setting_is_refused():
    """NEWSROOM_DIGITS outside western/arabic-indic stops start-up with its name."""
    result = _import_prod_settings(
        {
            "SECRET_KEY": "k" * 20 + "9f8e7d6c5b4a3210zz",
            "ALLOWED_HOSTS": "example.com",
            "NEWSROOM_DIGITS": "hindi",
            "MEDIA_SERVED_BY": "nginx",
        }
    )
    assert result.returncode != 0
    assert "NEWSROOM_DIGITS" in result.stderr


def test_a_mistyped_month_style_is_refused():
    """NEWSROOM_MONTH_STYLE outside gulf/levant/both stops start-up with its name."""
    result = _import_prod_settings(
        {
            "SECRET_KEY": "k" * 20 + "9f8e7d6c5b4a3210zz",
            "ALLOWED_HOSTS": "example.com",
            "NEWSROOM_MONTH_STYLE": "egypt",
            "MEDIA_SERVED_BY": "nginx",
        }
    )
    assert result.returncode != 0
    assert "NEWSROOM_MONTH_STYLE" in result.stderr
