"""Settings read from the environment: bad values stop start-up with one line naming the variable."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
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
        ({"PORTAL_API_RATE": "lots"}, "PORTAL_API_RATE"),
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


# --- Every variable README.md's Configuration table documents reaches the setting it names -------------------
README = ROOT / "README.md"
_VARIABLE = re.compile(r"`([A-Z][A-Z0-9_]*[A-Z0-9])`")
# Documented, but read by another program: boto3 reads the AWS_* credentials itself.
NOT_OURS = {"AWS_"}


def documented_variables() -> list[str]:
    """The variables named in the first column of the Configuration table of README.md, in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    names = [name for row in rows for name in _VARIABLE.findall(row.split(" | ")[0] + " " + row)]
    return [name for name in dict.fromkeys(names) if not any(name.startswith(p) for p in NOT_OURS)]


@dataclass(frozen=True)
class Probe:
    """Set `value` (and `also`), print `shows` in a fresh process, expect `expected` (default: `value`)."""

    value: str
    shows: str = ""  # a Python expression; "": settings.<the variable>
    expected: str | None = None
    also: tuple[tuple[str, str], ...] = ()
    unset: tuple[str, ...] = ()


S3 = (("PORTAL_STORAGE", "s3"), ("PORTAL_S3_BUCKET", "probe-bucket"))
PROBES = {
    "DATABASE_URL": Probe(
        "postgresql://probe@db.probe.example:5433/probe", "settings.DATABASES['default']['HOST']", "db.probe.example"
    ),
    "REDIS_URL": Probe("redis://cache.probe.example:6380/3", "settings.CACHES['default']['LOCATION']"),
    "SECRET_KEY": Probe("probe-" + "k" * 50),
    "SECRET_KEY_FILE": Probe("{tmp}/secret", "settings.SECRET_KEY", "key-from-a-file", unset=("SECRET_KEY",)),
    "ALLOWED_HOSTS": Probe("a.example, b.example", expected="['a.example', 'b.example']"),
    "CSRF_TRUSTED_ORIGINS": Probe("https://a.example", expected="['https://a.example']"),
    "PORTAL_HTTPS": Probe("false", "settings.SESSION_COOKIE_SECURE", "False"),
    "PORTAL_BEHIND_PROXY": Probe("true", "settings.SECURE_PROXY_SSL_HEADER", "('HTTP_X_FORWARDED_PROTO', 'https')"),
    "PORTAL_HSTS_SECONDS": Probe("123", "settings.SECURE_HSTS_SECONDS"),
    "PORTAL_STORAGE": Probe(
        "s3", "settings.STORAGES['default']['BACKEND']", "storages.backends.s3.S3Storage", also=S3[1:]
    ),
    "PORTAL_S3_BUCKET": Probe("probe-bucket", "settings.STORAGES['default']['OPTIONS']['bucket_name']", also=S3[:1]),
    "PORTAL_S3_ENDPOINT_URL": Probe(
        "http://minio.probe:9000", "settings.STORAGES['default']['OPTIONS']['endpoint_url']", also=S3
    ),
    "PORTAL_S3_REGION": Probe("eu-probe-1", "settings.STORAGES['default']['OPTIONS']['region_name']", also=S3),
    "MEDIA_ROOT": Probe("/tmp/probe-media", "str(settings.MEDIA_ROOT)"),
    "PORTAL_TASK_TIME_LIMIT": Probe("99", "settings.CELERY_TASK_TIME_LIMIT"),
    "PORTAL_WORKER_MAX_MEMORY_MB": Probe("100", "settings.CELERY_WORKER_MAX_MEMORY_PER_CHILD", "102400"),
    "PORTAL_PARSE_MEMORY_MB": Probe("128"),
    "PORTAL_RENDER_MEMORY_MB": Probe("256"),
    "PORTAL_BROKER_VISIBILITY_TIMEOUT": Probe("555", "settings.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout']"),
    # Read by the launcher, not the settings: its `run` command's --mcp-port default.
    "PORTAL_MCP_PORT": Probe("8799", "launched_mcp_port()"),
    "PORTAL_ANSWER_COMPOSER": Probe("llm"),
    "PORTAL_LLM_BASE_URL": Probe("http://llm.probe:8080/v1"),
    "PORTAL_LLM_MODEL": Probe("probe-model"),
    "PORTAL_LLM_API_KEY": Probe("probe-llm-key"),
    "PORTAL_RERANK_MODEL": Probe("/tmp/probe-cross-encoder"),
    "PORTAL_RERANK_URL": Probe("http://rerank.probe:8081/rerank", "django_ready() or get_reranker().url"),
    # As far as the reranker that sends it: the key once stopped at the environment.
    "PORTAL_RERANK_KEY": Probe(
        "probe-rerank-key",
        "django_ready() or get_reranker().api_key",
        also=(("PORTAL_RERANK_URL", "http://rerank.probe:8081/rerank"),),
    ),
    "PORTAL_EMBEDDING_MODEL": Probe("probe-embedding-model"),
    "PORTAL_WARM_UP": Probe("false", expected="False"),
    "PORTAL_LOGIN_THROTTLE": Probe("false", expected="False"),
    "PORTAL_API_RATE": Probe("120/hour"),
    "PORTAL_SITE_URL": Probe("https://kb.probe.example/portal/", expected="https://kb.probe.example/portal"),
}
# A probe program: `settings` loaded from the environment, and the helpers the probes above use.
PROBE_PROGRAM = """
import os
from django.conf import settings

def django_ready():
    import django
    django.setup()

def get_reranker():
    from apps.retrieval.rerank import get_reranker
    return get_reranker()

def launched_mcp_port():
    import portal.launcher as launcher
    seen = []
    launcher.cmd_run = lambda args: seen.append(args.mcp_port) or 0
    launcher.main(["run"])
    return seen[0]

print(repr({shows}) if not isinstance({shows}, str) else {shows})
"""


def _probe(variable: str, tmp_path: Path) -> tuple[str, str]:
    probe = PROBES.get(variable) or Probe("17")  # a whole number reads as one under env_str and env_int alike
    value = probe.value.format(tmp=tmp_path)
    if variable == "SECRET_KEY_FILE":
        Path(value).write_text("key-from-a-file\n")
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    env |= PRODUCTION | {"DJANGO_SETTINGS_MODULE": "portal.settings"} | dict(probe.also) | {variable: value}
    for name in probe.unset:
        env.pop(name, None)
    program = PROBE_PROGRAM.replace("{shows}", probe.shows or f"settings.{variable}")
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, f"{variable}: {result.stderr.strip()[-2000:]}"
    expected = probe.expected if probe.expected is not None else value
    return result.stdout.strip().splitlines()[-1], expected


def test_the_readme_documents_the_variables_this_test_knows():
    """The table parse itself: it finds the variables, so the test below cannot pass by finding none."""
    names = documented_variables()
    assert {"DATABASE_URL", "SECRET_KEY_FILE", "PORTAL_RERANK_KEY", "PORTAL_WARM_UP", "MEDIA_ROOT"} <= set(names)
    assert not any(name.startswith("AWS_") for name in names)


@pytest.mark.parametrize("variable", documented_variables())
def test_every_documented_variable_reaches_its_setting(variable, tmp_path):
    """A fresh process with the variable set shows it in the setting (or the program) it configures; a variable
    README.md documents but nothing reads fails here."""
    shown, expected = _probe(variable, tmp_path)
    assert shown == expected, f"{variable} set to {expected!r} in the environment, but the program shows {shown!r}"
