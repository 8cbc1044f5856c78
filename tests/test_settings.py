"""Settings read from the environment: bad values stop start-up with one line naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from portal.env import SettingError, env_bool, env_int, env_secret

ROOT = Path(__file__).resolve().parent.parent


def _manage(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PORTAL_VAR_DIR")}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=keep | env, capture_output=True, text=True, timeout=120
    )


PRODUCTION = {
    "DATABASE_URL": "postgresql://portal@db.example.org:5432/portal",
    "REDIS_URL": "redis://cache.example.org:6379/0",
    "SECRET_KEY": "x" * 60 + "-production-only-7Qm",
    "ALLOWED_HOSTS": "portal.example.org",
}


def test_check_deploy_is_clean_under_production_settings():
    result = _manage(["check", "--deploy", "--fail-level", "WARNING"], PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "override,variable",
    [
        ({"DATABASE_URL": "mysql://root@localhost/portal"}, "DATABASE_URL"),
        ({"SECRET_KEY": ""}, "SECRET_KEY"),
        ({"ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS"),
        ({"REDIS_URL": "amqp://guest@localhost//"}, "REDIS_URL"),
        ({"PORTAL_MAX_UPLOAD_MB": "lots"}, "PORTAL_MAX_UPLOAD_MB"),
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"PORTAL_STORAGE": "ftp"}, "PORTAL_STORAGE"),
        ({"SECRET_KEY": "", "SECRET_KEY_FILE": "/nonexistent/key"}, "SECRET_KEY_FILE"),
    ],
)
def test_a_bad_setting_stops_start_up_with_one_line_naming_it(override, variable):
    result = _manage(["check"], PRODUCTION | override)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("configuration error: ") and variable in lines[0]


def test_secret_key_file_is_read(tmp_path, monkeypatch):
    key = tmp_path / "key"
    key.write_text("from-a-file\n")
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("SECRET_KEY_FILE", str(key))
    assert env_secret("SECRET_KEY") == "from-a-file"


def test_embedded_mode_makes_and_keeps_its_own_secret(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("SECRET_KEY_FILE", raising=False)
    first = env_secret("SECRET_KEY", fallback_file=tmp_path / "secret_key")
    assert len(first) > 40 and env_secret("SECRET_KEY", fallback_file=tmp_path / "secret_key") == first
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_typed_helpers(monkeypatch):
    monkeypatch.setenv("X_BOOL", "Yes")
    monkeypatch.setenv("X_INT", "0")
    assert env_bool("X_BOOL", False) is True
    with pytest.raises(SettingError, match="X_INT: must be at least 1"):
        env_int("X_INT", 5, minimum=1)


def test_s3_storage_is_selected_by_environment():
    code = "from django.conf import settings; print(settings.STORAGES['default']['BACKEND'])"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            "PATH": os.environ["PATH"],
            "DJANGO_SETTINGS_MODULE": "portal.settings",
            **PRODUCTION,
            "PORTAL_STORAGE": "s3",
            "PORTAL_S3_BUCKET": "papers",
            "PORTAL_S3_ENDPOINT_URL": "http://minio:9000",
        },
    )
    assert result.stdout.strip() == "storages.backends.s3.S3Storage", result.stderr


def test_a_worker_with_a_bad_setting_stops_with_one_line():
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    result = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "portal", "worker"],
        cwd=ROOT,
        env=keep | PRODUCTION | {"SECRET_KEY": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "configuration error: SECRET_KEY: is required: set SECRET_KEY or SECRET_KEY_FILE"
    ]


def test_the_launcher_imports_without_settings_it_sets_itself():
    # CI gives DATABASE_URL but no SECRET_KEY: the test command supplies one to its children.
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    result = subprocess.run(
        [sys.executable, "-m", "portal.launcher", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=keep | {"DATABASE_URL": PRODUCTION["DATABASE_URL"]},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "test" in result.stdout
