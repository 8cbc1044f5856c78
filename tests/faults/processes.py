"""Processes a fault test owns and may kill: a Celery worker and a web server, pointed at chosen service addresses.

The worker that `portalctl.py test` starts is shared by the whole run and must survive; these are started per test,
on a queue of their own, so killing one loses nobody else's work.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120.0  # seconds; a worker imports torch and Django, on a shared 2-core machine


def with_address(url: str, *, port: int | None = None, path: str | None = None) -> str:
    """`url` sent to 127.0.0.1:`port` (a proxy) and/or with another path (database name, Redis db number)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if port is not None:
        userinfo = netloc.rpartition("@")[0]
        netloc = f"{userinfo}@127.0.0.1:{port}" if userinfo else f"127.0.0.1:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path if path is None else "/" + path, parts.query, ""))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Child:
    """A process started in a session of its own, so that it and everything it forked can be killed together."""

    label: str
    proc: subprocess.Popen
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def alive(self) -> bool:
        return self.proc.poll() is None

    def descendants(self) -> list[psutil.Process]:
        try:
            return psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def kill_everything(self) -> None:
        """SIGKILL the whole process group at once: the machine's view of a worker that just died."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if not self.alive():
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.kill_everything()


def _environment(database_url: str, redis_url: str, queue: str, extra: dict[str, str] | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DATABASE_TEST_NAME", None)  # the URL names the test database itself
    env.update(DATABASE_URL=database_url, REDIS_URL=redis_url, PORTAL_QUEUE=queue)
    env.update(extra or {})
    return env


def start_worker(
    name: str, *, database_url: str, redis_url: str, queue: str, log: Path, extra_env: dict[str, str] | None = None
) -> Child:
    """A Celery worker (one pool child) consuming only `queue`; returns once it answers a ping."""
    from portal.celery import app

    nodename = f"{name}@{socket.gethostname()}"
    env = _environment(database_url, redis_url, queue, extra_env)
    args = [sys.executable, "-m", "celery", "-A", "portal", "worker", "-l", "info", "--concurrency", "1"]
    args += ["-n", nodename, "--without-mingle", "--without-gossip"]
    with log.open("ab") as out:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    child = Child(nodename, proc, log)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if not child.alive():
            raise RuntimeError(f"worker {nodename} exited during start-up:\n{child.log_tail()}")
        if app.control.ping(destination=[nodename], timeout=1):
            return child
    child.kill_everything()
    raise RuntimeError(f"worker {nodename} did not answer within {START_TIMEOUT:g} s:\n{child.log_tail()}")


def start_web(
    *, database_url: str, redis_url: str, queue: str, log: Path, extra_env: dict[str, str] | None = None
) -> tuple[Child, str]:
    """The portal under gunicorn (as `portalctl.py run` serves it) on a free port; returns it and its base URL."""
    port = free_port()
    # tests.faults.server_settings: the production settings, with static files served without a manifest.
    env = _environment(database_url, redis_url, queue, {"DJANGO_SETTINGS_MODULE": "tests.faults.server_settings"})
    env.update(extra_env or {})
    args = [sys.executable, "-m", "gunicorn", "portal.wsgi", "--bind", f"127.0.0.1:{port}"]
    args += ["--workers", "1", "--threads", "4", "--timeout", "120", "--log-level", "warning"]
    with log.open("ab") as out:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    child = Child("web server", proc, log)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while time.monotonic() < deadline:
        if not child.alive():
            raise RuntimeError(f"the web server exited during start-up:\n{child.log_tail()}")
        try:
            with opener.open(f"{base}/accounts/login/", timeout=5) as response:
                if response.status == 200:
                    return child, base
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    child.kill_everything()
    raise RuntimeError(f"the web server did not answer within {START_TIMEOUT:g} s:\n{child.log_tail()}")
