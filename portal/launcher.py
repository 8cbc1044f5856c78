"""Start and stop everything the portal needs: `python -m portal.launcher run|test|stop` (via portalctl.py).

In the embedded default (no DATABASE_URL / REDIS_URL) it starts a private PostgreSQL with pgvector and a
Redis under var/; with them set it uses those. Then it runs a real Celery worker and, for `run`, the web server
and the MCP server. `run` supervises every child it started (portal/supervisor.py): one that dies is restarted
with backoff, and after repeated failures the launcher gives up. Ctrl-C stops the children in the reverse order
of starting: MCP server, web server, worker, Redis, PostgreSQL.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from portal import embedded
from portal.supervisor import AdoptedProcess, GiveUp, Handle, Service, Supervisor, become_subreaper

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def say(message: str) -> None:
    print(f"portal: {message}", flush=True)


class Stack(contextlib.ExitStack):
    """The services and child processes of a test run, stopped in reverse order of starting (no supervision:
    a test run that loses a child should fail, not carry on)."""

    def __init__(self, var_dir: Path, env: dict[str, str]) -> None:
        super().__init__()
        self.var_dir = var_dir
        self.env = env

    def embedded_services(self, redis_name: str = "redis") -> None:
        if missing := embedded.missing_servers(self.env):
            raise SystemExit(f"portal: {missing}")
        if "DATABASE_URL" not in self.env:
            say(f"starting the embedded PostgreSQL in {embedded.pgdata_dir(self.var_dir)}")
            embedded.start_postgres(self.var_dir)
            self.callback(self._stop_postgres)
        if "REDIS_URL" not in self.env:
            proc = embedded.start_redis(self.var_dir, redis_name)
            self.env["REDIS_URL"] = embedded.redis_url(self.var_dir, redis_name)
            self.callback(stop_process, "Redis", proc, signal.SIGTERM, 10)

    def _stop_postgres(self) -> None:
        say("stopping the embedded PostgreSQL")
        embedded.stop_postgres(self.var_dir)

    def spawn(self, label: str, args: list[str], *, env: dict[str, str] | None = None, grace: float = 20):
        proc = spawn(args, env or self.env)
        self.callback(stop_process, label, proc, signal.SIGTERM, grace)
        return proc

    def manage(self, *args: str, env: dict[str, str] | None = None) -> None:
        manage(env or self.env, *args)

    def start_worker(self, env: dict[str, str] | None = None) -> subprocess.Popen:
        env = env or self.env
        proc = self.spawn("Celery worker", worker_command(env), env=env)
        try:
            wait_for_worker(proc, env)
        except RuntimeError as exc:
            raise SystemExit(f"portal: {exc}") from None
        say("the Celery worker is ready")
        return proc


def worker_nodename(host: str = "%h") -> str:
    return f"portal-{os.getpid()}@{host}"


def worker_command(env: dict[str, str]) -> list[str]:
    log_level = env.get("PORTAL_WORKER_LOG_LEVEL", "warning")
    concurrency = env.get("PORTAL_WORKER_CONCURRENCY", "1")
    command = [PYTHON, "-m", "celery", "-A", "portal", "--quiet", "worker", "-l", log_level]
    return [*command, "--concurrency", concurrency, "-n", worker_nodename()]


def wait_for_worker(proc: subprocess.Popen, env: dict[str, str], timeout: float = 60) -> None:
    """Return once the worker answers a ping; RuntimeError if it exits or stays silent."""
    ping = [PYTHON, "-m", "celery", "-A", "portal", "inspect", "ping", "--timeout", "1"]
    ping += ["-d", worker_nodename(socket.gethostname())]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the Celery worker exited during start-up; see its output above")
        if subprocess.run(ping, env=env, cwd=ROOT, capture_output=True).returncode == 0:
            return
    raise RuntimeError(f"the Celery worker did not answer within {timeout:g} s")


def _base_env(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PORTAL_VAR_DIR"] = str(var_dir)
    env.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    return env


def cmd_run(args: argparse.Namespace) -> int:
    var_dir = Path(os.environ.get("PORTAL_VAR_DIR", ROOT / "var")).resolve()
    env = _base_env(var_dir)
    started = time.monotonic()
    become_subreaper()  # the daemonised PostgreSQL becomes our child: its death is seen and reaped
    signal.signal(signal.SIGTERM, _interrupt)  # during start-up, SIGTERM stops like Ctrl-C
    supervisor = Supervisor(say=say)
    try:
        _start_all(supervisor, args, var_dir, env)
        stop = _stop_on_signal()
        if not args.no_demo:
            _supervised_manage(supervisor, stop, env, "load_demo", "--wait")
        say(f"ready in {time.monotonic() - started:.0f} s: http://{args.host}:{args.port}/  (Ctrl-C stops everything)")
        supervisor.run(stop)
        say("shutting down")
        return 0
    except GiveUp as exc:
        say(str(exc))
        return 1
    finally:
        supervisor.stop_all()


def _start_all(supervisor: Supervisor, args: argparse.Namespace, var_dir: Path, env: dict[str, str]) -> None:
    """Start every child in order, each supervised from then on; run the one-off commands in between."""
    # Only the launcher's own worker can reach a private broker and database: after it died, nobody else is
    # reading, so the documents it left half-read can be queued again at once (manage.py resume_ingest).
    private = "DATABASE_URL" not in env and "REDIS_URL" not in env
    if missing := embedded.missing_servers(env):
        raise GiveUp(missing)
    if "DATABASE_URL" not in env:
        say(f"starting the embedded PostgreSQL in {embedded.pgdata_dir(var_dir)}")
        supervisor.start(postgres_service(var_dir))
    if "REDIS_URL" not in env:
        supervisor.start(redis_service(var_dir))
        env["REDIS_URL"] = embedded.redis_url(var_dir)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    manage(env, "prepare_models")
    manage(env, "ensure_admin", "--url", f"http://{args.host}:{args.port}/")
    supervisor.start(worker_service(env, resume=private))
    say("the Celery worker is ready")
    web = ["portal.wsgi", "--bind", f"{args.host}:{args.port}", "--workers", "2", "--threads", "4"]
    web += ["--access-logfile", "-", "--log-level", "warning"]
    supervisor.start(process_service("web server", [PYTHON, "-m", "gunicorn", *web], env, grace=10))
    if args.mcp_port:
        mcp = ["mcp", "--transport", "http", "--host", args.host, "--port", str(args.mcp_port)]
        supervisor.start(process_service("MCP server", [PYTHON, "manage.py", *mcp], env, grace=10))
    manage(env, "resume_ingest")


def postgres_service(var_dir: Path) -> Service:
    def start() -> AdoptedProcess:
        embedded.start_postgres(var_dir)  # the same data folder and socket: clients reconnect to it
        pid = embedded.postgres_pid(var_dir)
        if pid is None:
            raise RuntimeError("the embedded PostgreSQL wrote no postmaster.pid")
        return AdoptedProcess(pid)

    def stop(handle: Handle) -> None:
        say("stopping the embedded PostgreSQL")
        embedded.stop_postgres(var_dir)
        handle.poll()  # reap it

    return Service("embedded PostgreSQL", start, stop)


def redis_service(var_dir: Path) -> Service:
    # The embedded Redis keeps nothing on disk: the queue died with it, so the worker is restarted after it and
    # the documents not yet read are queued again from the database (as at start-up).
    return Service(
        "embedded Redis",
        lambda: embedded.start_redis(var_dir),
        lambda proc: stop_process("embedded Redis", proc, signal.SIGTERM, 10),
        restart_also=("Celery worker",),
    )


def worker_service(env: dict[str, str], *, resume: bool) -> Service:
    def start() -> subprocess.Popen:
        proc = spawn(worker_command(env), env)
        try:
            wait_for_worker(proc, env)
        except RuntimeError:
            stop_process("Celery worker", proc, signal.SIGKILL, 10)
            raise
        return proc

    before = (lambda: manage(env, "resume_ingest")) if resume else None
    stop = lambda proc: stop_process("Celery worker", proc, signal.SIGTERM, 20)  # noqa: E731
    return Service("Celery worker", start, stop, before_restart=before)


def process_service(label: str, command: list[str], env: dict[str, str], *, grace: float) -> Service:
    return Service(label, lambda: spawn(command, env), lambda proc: stop_process(label, proc, signal.SIGTERM, grace))


def spawn(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    # A session of its own: Ctrl-C reaches only the launcher, which then stops the children in order.
    return subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)


def stop_process(label: str, proc: subprocess.Popen, sig: int, grace: float) -> None:
    if proc.poll() is not None:
        return
    say(f"stopping the {label}")
    proc.send_signal(sig)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], env=env, cwd=ROOT, check=True)


def _supervised_manage(supervisor: Supervisor, stop: Callable[[], bool], env: dict[str, str], *args: str) -> None:
    """A long management command (the demo's ingest) run while the children stay supervised."""
    proc = subprocess.Popen([PYTHON, "manage.py", *args], env=env, cwd=ROOT)
    supervisor.watch(proc.pid)
    try:
        supervisor.run(stop, until=lambda: proc.poll() is not None)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()
    if proc.returncode not in (0, -signal.SIGTERM, -signal.SIGINT):
        raise subprocess.CalledProcessError(proc.returncode, proc.args)


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _stop_on_signal() -> Callable[[], bool]:
    """From here on SIGINT and SIGTERM only ask the supervisor loop to stop, which then stops the children."""
    received: list[int] = []

    def handler(signum: int, _frame: object) -> None:
        received.append(signum)

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
    return lambda: bool(received)


def _with_database(url: str, name: str) -> str:
    head, _, tail = url.partition("?")
    base = head.rsplit("/", 1)[0]
    return f"{base}/{quote(name)}" + (f"?{tail}" if tail else "")


def cmd_test(args: argparse.Namespace) -> int:
    var_dir = Path(os.environ.get("PORTAL_TEST_VAR_DIR", ROOT / "var" / "test")).resolve()
    env = _base_env(var_dir)
    with Stack(var_dir, env) as stack:
        stack.embedded_services(redis_name="test-redis")
        if "DATABASE_URL" not in env:
            sock = embedded.database_settings(var_dir)["HOST"]
            env["DATABASE_URL"] = f"postgresql://postgres@/{embedded.DATABASE_NAME}?host={quote(sock)}"
        env.setdefault("SECRET_KEY", "test-" + secrets.token_urlsafe(32))
        env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
        env.setdefault("PORTAL_HTTPS", "false")
        # The test database is named after the configured one, so runs against different databases on one
        # server (two checkouts, CI beside a developer) never drop each other's test database.
        base_name = unquote(urlsplit(env["DATABASE_URL"]).path.lstrip("/")) or "portal"
        env.setdefault("DATABASE_TEST_NAME", f"{base_name}_test")
        # Uploaded files must be visible to the worker and the tests alike; a fresh folder each run.
        media = var_dir / "media"
        shutil.rmtree(media, ignore_errors=True)
        env["MEDIA_ROOT"] = str(media)
        # A queue of this run's own, so that no other worker on the same Redis takes its tasks.
        env["PORTAL_QUEUE"] = f"portal-test-{os.getpid()}"
        # Ids restart with every test database: a cache entry from an earlier run must never be found again.
        env["PORTAL_CACHE_PREFIX"] = f"portal-test-{os.getpid()}-{int(time.time())}"
        worker_env = dict(env, DATABASE_URL=_with_database(env["DATABASE_URL"], env["DATABASE_TEST_NAME"]))
        stack.manage("prepare_models", env=worker_env)
        stack.start_worker(worker_env)
        say("running the tests")
        result = subprocess.run([PYTHON, "-m", "pytest", *args.pytest_args], env=env, cwd=ROOT)
        return result.returncode


def cmd_stop(_args: argparse.Namespace) -> int:
    for var_dir in (ROOT / "var", ROOT / "var" / "test"):
        if embedded.stop_postgres(var_dir):
            say(f"stopped the PostgreSQL of {var_dir}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="portalctl.py")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the portal with its demo collection")
    run.add_argument("--host", default=os.environ.get("PORTAL_HOST", "127.0.0.1"))
    run.add_argument("--port", type=int, default=int(os.environ.get("PORTAL_PORT", "8000")))
    run.add_argument("--no-demo", action="store_true", help="do not create the demo collection")
    run.add_argument(
        "--mcp-port",
        type=int,
        default=int(os.environ.get("PORTAL_MCP_PORT", "8765")),
        help="streamable-HTTP MCP server port (0: none)",
    )
    run.set_defaults(func=cmd_run)
    test = sub.add_parser("test", help="run the whole test suite (extra arguments go to pytest)")
    test.add_argument("pytest_args", nargs=argparse.REMAINDER)
    test.set_defaults(func=cmd_test)
    sub.add_parser("stop", help="stop embedded servers left running").set_defaults(func=cmd_stop)
    args, extra = parser.parse_known_args(argv)
    if args.command == "test":
        args.pytest_args = [*extra, *args.pytest_args]  # everything after `test` belongs to pytest
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.func(args)
    except subprocess.CalledProcessError as exc:
        say(f"{' '.join(map(str, exc.cmd[:3]))} failed with exit code {exc.returncode}")
        return exc.returncode or 1
    except KeyboardInterrupt:
        say("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
