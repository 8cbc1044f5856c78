"""Running the risky part of reading a file in a forked child process with bounded memory, CPU and wall time.

A damaged or hostile file can make a parser allocate gigabytes (a compression bomb) or spin for hours; the
worker's own limits (a 30-minute task limit, 2 GB per child) are far too loose to protect the machine and the
other jobs. So the step runs in a child made with os.fork() - Celery's prefork children are daemonic, and
multiprocessing refuses to start children from a daemonic process - with RLIMIT_AS set to what the child has
already mapped plus a budget, and RLIMIT_CPU as a backstop. The parent reads the pickled reply from a pipe,
SIGKILLs the child when the wall-clock limit passes, and always reaps it (no zombies).

Forking (not spawning) means nothing is pickled on the way in: the child already holds the file's bytes and
every imported module. It leaves with os._exit(), so it never closes or flushes what it shares with the
parent (database and broker sockets, buffered files).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import pickle
import re
import resource
import select
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from . import progress
from .errors import ParseError

T = TypeVar("T")
log = logging.getLogger(__name__)

MB = 1024 * 1024
_READ_BLOCK = 1024 * 1024
# Exit status of a child that could not even report (its reply failed to pickle and to send).
_CHILD_BROKE = 70
# How C libraries report a refused allocation once RLIMIT_AS bites: MuPDF ("code=2: realloc (595055436 bytes)
# failed"), libxml2 ("Memory allocation failed"), C++ (std::bad_alloc).
_OUT_OF_MEMORY_RE = re.compile(
    r"\b(?:m|re|c)alloc\b.*\bfailed\b|memory allocation failed|out of memory|cannot allocate memory|bad_alloc",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Usage:
    """What the child used, from the kernel's accounting (wait4), whatever way it ended."""

    peak_rss_mb: float  # the child's own peak resident size (pages it touched, including ones shared at the fork)
    cpu_s: float
    wall_s: float


@dataclass(frozen=True)
class Bounded(Generic[T]):
    value: T
    usage: Usage


class LimitExceeded(ParseError):
    """Reading the file went past the memory or time budget; the message says which, for the uploader."""

    def __init__(self, message: str, *, kind: str, usage: Usage, detail: str = "") -> None:
        super().__init__(message, detail=detail)
        self.kind = kind  # "memory" | "time" | "crash"
        self.usage = usage


class ChildFailed(Exception):
    """The child raised something unexpected (a bug, not a property of the file); carries its traceback."""

    def __init__(self, type_name: str, child_traceback: str) -> None:
        super().__init__(f"{type_name} in the reading process:\n{child_traceback}")
        self.type_name = type_name
        self.child_traceback = child_traceback


def memory_message(memory_mb: int) -> str:
    return (
        f"Reading this file needed more than {memory_mb} MB of memory; "
        "it may be damaged or built to exhaust the reader."
    )


def time_message(timeout_s: float) -> str:
    return (
        f"Reading this file took longer than {timeout_s:g} seconds; it may be damaged or built to exhaust the reader."
    )


def crash_message(signal_name: str) -> str:
    return f"The reader stopped abruptly on this file ({signal_name}); it may be damaged or built to attack the reader."


def out_of_memory(exc: BaseException) -> bool:
    """True when `exc`, or what caused it, is a refused allocation rather than a damaged file."""
    seen: BaseException | None = exc
    for _ in range(10):  # causes chain rarely deeper than two; never loop on a cycle
        if seen is None:
            return False
        if isinstance(seen, MemoryError):
            return True
        text = f"{seen} {getattr(seen, 'detail', '')}"
        if _OUT_OF_MEMORY_RE.search(text):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def run_bounded(
    fn: Callable[..., T], *args: object, memory_mb: int, timeout_s: float, on_progress: progress.Sink | None = None
) -> Bounded[T]:
    """fn(*args) in a forked child limited to `memory_mb` more address space and `timeout_s` seconds.
    What fn reports through progress.report() reaches `on_progress` in this process, through a second pipe.

    Returns its value with the child's usage. Raises the ParseError fn raised; LimitExceeded (a ParseError
    with a sentence for the uploader) when a limit was hit or the child died of a signal; ChildFailed for
    any other exception in fn.
    """
    started = time.monotonic()
    read_fd, write_fd = os.pipe()
    news_read, news_write = os.pipe() if on_progress else (None, None)
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        if news_read is not None:
            os.close(news_read)
        _child(fn, args, write_fd, memory_mb, timeout_s, news_write)
    os.close(write_fd)
    if news_write is not None:
        os.close(news_write)
    payload: bytes | None = None
    timed_out = False
    rusage = None
    status = 0
    try:
        payload, timed_out = _collect(read_fd, started + timeout_s, news_read, on_progress)
    finally:
        os.close(read_fd)
        if news_read is not None:
            os.close(news_read)
        if payload is None:
            # Timed out, or interrupted (a soft time limit in the parent): the child must not outlive us.
            _kill(pid)
        _, status, rusage = os.wait4(pid, 0)
    usage = Usage(
        peak_rss_mb=round(rusage.ru_maxrss / 1024, 1),
        cpu_s=round(rusage.ru_utime + rusage.ru_stime, 2),
        wall_s=round(time.monotonic() - started, 2),
    )
    if timed_out:
        raise LimitExceeded(time_message(timeout_s), kind="time", usage=usage)
    try:
        return Bounded(_reply(payload, status, usage, memory_mb, timeout_s), usage)
    except ParseError as exc:
        exc.usage = usage
        raise


def _reply(payload: bytes | None, status: int, usage: Usage, memory_mb: int, timeout_s: float):
    if os.WIFSIGNALED(status):  # whatever it wrote before dying is incomplete
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            raise LimitExceeded(time_message(timeout_s), kind="time", usage=usage)
        if sig == signal.SIGKILL:  # not ours (we only kill on timeout): the kernel's out-of-memory killer
            raise LimitExceeded(memory_message(memory_mb), kind="memory", usage=usage)
        name = signal.Signals(sig).name if sig in signal.valid_signals() else f"signal {sig}"
        raise LimitExceeded(crash_message(name), kind="crash", usage=usage)
    if not payload:
        raise ChildFailed("NoReply", f"the reading process exited with status {os.waitstatus_to_exitcode(status)}")
    kind, body = pickle.loads(payload)  # written by our own forked child, never by a client
    if kind == "ok":
        return body
    if kind == "memory":
        raise LimitExceeded(memory_message(memory_mb), kind="memory", usage=usage, detail=body)
    if kind == "parse":
        message, detail = body
        raise ParseError(message, detail=detail)
    type_name, child_traceback = body
    raise ChildFailed(type_name, child_traceback)


def _collect(
    read_fd: int, deadline: float, news_fd: int | None = None, on_progress: progress.Sink | None = None
) -> tuple[bytes | None, bool]:
    """Everything the child writes, until it closes the pipe; (None, True) when the deadline passes first.
    Meanwhile its progress lines on `news_fd` ("stage done total") are handed to `on_progress`."""
    pieces: list[bytes] = []
    news = b""
    poller = select.poll()
    poller.register(read_fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    if news_fd is not None:
        poller.register(news_fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None, True
        for fd, _ in poller.poll(math.ceil(remaining * 1000)):
            if fd == news_fd:
                piece = os.read(fd, 4096)
                if not piece:
                    poller.unregister(fd)
                news = _relay(news + piece, on_progress)
                continue
            piece = os.read(read_fd, _READ_BLOCK)
            if not piece:
                return b"".join(pieces), False
            pieces.append(piece)


def _relay(news: bytes, on_progress: progress.Sink | None) -> bytes:
    """Hand the last complete progress line to `on_progress`; returns the incomplete rest."""
    *lines, rest = news.split(b"\n")
    if lines and on_progress is not None:
        try:
            stage, done, total = lines[-1].decode().split()
            on_progress(stage, int(done), int(total))
        except Exception:  # progress is a courtesy: a failed write of it must not fail the reading
            log.debug("progress line %r not relayed", lines[-1], exc_info=True)
    return rest


def _pipe_sink(fd: int) -> progress.Sink:
    """progress.report() in the child: one line per report, dropped rather than waited for if the pipe is full."""
    os.set_blocking(fd, False)

    def send(stage: str, done: int, total: int) -> None:
        with contextlib.suppress(BlockingIOError, BrokenPipeError):
            os.write(fd, f"{stage} {done} {total}\n".encode())

    return send


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _child(fn: Callable, args: tuple, write_fd: int, memory_mb: int, timeout_s: float, news_fd: int | None) -> None:
    status = 0
    try:
        # The parent's handlers (Celery's soft time limit, Django's autoreloader) mean nothing here.
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        _apply_limits(memory_mb, timeout_s)
        with progress.reporting_to(_pipe_sink(news_fd) if news_fd is not None else None):
            reply = _call(fn, args)
        try:
            payload = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            payload = pickle.dumps(("memory", "pickling the result ran out of memory"))
        except Exception as exc:  # a result that cannot be pickled is a bug, reported as one
            payload = pickle.dumps(("error", (type(exc).__name__, traceback.format_exc())))
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view) :]
        os.close(write_fd)
    except BaseException:  # nothing may escape a forked child into the parent's code
        status = _CHILD_BROKE
    finally:
        os._exit(status)


def _call(fn: Callable, args: tuple) -> tuple[str, object]:
    try:
        return "ok", fn(*args)
    except ParseError as exc:
        if out_of_memory(exc):
            return "memory", exc.detail or str(exc)
        return "parse", (exc.message, exc.detail)
    except BaseException as exc:  # reported to the parent, which decides
        if out_of_memory(exc):
            return "memory", repr(exc)
        return "error", (type(exc).__name__, traceback.format_exc())


def _apply_limits(memory_mb: int, timeout_s: float) -> None:
    # Address space, not resident size: the kernel enforces it at allocation time, so malloc returns NULL
    # (MemoryError, or the library's own out-of-memory error) instead of the machine swapping.
    address_space = _mapped_bytes() + memory_mb * MB
    _lower(resource.RLIMIT_AS, address_space)
    # CPU time backs up the parent's wall clock (which also covers a child stuck waiting, not computing).
    cpu = math.ceil(timeout_s) + 1
    _lower(resource.RLIMIT_CPU, cpu, hard=cpu + 5)


def _lower(which: int, soft: int, *, hard: int | None = None) -> None:
    _, current_hard = resource.getrlimit(which)
    cap = current_hard if current_hard != resource.RLIM_INFINITY else None
    soft = min(soft, cap) if cap is not None else soft
    hard = hard if hard is not None else soft
    hard = min(hard, cap) if cap is not None else hard
    resource.setrlimit(which, (soft, max(soft, hard)))


def _mapped_bytes() -> int:
    with open("/proc/self/statm") as fh:  # Linux: sizes in pages, the first is the whole address space
        return int(fh.read().split()[0]) * resource.getpagesize()
