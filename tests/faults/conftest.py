"""Fixtures of the fault tests: workers of the test's own that it may kill, cables (proxies) it may pull, and
waiting for rows to reach a state."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest

from tests.conftest import need
from tests.faults.processes import Child, start_web, start_worker, with_address
from tests.faults.proxy import TcpProxy

# A killed worker's message is given out again once it is older than this (see CELERY_BROKER_TRANSPORT_OPTIONS):
# short here, so that a test need not wait the production value, yet longer than any job of these tests runs
# before it is killed, so no message still being worked on is handed out twice.
VISIBILITY_TIMEOUT = 10


def wait_for(check: Callable[[], object], what: str, timeout: float = 240, every: float = 0.2) -> object:
    """Poll `check` until it returns something truthy; fail naming `what` when it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(every)
    pytest.fail(f"timed out after {timeout:g} s waiting for {what}")


def _tcp(url: str) -> tuple[str, int] | None:
    parts = urlsplit(url)
    if parts.scheme in ("postgresql", "postgres", "redis") and parts.hostname and not parts.query:
        return parts.hostname, parts.port or (6379 if parts.scheme == "redis" else 5432)
    return None


@pytest.fixture
def service_urls(transactional_db) -> dict[str, str]:
    """The URLs of the real services, with the test database's own name (what the worker and server must use)."""
    from django.conf import settings
    from django.db import connection

    database_url, redis_url = os.environ.get("DATABASE_URL", ""), settings.REDIS_URL
    need(_tcp(database_url) is not None, "fault tests need PostgreSQL over TCP (DATABASE_URL=postgresql://host:port/…)")
    need(_tcp(redis_url) is not None, "fault tests need Redis over TCP (REDIS_URL=redis://host:port/N)")
    return {"database": with_address(database_url, path=connection.settings_dict["NAME"]), "redis": redis_url}


@pytest.fixture
def pg_proxy(service_urls) -> Iterator[TcpProxy]:
    proxy = TcpProxy(*_tcp(service_urls["database"]))
    yield proxy
    proxy.close()


@pytest.fixture
def redis_proxy(service_urls) -> Iterator[TcpProxy]:
    proxy = TcpProxy(*_tcp(service_urls["redis"]))
    yield proxy
    proxy.close()


@pytest.fixture
def fault_queue() -> Iterator[str]:
    """A queue only this test's workers consume; what the test process sends goes there too."""
    from portal.celery import app

    queue = f"faults-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    default = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        yield queue
    finally:
        app.conf.task_default_queue = default
        with app.connection_for_write() as connection:
            # the queue and kombu's bindings of it: nothing of this test stays in the shared Redis database
            connection.default_channel.client.delete(
                queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"
            )


@pytest.fixture
def workers(service_urls, fault_queue, tmp_path) -> Iterator[Callable[..., Child]]:
    """Start workers of this test (stopped at its end, if still alive): `workers("name", database_port=…)`."""
    started: list[Child] = []

    def start(name: str, *, database_port: int | None = None, redis_port: int | None = None) -> Child:
        child = start_worker(
            f"{name}-{uuid.uuid4().hex[:6]}",
            database_url=with_address(service_urls["database"], port=database_port),
            redis_url=with_address(service_urls["redis"], port=redis_port),
            queue=fault_queue,
            log=tmp_path / f"worker-{name}.log",
            extra_env={"PORTAL_BROKER_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)},
        )
        started.append(child)
        return child

    yield start
    for child in started:
        child.stop()


@pytest.fixture
def web_server(service_urls, fault_queue, tmp_path) -> Iterator[Callable[..., str]]:
    """Start the portal's web server for this test: `web_server(database_port=…, redis_port=…)` → its base URL."""
    started: list[Child] = []

    def start(*, database_port: int | None = None, redis_port: int | None = None) -> str:
        child, base = start_web(
            database_url=with_address(service_urls["database"], port=database_port),
            redis_url=with_address(service_urls["redis"], port=redis_port),
            queue=fault_queue,
            log=tmp_path / "web.log",
        )
        started.append(child)
        return base

    yield start
    for child in started:
        child.stop()
