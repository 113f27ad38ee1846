"""The production server's settings (gunicorn.conf.py), read by gunicorn itself."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(port: int, runtime: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "XDG_RUNTIME_DIR": str(runtime),
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.test",
    }
    return subprocess.Popen(
        [str(GUNICORN), "-c", "gunicorn.conf.py", "newsroom.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for(paths: list[Path], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not all(path.exists() for path in paths):
        if time.monotonic() > deadline:
            raise AssertionError(f"no control socket at {paths}")
        time.sleep(0.1)


@pytest.mark.skipif(not GUNICORN.exists(), reason="gunicorn is not installed")
def test_two_masters_on_one_host_have_a_control_socket_each(tmp_path):
    """Two servers on one machine (a deploy beside the running site) do not share,
    or take over, each other's control socket."""
    ports = [free_port(), free_port()]
    masters = [serve(port, tmp_path) for port in ports]
    try:
        sockets = [tmp_path / f"gunicorn-127.0.0.1_{port}.ctl" for port in ports]
        wait_for(sockets)
        assert all(master.poll() is None for master in masters)
        assert len({path.stat().st_ino for path in sockets}) == 2
    finally:
        for master in masters:
            master.terminate()
            master.wait(timeout=30)
