"""Keep the launcher's children alive: notice a death, reap it, restart it with backoff, give up after repeated
failures, and stop everything in the reverse order of starting.

Nothing here imports Django: the launcher runs it before (and beside) the processes that load the settings.
The launcher makes itself a child subreaper (Linux), so a daemonised server it started through a helper
(PostgreSQL's postmaster, forked by pg_ctl) is re-parented to it: its death can be reaped and its exit status read,
and the children such a server leaves behind do not linger as zombies.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import psutil

_PR_SET_CHILD_SUBREAPER = 36


class Handle(Protocol):
    """What the supervisor needs of a running child: a `subprocess.Popen`, or an `AdoptedProcess`."""

    pid: int

    def poll(self) -> int | None: ...


class AdoptedProcess:
    """A process started through a helper that exited at once (pg_ctl), known by its pid.

    As a child subreaper the launcher is its parent, so `poll` reaps it like `Popen.poll` does; otherwise it can only
    see whether the pid still runs (a zombie counts as gone), and the exit status stays unknown."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.status_known = True

    def poll(self) -> int | None:
        if self.returncode is not None:
            return self.returncode
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # not our child: no subreaper on this system
            if _running(self.pid):
                return None
            self.returncode, self.status_known = 0, False
            return self.returncode
        if pid == 0:
            return None
        self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def become_subreaper() -> bool:
    """Adopt orphaned descendants (Linux prctl); False where the system has no such thing."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def exit_description(handle: Handle) -> str:
    code = handle.poll()
    if not getattr(handle, "status_known", True) or code is None:
        return "it exited"
    if code < 0:
        return f"signal {-code}"
    return f"exit code {code}"


@dataclass
class Service:
    """One supervised child. `start` starts it and returns once it is usable (raising if it cannot be started);
    `stop` stops it gracefully. `before_restart` runs before each restart (not the first start); `restart_also`
    names services that lost their state with this one and are restarted after it."""

    label: str
    start: Callable[[], Handle]
    stop: Callable[[Handle], None]
    before_restart: Callable[[], None] | None = None
    restart_also: tuple[str, ...] = ()
    handle: Handle | None = field(default=None, init=False)
    deaths: list[float] = field(default_factory=list, init=False)
    restart_at: float | None = field(default=None, init=False)


class GiveUp(Exception):
    """A child failed too often in a short time: the launcher stops everything."""


class Supervisor:
    """Starts services in order, restarts the ones that die, and stops them all in reverse order.

    Backoff: the n-th death within `window` seconds waits `first_delay * 2**(n-1)` seconds (at most `max_delay`)
    before the restart; death number `max_failures + 1` within the window gives up."""

    def __init__(
        self,
        *,
        say: Callable[[str], None],
        first_delay: float = 2.0,
        max_delay: float = 30.0,
        max_failures: int = 5,
        window: float = 120.0,
        poll_interval: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.say = say
        self.first_delay, self.max_delay = first_delay, max_delay
        self.max_failures, self.window = max_failures, window
        self.poll_interval = poll_interval
        self.clock = clock
        self.services: list[Service] = []
        self._others: set[int] = set()  # pids of children someone else waits for (Popen objects of the caller)

    def start(self, service: Service) -> Handle:
        """First start of a service (its failure propagates: nothing is running yet that could be restarted)."""
        service.handle = service.start()
        self.services.append(service)
        return service.handle

    def watch(self, pid: int) -> None:
        """A child of the caller's that the orphan reaper must leave alone (the caller reaps it itself)."""
        self._others.add(pid)

    def run(self, stop_requested: Callable[[], bool], until: Callable[[], bool] = lambda: False) -> None:
        """Supervise until `stop_requested()` or `until()` is true; raises GiveUp after repeated failures."""
        while not stop_requested() and not until():
            self.check()
            time.sleep(self.poll_interval)

    def check(self) -> None:
        """One pass: notice deaths, restart the services whose backoff has passed, reap adopted orphans."""
        for service in self.services:
            if service.restart_at is None and service.handle is not None and service.handle.poll() is not None:
                self._died(service)
        for service in self.services:
            if service.restart_at is not None and self.clock() >= service.restart_at:
                self._restart(service)
        self.reap_orphans()

    def _died(self, service: Service, why: str | None = None) -> None:
        assert service.handle is not None
        why = why or exit_description(service.handle)
        _kill_leftovers(service.handle)
        now = self.clock()
        service.deaths = [t for t in service.deaths if now - t < self.window] + [now]
        if len(service.deaths) > self.max_failures:
            raise GiveUp(
                f"the {service.label} failed {len(service.deaths)} times within {self.window:g} s ({why}); "
                "giving up and shutting down"
            )
        delay = min(self.first_delay * 2 ** (len(service.deaths) - 1), self.max_delay)
        self.say(f"the {service.label} died ({why}); restarting it in {delay:g} s")
        service.restart_at = now + delay

    def _restart(self, service: Service) -> None:
        service.restart_at = None
        try:
            if service.before_restart is not None:
                service.before_restart()
            service.handle = service.start()
        except Exception as exc:  # a failed start counts as one more death, with the same backoff
            self._died(service, why=f"restart failed: {exc}")
            return
        self.say(f"the {service.label} is running again")
        for label in service.restart_also:
            other = next((candidate for candidate in self.services if candidate.label == label), None)
            if other and other.handle is not None and other.handle.poll() is None and other.restart_at is None:
                self.say(f"restarting the {other.label} too: it lost its state with the {service.label}")
                _kill_leftovers(other.handle, everything=True)
                _wait(other.handle)  # reaped: no zombie, and its port or socket is free
                self._restart(other)

    def reap_orphans(self) -> None:
        """Reap exited processes re-parented to us (a dead server's children), never one someone waits for."""
        ours = {s.handle.pid for s in self.services if s.handle is not None} | self._others
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process().children():
                if child.pid in ours:
                    continue
                with contextlib.suppress(psutil.Error, ChildProcessError):
                    if child.status() == psutil.STATUS_ZOMBIE:
                        os.waitpid(child.pid, os.WNOHANG)

    def stop_all(self) -> None:
        """Stop every running service, the last started first."""
        for service in reversed(self.services):
            if service.handle is not None and service.handle.poll() is None:
                try:
                    service.stop(service.handle)
                except Exception as exc:  # stop the others all the same
                    self.say(f"could not stop the {service.label}: {exc}")
            if service.handle is not None:
                _kill_leftovers(service.handle)
        self.reap_orphans()


def _wait(handle: Handle) -> None:
    deadline = time.monotonic() + 30
    while handle.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)


def _kill_leftovers(handle: Handle, *, everything: bool = False) -> None:
    """SIGKILL what is left of a child's own process group (pool children, gunicorn workers holding the port):
    a restart must not meet the remains of the process it replaces. Only a group the child leads (it was started
    in a session of its own): never the launcher's. With `everything`, the child itself too."""
    if everything:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(handle.pid, signal.SIGKILL)
    try:
        if os.getpgid(handle.pid) != handle.pid:
            return
    except ProcessLookupError:
        pass  # already reaped: its group may live on under its number
    if handle.pid == os.getpgrp():
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(handle.pid, signal.SIGKILL)


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
