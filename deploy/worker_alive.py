"""Health check of a task worker's container (docker-compose.yml): healthy while
an RQ worker of this host is registered on the queue's Redis. A worker renews
its registration with every heartbeat; one that hangs or dies drops out of it."""

import os
import socket
import sys

import redis
from rq import Worker

connection = redis.Redis.from_url(os.environ["TASKS_URL"], socket_timeout=5)
host = socket.gethostname()
sys.exit(0 if any(w.hostname == host for w in Worker.all(connection=connection)) else 1)
