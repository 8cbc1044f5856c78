"""The launcher's supervisor, on real child processes: a death is reaped, said and restarted with backoff; repeated
failures give up; everything stops in the reverse order of starting; a daemonised child is adopted and reaped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from portal.supervisor import GiveUp, Service, Supervisor

ROOT = Path(__file__).resolve().parent.parent
SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]


def _spawn(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, start_new_session=True)


def _terminate(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(10)


def _supervisor(lines: list[str], **kwargs) -> Supervisor:
    options = {"first_delay": 0.1, "max_delay": 0.4, "max_failures": 3, "window": 120.0, "poll_interval": 0.05}
    return Supervisor(say=lines.append, **(options | kwargs))


def _run_until(supervisor: Supervisor, condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the supervisor did not get there in time"
        supervisor.check()
        time.sleep(0.05)


def _is_zombie_or_gone(pid: int) -> str:
    try:
        return psutil.Process(pid).status()
    except psutil.NoSuchProcess:
        return "gone"


def test_a_killed_child_is_reaped_said_and_started_again():
    lines: list[str] = []
    supervisor = _supervisor(lines)
    service = Service("sleeper", lambda: _spawn(SLEEPER), _terminate)
    first = supervisor.start(service)
    try:
        os.kill(first.pid, signal.SIGKILL)
        _run_until(supervisor, lambda: service.handle is not first)

        assert _is_zombie_or_gone(first.pid) == "gone"  # reaped: no zombie left behind
        assert lines[0] == "the sleeper died (signal 9); restarting it in 0.1 s", lines
        assert lines[1] == "the sleeper is running again"
        assert service.handle.poll() is None and psutil.pid_exists(service.handle.pid)
    finally:
        supervisor.stop_all()
    assert service.handle.poll() is not None


def test_the_delay_doubles_with_each_death_and_repeated_failures_give_up():
    lines: list[str] = []
    supervisor = _supervisor(lines)
    failing = [sys.executable, "-c", "import sys; sys.exit(3)"]
    supervisor.start(Service("flaky child", lambda: _spawn(failing), _terminate))
    with pytest.raises(GiveUp) as gave_up:
        _run_until(supervisor, lambda: False)
    supervisor.stop_all()

    delays = [line.rsplit(" in ", 1)[1] for line in lines if "restarting it in" in line]
    assert delays == ["0.1 s", "0.2 s", "0.4 s"], lines
    assert (
        str(gave_up.value) == "the flaky child failed 4 times within 120 s (exit code 3); giving up and shutting down"
    )


def test_a_start_that_fails_counts_as_a_death_and_is_tried_again():
    lines: list[str] = []
    supervisor = _supervisor(lines)
    attempts: list[int] = []

    def start() -> subprocess.Popen:
        attempts.append(1)
        if len(attempts) == 2:  # the first restart: e.g. the server's port is still taken
            raise RuntimeError("port in use")
        return _spawn(SLEEPER)

    service = Service("server", start, _terminate)
    first = supervisor.start(service)
    try:
        first.kill()
        _run_until(supervisor, lambda: len(attempts) == 3)
        assert "the server died (restart failed: port in use); restarting it in 0.2 s" in lines, lines
        assert service.handle.poll() is None
    finally:
        supervisor.stop_all()


def test_everything_stops_in_the_reverse_order_of_starting_and_dependents_restart_with_what_they_need():
    lines: list[str] = []
    stopped: list[str] = []
    prepared: list[str] = []
    supervisor = _supervisor(lines)

    def stop(label: str):
        def do(proc: subprocess.Popen) -> None:
            stopped.append(label)
            _terminate(proc)

        return do

    broker = Service("broker", lambda: _spawn(SLEEPER), stop("broker"), restart_also=("worker",))
    worker = Service("worker", lambda: _spawn(SLEEPER), stop("worker"), before_restart=lambda: prepared.append("x"))
    web = Service("web", lambda: _spawn(SLEEPER), stop("web"))
    for service in (broker, worker, web):
        supervisor.start(service)
    old_worker = worker.handle
    try:
        broker.handle.kill()
        _run_until(supervisor, lambda: worker.handle is not old_worker)

        assert _is_zombie_or_gone(old_worker.pid) == "gone"
        assert prepared == ["x"]  # the worker's own preparation ran before it came back
        assert "restarting the worker too: it lost its state with the broker" in lines
    finally:
        supervisor.stop_all()
    assert stopped == ["web", "worker", "broker"]


ADOPTION_SCRIPT = textwrap.dedent(
    """
    import json, os, signal, subprocess, sys, time
    import psutil
    from portal.supervisor import AdoptedProcess, Service, Supervisor, become_subreaper

    assert become_subreaper()

    def start():
        # A helper that starts a daemon and exits at once, as pg_ctl does with the postmaster.
        out = subprocess.run(["sh", "-c", "setsid sleep 600 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True)
        return AdoptedProcess(int(out.stdout))

    lines = []
    supervisor = Supervisor(say=lines.append, first_delay=0.1, poll_interval=0.05)
    service = Service("daemon", start, lambda h: os.kill(h.pid, signal.SIGTERM))
    first = supervisor.start(service)
    parent = psutil.Process(first.pid).ppid()
    os.kill(first.pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while service.handle is first and time.monotonic() < deadline:
        supervisor.check()
        time.sleep(0.05)
    old_state = psutil.Process(first.pid).status() if psutil.pid_exists(first.pid) else "gone"
    supervisor.stop_all()
    print(json.dumps({"me": os.getpid(), "parent": parent, "lines": lines, "old": old_state}))
    """
)


def test_a_daemonised_child_is_adopted_so_its_death_is_seen_reaped_and_restarted():
    result = subprocess.run(
        [sys.executable, "-c", ADOPTION_SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["parent"] == seen["me"]  # re-parented to the supervising process, not to PID 1
    assert seen["lines"][:2] == ["the daemon died (signal 9); restarting it in 0.1 s", "the daemon is running again"]
    assert seen["old"] == "gone"
