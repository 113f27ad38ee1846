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
    """A long random key and explicit hosts are enough to start."""
    result = _import_prod_settings(
        {"SECRET_KEY": "k" * 20 + "9f8e7d6c5b4a3210zz", "ALLOWED_HOSTS": "example.com"}
    )
    assert result.returncode == 0, result.stderr


def test_a_mistyped_digits_setting_is_refused():
    """NEWSROOM_DIGITS outside western/arabic-indic stops start-up with its name."""
    result = _import_prod_settings(
        {
            "SECRET_KEY": "k" * 20 + "9f8e7d6c5b4a3210zz",
            "ALLOWED_HOSTS": "example.com",
            "NEWSROOM_DIGITS": "hindi",
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
        }
    )
    assert result.returncode != 0
    assert "NEWSROOM_MONTH_STYLE" in result.stderr
