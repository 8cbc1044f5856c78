"""The README's first command, end to end: embedded servers, worker, demo ingest, web server, Ctrl-C."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent
_SERVICE_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_TEST_NAME",
    "MEDIA_ROOT",
    "PORTAL_QUEUE",
    "PORTAL_HTTPS",
    "DJANGO_SETTINGS_MODULE",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _read_until(proc: subprocess.Popen, pattern: str, timeout: float, seen: list[str]) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if re.search(pattern, line):
            return line
    pytest.fail(f"no line matching {pattern!r} within {timeout} s; output:\n{''.join(seen[-40:])}")


def test_run_brings_up_the_demo_portal_and_ctrl_c_stops_everything(tmp_path):
    port, mcp_port = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if k not in _SERVICE_VARS}
    env["PORTAL_VAR_DIR"] = str(tmp_path / "var")
    proc = subprocess.Popen(
        [sys.executable, "-m", "portal.launcher", "run", "--port", str(port), "--mcp-port", str(mcp_port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen: list[str] = []
    try:
        login = _read_until(proc, r"Log in at .* as admin with password (\S+)", 180, seen)
        password = re.search(r"password (\S+)", login).group(1)
        _read_until(proc, r"ready in \d+ s", 300, seen)
        output = "".join(seen)
        assert "portal-guide" in output or "user guide" in output.lower()
        assert output.count("100%") >= 4, output

        children = psutil.Process(proc.pid).children(recursive=True)
        assert any("celery" in " ".join(c.cmdline()) for c in children)
        assert any("mcp" in c.cmdline() for c in children)
        # The MCP server beside the web server: up, and refusing a call without an API token.
        mcp_call = urllib.request.Request(f"http://127.0.0.1:{mcp_port}/mcp", data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(mcp_call, timeout=30)
        assert refused.value.code == 401

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        base = f"http://127.0.0.1:{port}"
        opener.open(f"{base}/accounts/login/").read()
        csrf = next(c.value for c in jar if c.name == "csrftoken")
        form = urllib.parse.urlencode({"username": "admin", "password": password, "csrfmiddlewaretoken": csrf})
        request = urllib.request.Request(
            f"{base}/accounts/login/", data=form.encode(), headers={"Referer": f"{base}/accounts/login/"}
        )
        assert "Demo library" in opener.open(request).read().decode()
        page = opener.open(f"{base}/c/demo/").read().decode()
        assert page.count('class="badge ready"') == 4, page
        css = opener.open(f"{base}/static/css/portal.css")
        assert css.status == 200
    finally:
        pg_pid_file = tmp_path / "var" / "pgdata" / "postmaster.pid"
        pg_pid = int(pg_pid_file.read_text().split()[0]) if pg_pid_file.exists() else None
        proc.send_signal(signal.SIGINT)
        try:
            rest, _ = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode == 0, rest
    assert not any(_running(c.pid) for c in children), rest
    assert pg_pid is not None and not _running(pg_pid)


def _running(pid: int) -> bool:
    # An orphan that exited can linger as a zombie where PID 1 does not reap (containers).
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
