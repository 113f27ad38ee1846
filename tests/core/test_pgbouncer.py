"""PgBouncer in transaction pooling in front of a primary and its replica: the
site is served through it (DATABASE_TRANSACTION_POOLING=1), the desk writes
through it, and what reads with a server-side cursor elsewhere (sitemaps, the
identity audit) reads through it.

Without pgbouncer and PostgreSQL's binaries the tests are skipped, unless
REQUIRE_REPLICA=1 (set by .ci/run).
"""

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.postgres_pair import PostgresPair
from tests.processes import free_port, wait_listening
from tests.served import manage, postgres_pair, served

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def start_pgbouncer(pair: PostgresPair) -> tuple[subprocess.Popen, int]:
    port = free_port()
    folder = pair.folder
    (folder / "users.txt").write_text('"postgres" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"newsroom = host=127.0.0.1 port={pair.primary_port} dbname=newsroom\n"
        f"newsroom_replica = host=127.0.0.1 port={pair.replica_port} dbname=newsroom\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
        "pool_mode = transaction\nadmin_users = postgres\n"
        "default_pool_size = 4\nmax_client_conn = 200\n"
        "ignore_startup_parameters = extra_float_digits,options\n"
    )
    for name in ("users.txt", "pgbouncer.ini"):
        shutil.chown(folder / name, "postgres", "postgres")
    command = [PGBOUNCER, str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:  # pgbouncer refuses to run as root
        command = ["runuser", "-u", "postgres", "--", *command]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    wait_listening(process, port)
    return process, port


@pytest.fixture(scope="module")
def pooled():
    if not Path(PGBOUNCER).exists():
        if os.environ.get("REQUIRE_REPLICA") == "1":
            pytest.fail("pgbouncer is not installed (REQUIRE_REPLICA=1)")
        pytest.skip("pgbouncer is not installed (apt install pgbouncer)")
    pair = postgres_pair()
    bouncer, port = start_pgbouncer(pair)
    try:
        with served(
            pair,
            DATABASE_URL=f"postgres://postgres@127.0.0.1:{port}/newsroom",
            DATABASE_REPLICA_URL=f"postgres://postgres@127.0.0.1:{port}/newsroom_replica",
            DATABASE_TRANSACTION_POOLING="1",
        ) as site:
            yield site, port
    finally:
        bouncer.terminate()
        bouncer.wait(timeout=10)
        pair.stop()


def transactions_through(site, port: int) -> dict[str, int]:
    """PgBouncer's count of transactions it carried, per database."""
    rows = site.pair.sql(port, "SHOW STATS", database="pgbouncer").splitlines()
    return {row.split("|")[0]: int(row.split("|")[1]) for row in rows}


def test_pages_are_served_through_the_pooler(pooled):
    site, port = pooled
    for path in ("/ar/", "/en/", "/sitemap.xml", "/ar/feed/", "/healthz"):
        assert site.get(path)[0] == 200, path
    assert site.health()["replica"] == "ok"
    carried = transactions_through(site, port)
    assert carried["newsroom_replica"] > 0
    assert carried["newsroom"] > 0


def test_the_desk_publishes_through_the_pooler(pooled):
    site, _port = pooled
    url = site.publish("خبر عبر المجمع")
    deadline = time.monotonic() + 20
    while site.get(url)[0] != 200:
        assert time.monotonic() < deadline, "the story never reached readers"
        time.sleep(0.2)
    assert "خبر عبر المجمع" in site.get(url)[1]


def test_a_command_reading_with_a_cursor_runs_through_the_pooler(pooled):
    """The identity audit reads every public page and document in chunks."""
    site, _port = pooled
    output = manage(site.env, "audit_identities")
    assert "no legal name found" in output
