"""scripts/backup and scripts/restore: a backup restored into an empty database
holds every story, revision and audit record, and the media come back.

The full restore runs on PostgreSQL only (set DATABASE_URL) and is skipped on
SQLite; the development SQLite path is checked on a file of its own.
"""

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

import psycopg2
import pytest
from django.db import connection
from reversion.models import Revision, Version

from articles.models import Article
from articles.services import StoryEdit, article_publish, article_save
from audit.models import AuditEvent
from tests.factories import ArticleFactory, SectionFactory, SuperuserFactory

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def database_url(name: str) -> str:
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST']}:{db['PORT'] or 5432}/{name}"


@pytest.fixture
def empty_database():
    """A new, empty PostgreSQL database, dropped after the test."""
    if connection.vendor != "postgresql":
        pytest.skip("backups are tested on PostgreSQL (set DATABASE_URL)")
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump and pg_restore are not installed")
    name = f"{connection.settings_dict['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def rows(url: str, table: str, columns: str = "id") -> set[tuple]:
    with psycopg2.connect(url) as db, db.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {table}")  # noqa: S608 - our names
        found = set(cursor.fetchall())
    db.close()
    return found


def run(script: str, *args: str, env: dict[str, str]) -> None:
    result = subprocess.run(
        [str(ROOT / "scripts" / script), *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def test_a_restored_backup_holds_every_story_revision_and_audit_record(
    empty_database, settings
):
    """Back up, restore into an empty database: everything is there, media too."""
    chief = SuperuserFactory(username="chief")
    section = SectionFactory()
    for number in range(3):
        story = article_save(
            edit=StoryEdit(
                article=ArticleFactory.build(
                    section=section,
                    status="draft",
                    published_at=None,
                    headline_ar=f"خبر رقم {number}",
                )
            ),
            by=chief,
        )
    article_publish(article=story, by=chief)
    photo = Path(settings.MEDIA_ROOT) / "images" / "port.jpg"
    photo.parent.mkdir(parents=True, exist_ok=True)
    photo.write_bytes(b"\xff\xd8 not really a photo \xff\xd9")

    source = database_url(connection.settings_dict["NAME"])
    target = database_url(empty_database)
    tables = {
        Article._meta.db_table: "id, headline_ar, status",
        Version._meta.db_table: "id, object_id, serialized_data",
        Revision._meta.db_table: "id, comment",
        AuditEvent._meta.db_table: "id, action, object_id",
    }
    before = {table: rows(source, table, columns) for table, columns in tables.items()}
    assert len(before[Article._meta.db_table]) == 3
    assert len(before[Version._meta.db_table]) >= 4
    assert len(before[AuditEvent._meta.db_table]) >= 4

    with (
        tempfile.TemporaryDirectory(prefix="newsroom-backup-") as folder,
        tempfile.TemporaryDirectory(prefix="newsroom-restored-media-") as media,
    ):
        backup = Path(folder) / "nightly"
        run(
            "backup",
            str(backup),
            env={"DATABASE_URL": source, "MEDIA_ROOT": str(settings.MEDIA_ROOT)},
        )
        run("restore", str(backup), env={"DATABASE_URL": target, "MEDIA_ROOT": media})
        restored_photo = Path(media) / "images" / "port.jpg"
        assert restored_photo.read_bytes() == photo.read_bytes()

    for table, columns in tables.items():
        assert rows(target, table, columns) == before[table], table


def test_restore_refuses_a_folder_that_is_no_backup():
    """Restoring from a folder without a backup says so and touches nothing."""
    with tempfile.TemporaryDirectory(prefix="newsroom-not-a-backup-") as folder:
        result = subprocess.run(
            [str(ROOT / "scripts" / "restore"), folder],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert "a folder made by scripts/backup" in result.stderr


def test_a_development_sqlite_database_is_copied_and_restored():
    """With a sqlite:/// DATABASE_URL the file is copied and restored to a new one."""
    with tempfile.TemporaryDirectory(prefix="newsroom-sqlite-backup-") as folder:
        here = Path(folder)
        original = here / "db.sqlite3"
        with sqlite3.connect(original) as db:
            db.execute("CREATE TABLE story (id INTEGER PRIMARY KEY, headline TEXT)")
            db.executemany(
                "INSERT INTO story (headline) VALUES (?)", [("أول",), ("ثان",)]
            )
        db.close()
        (here / "media").mkdir()
        (here / "media" / "logo.png").write_bytes(b"\x89PNG")
        run(
            "backup",
            str(here / "backup"),
            env={
                "DATABASE_URL": f"sqlite:///{original}",
                "MEDIA_ROOT": str(here / "media"),
            },
        )
        restored = here / "restored.sqlite3"
        run(
            "restore",
            str(here / "backup"),
            env={
                "DATABASE_URL": f"sqlite:///{restored}",
                "MEDIA_ROOT": str(here / "m2"),
            },
        )
        with sqlite3.connect(restored) as db:
            rows_back = db.execute("SELECT id, headline FROM story").fetchall()
        db.close()
        assert rows_back == [(1, "أول"), (2, "ثان")]
        assert (here / "m2" / "logo.png").read_bytes() == b"\x89PNG"
