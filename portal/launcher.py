"""Start and stop everything the portal needs: `python -m portal.launcher run|test|stop` (via portalctl.py).

In the embedded default (no DATABASE_URL / REDIS_URL) it starts a private PostgreSQL with pgvector and a
Redis under var/; with them set it uses those. Then it runs a real Celery worker and, for `run`, the web server.
Ctrl-C stops the children in order: web server, worker, Redis, PostgreSQL.
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
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from portal import embedded

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def say(message: str) -> None:
    print(f"portal: {message}", flush=True)


class Stack(contextlib.ExitStack):
    """The services and child processes of one launcher run, stopped in reverse order of starting."""

    def __init__(self, var_dir: Path, env: dict[str, str]) -> None:
        super().__init__()
        self.var_dir = var_dir
        self.env = env

    def embedded_services(self, redis_name: str = "redis") -> None:
        if "DATABASE_URL" not in self.env:
            say(f"starting the embedded PostgreSQL in {embedded.pgdata_dir(self.var_dir)}")
            embedded.start_postgres(self.var_dir)
            self.callback(self._stop_postgres)
        if "REDIS_URL" not in self.env:
            proc = embedded.start_redis(self.var_dir, redis_name)
            self.env["REDIS_URL"] = embedded.redis_url(self.var_dir, redis_name)
            self.callback(self._stop, "Redis", proc, signal.SIGTERM, 10)

    def _stop_postgres(self) -> None:
        say("stopping the embedded PostgreSQL")
        embedded.stop_postgres(self.var_dir)

    def spawn(
        self,
        label: str,
        args: list[str],
        *,
        env: dict[str, str] | None = None,
        stop_signal: int = signal.SIGTERM,
        grace: float = 20,
    ) -> subprocess.Popen:
        # A session of its own: Ctrl-C reaches only the launcher, which then stops the children in order.
        proc = subprocess.Popen(args, env=env or self.env, cwd=ROOT, start_new_session=True)
        self.callback(self._stop, label, proc, stop_signal, grace)
        return proc

    @staticmethod
    def _stop(label: str, proc: subprocess.Popen, sig: int, grace: float) -> None:
        if proc.poll() is not None:
            return
        say(f"stopping the {label}")
        proc.send_signal(sig)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def manage(self, *args: str, env: dict[str, str] | None = None) -> None:
        subprocess.run([PYTHON, "manage.py", *args], env=env or self.env, cwd=ROOT, check=True)

    def start_worker(self, env: dict[str, str] | None = None) -> subprocess.Popen:
        env = env or self.env
        log_level = env.get("PORTAL_WORKER_LOG_LEVEL", "warning")
        proc = self.spawn(
            "Celery worker",
            [
                PYTHON,
                "-m",
                "celery",
                "-A",
                "portal",
                "--quiet",
                "worker",
                "-l",
                log_level,
                "--concurrency",
                env.get("PORTAL_WORKER_CONCURRENCY", "1"),
                "-n",
                f"portal-{os.getpid()}@%h",
            ],
            env=env,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise SystemExit("portal: the Celery worker exited during start-up; see its output above")
            ping = subprocess.run(
                [
                    PYTHON,
                    "-m",
                    "celery",
                    "-A",
                    "portal",
                    "inspect",
                    "ping",
                    "--timeout",
                    "1",
                    "-d",
                    f"portal-{os.getpid()}@{socket.gethostname()}",
                ],
                env=env,
                cwd=ROOT,
                capture_output=True,
            )
            if ping.returncode == 0:
                say("the Celery worker is ready")
                return proc
        raise SystemExit("portal: the Celery worker did not answer within 60 s")


def _base_env(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PORTAL_VAR_DIR"] = str(var_dir)
    env.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    return env


def cmd_run(args: argparse.Namespace) -> int:
    var_dir = Path(os.environ.get("PORTAL_VAR_DIR", ROOT / "var")).resolve()
    env = _base_env(var_dir)
    started = time.monotonic()
    with Stack(var_dir, env) as stack:
        stack.embedded_services()
        stack.manage("migrate", "--noinput", "-v", "0")
        stack.manage("collectstatic", "--noinput", "-v", "0")
        stack.manage("prepare_models")
        stack.manage("ensure_admin", "--url", f"http://{args.host}:{args.port}/")
        stack.start_worker()
        web = stack.spawn(
            "web server",
            [
                PYTHON,
                "-m",
                "gunicorn",
                "portal.wsgi",
                "--bind",
                f"{args.host}:{args.port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--access-logfile",
                "-",
                "--log-level",
                "warning",
            ],
            stop_signal=signal.SIGTERM,
            grace=10,
        )
        if args.mcp_port:
            stack.spawn(
                "MCP server",
                [PYTHON, "manage.py", "mcp", "--transport", "http", "--host", args.host, "--port", str(args.mcp_port)],
                stop_signal=signal.SIGTERM,
                grace=10,
            )
        stack.manage("resume_ingest")
        if not args.no_demo:
            stack.manage("load_demo", "--wait")
        say(f"ready in {time.monotonic() - started:.0f} s: http://{args.host}:{args.port}/  (Ctrl-C stops everything)")
        return _wait_for_interrupt([web])


def _wait_for_interrupt(children: list[subprocess.Popen]) -> int:
    stop = {"signal": None}

    def _handler(signum, _frame):
        stop["signal"] = signum

    signal.signal(signal.SIGINT, _handler)
    signal.signal(signal.SIGTERM, _handler)
    while stop["signal"] is None:
        for child in children:
            if child.poll() is not None:
                say(f"a child process exited with code {child.returncode}; shutting down")
                return 1
        time.sleep(0.5)
    say("shutting down")
    return 0


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
