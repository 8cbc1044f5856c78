"""Fixtures of the MCP tests: a small indexed library in `lab`, API tokens, and servers started as real processes
(`manage.py mcp`) on the test database, spoken to with the MCP SDK's own clients."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from mcp import StdioServerParameters
from rest_framework.authtoken.models import Token

from apps.documents.services.bulk import TextItem, add_texts
from tests.citations.papers import PAPERS as ALL_PAPERS

ROOT = Path(__file__).resolve().parents[2]

PAPERS = ALL_PAPERS[:3]  # lions, wheat, glaciers
LION_QUESTION = "Where does the Asiatic lion survive?"
MCP_SITE_URL = "http://testserver"


@pytest.fixture
def kb_library(collection, personas, embedder):
    """The PAPERS as ready documents of `lab`, committed (the server processes read them), by file name."""
    docs = add_texts(collection, [TextItem(n, t, x) for n, t, x in PAPERS], embedder)
    return {d.original_name: d for d in docs}


@pytest.fixture
def token_of(personas):
    """The API token (key) of a persona, as /accounts/token/ shows it."""

    def key(persona: str) -> str:
        return Token.objects.get_or_create(user=personas[persona])[0].key

    return key


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL naming the database Django is connected to now (in a test: the test database)."""
    user = quote(settings_dict.get("USER") or "")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password)}@" if password else f"{user}@" if user else ""
    host, port = settings_dict.get("HOST") or "", settings_dict.get("PORT") or ""
    name = quote(settings_dict["NAME"])
    if host.startswith("/"):  # the embedded server's socket folder
        return f"postgresql://{auth}/{name}?host={quote(host)}"
    return f"postgresql://{auth}{host}{':' + str(port) if port else ''}/{name}"


def _server_env() -> dict[str, str]:
    from django.db import connection

    env = dict(os.environ, DATABASE_URL=database_url(connection.settings_dict), PYTHONUNBUFFERED="1")
    env.pop("PORTAL_MCP_TOKEN", None)  # each test says which token the server gets
    # The MCP server has no request to take a host from: its links are absolute on PORTAL_SITE_URL, here the host
    # of Django's test client, so that its answers equal the REST API's link for link.
    env["PORTAL_SITE_URL"] = MCP_SITE_URL
    return env


@pytest.fixture
def server_env(transactional_db) -> dict[str, str]:
    """The environment of a server process: this test run's settings, pointed at the test database."""
    return _server_env()


@pytest.fixture
def stdio_server(server_env):
    """StdioServerParameters for `manage.py mcp --transport stdio` with a token (as an MCP client's config has)."""

    def params(token: str) -> StdioServerParameters:
        return StdioServerParameters(
            command=sys.executable,
            args=["manage.py", "mcp", "--transport", "stdio"],
            env=server_env | {"PORTAL_MCP_TOKEN": token},
            cwd=str(ROOT),
        )

    return params


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def http_server(django_db_setup, tmp_path_factory):
    """`manage.py mcp --transport http` on a free loopback port for this module's tests; yields its /mcp URL.

    It reads whatever the current test has committed to the test database, so one process serves every test."""
    env = _server_env()  # after django_db_setup: the connection's settings name the test database
    port = _free_port()
    log = tmp_path_factory.mktemp("mcp-http") / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "mcp", "--transport", "http", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the MCP HTTP server exited with {proc.returncode}:\n{log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the MCP HTTP server did not listen within 120 s")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
