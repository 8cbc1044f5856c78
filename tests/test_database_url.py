"""A DATABASE_URL naming a Unix socket (the embedded mode's, `?host=/socket/dir`) survives the trip from the
environment to the settings and back to a URL, which is how the MCP server processes of the tests, and any child a
launcher starts, reach the same database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import dj_database_url
import pytest

from tests.mcp.conftest import database_url

ROOT = Path(__file__).resolve().parent.parent
SOCKET_URL = "postgresql://postgres@/portal_x?host=%2Fsrv%2Fportal%2Fvar%2Fpgdata"


def _settings_database(url: str) -> dict:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PORTAL_VAR_DIR")}
    env = keep | {"DATABASE_URL": url, "SECRET_KEY": "k" * 60, "ALLOWED_HOSTS": "x", "REDIS_URL": "redis://x:1/0"}
    code = "from django.conf import settings as s; import json; print(json.dumps(s.DATABASES['default'], default=str))"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_socket_url_names_its_folder_as_the_host():
    db = _settings_database(SOCKET_URL)
    assert db["HOST"] == "/srv/portal/var/pgdata"
    assert "host" not in db["OPTIONS"]
    assert db["NAME"] == "portal_x" and db["USER"] == "postgres"


@pytest.mark.parametrize(
    "url,host",
    [
        (SOCKET_URL, "/srv/portal/var/pgdata"),
        ("postgresql://portal:s%40cret@db.example.org:6543/portal", "db.example.org"),
    ],
)
def test_a_url_rebuilt_from_the_settings_reaches_the_same_server(url, host):
    db = _settings_database(url)
    again = dj_database_url.parse(database_url(db))
    assert (again["HOST"] or again["OPTIONS"].get("host")) == host
    assert (again["PORT"] or "", again["NAME"], again["USER"], again["PASSWORD"]) == (
        db["PORT"] or "",
        db["NAME"],
        db["USER"],
        db["PASSWORD"],
    )
