"""A PostgreSQL primary and its streaming replica, made for a test from the
machine's PostgreSQL binaries (Debian's postgresql package): `initdb`, then
`pg_basebackup -R` of it, each started by `pg_ctl` on a port of its own, as the
`postgres` user when the test runs as root (the server refuses root)."""

import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.processes import free_port

_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))


def binaries() -> Path | None:
    """The newest PostgreSQL's binaries, or None."""
    return _BIN[-1] if _BIN else None


@dataclass
class PostgresPair:
    folder: Path
    primary_port: int
    replica_port: int

    def url(self, port: int, database: str = "newsroom") -> str:
        return f"postgres://postgres@127.0.0.1:{port}/{database}"

    @property
    def primary_url(self) -> str:
        return self.url(self.primary_port)

    @property
    def replica_url(self) -> str:
        return self.url(self.replica_port)

    def sql(self, port: int, statement: str, database: str = "newsroom") -> str:
        return _run(
            "psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
            "-d", database, "-Atc", statement,
        ).strip()  # fmt: skip

    def stop_replica(self) -> None:
        _pg_ctl(self.folder / "replica", "stop", "-m", "immediate")

    def stop(self) -> None:
        for name in ("replica", "primary"):
            if (self.folder / name / "postmaster.pid").exists():
                _pg_ctl(self.folder / name, "stop", "-m", "immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def start_pair() -> PostgresPair:
    """A primary with a database `newsroom`, and a hot standby streaming from it."""
    folder = Path(tempfile.mkdtemp(prefix="pg-pair-"))
    _give_to_postgres(folder)
    pair = PostgresPair(folder, free_port(), free_port())
    primary = folder / "primary"
    _run("initdb", "-D", str(primary), "-A", "trust", "-U", "postgres", "--no-sync")
    _start(pair, primary, pair.primary_port)
    _run(
        "pg_basebackup", "-h", "127.0.0.1", "-p", str(pair.primary_port),
        "-U", "postgres", "-D", str(folder / "replica"), "-R", "-X", "stream",
    )  # fmt: skip
    _start(pair, folder / "replica", pair.replica_port)
    _run("createdb", "-h", "127.0.0.1", "-p", str(pair.primary_port), "-U", "postgres",
         "newsroom")  # fmt: skip
    return pair


def _start(pair: PostgresPair, data: Path, port: int) -> None:
    options = (
        f"-c port={port} -c listen_addresses=127.0.0.1 "
        f"-c unix_socket_directories={pair.folder} -c fsync=off "
        "-c wal_level=replica -c max_wal_senders=4 -c hot_standby=on"
    )
    _pg_ctl(data, "start", "-w", "-l", str(data.parent / f"{data.name}.log"),
            "-o", options)  # fmt: skip


def _pg_ctl(data: Path, *arguments: str) -> None:
    _run("pg_ctl", "-D", str(data), *arguments)


def _run(program: str, *arguments: str) -> str:
    command = [str(binaries() / program), *arguments]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(f"{program} failed: {done.stdout}{done.stderr}")
    return done.stdout


def _give_to_postgres(folder: Path) -> None:
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
