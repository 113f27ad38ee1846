"""docker-compose.yml as the queue needs it: a worker of its own for each queue,
Redis keeping its jobs across a restart, and every long-running service
restarted unless stopped and checked for health."""

from pathlib import Path

import pytest
import yaml
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def worker_queues(services: dict) -> dict[str, list[str]]:
    """Each worker service's queues, read from its `rqworker` command."""
    found = {}
    for name, service in services.items():
        command = service.get("command") or []
        if "rqworker" in command:
            after = command[command.index("rqworker") + 1 :]
            found[name] = [arg for arg in after if not arg.startswith("-")]
    return found


def test_each_queue_has_workers_of_its_own(services):
    """Every queue is served, each by one worker service that serves no other:
    a slow feed's poll cannot hold up renditions or webhooks."""
    queues = worker_queues(services)
    served = sorted(q for names in queues.values() for q in names)
    assert served == sorted(settings.TASK_QUEUES)
    assert all(len(names) == 1 for names in queues.values())


def test_redis_keeps_its_jobs_across_a_restart(services):
    """Redis writes its append-only file to a volume."""
    redis = services["redis"]
    assert redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in redis["volumes"])


def test_long_running_services_restart_and_report_their_health(services):
    """Everything but the one-off migration restarts unless stopped and has a
    health check."""
    for name, service in services.items():
        if name == "migrate":
            continue
        assert service.get("restart") == "unless-stopped", name
        assert service.get("healthcheck", {}).get("test"), name
