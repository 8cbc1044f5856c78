"""Typed readers for settings that come from the environment.

Each helper names the variable in its error, so a bad deployment stops with one line that says what to fix.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class SettingError(ImproperlyConfigured):
    """A setting from the environment is missing or malformed."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name


def env_str(name: str, default: str | None = None, *, required: bool = False) -> str | None:
    value = os.environ.get(name)
    if value is None or value == "":
        if required:
            raise SettingError(name, "is required but not set")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    lowered = raw.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise SettingError(name, f"expected true/false, got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingError(name, f"expected a whole number, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise SettingError(name, f"must be at least {minimum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env_str(name, default) or default
    if value not in choices:
        raise SettingError(name, f"must be one of {', '.join(choices)}; got {value!r}")
    return value


_SITE_URL = re.compile(r"https?://[^/?#\s]+(/[^?#\s]*)?")


def env_site_url(name: str) -> str:
    """An absolute http(s) URL a site is reached at ("https://kb.example.org", or under a path), without a
    trailing slash; "" when unset."""
    value = (env_str(name, "") or "").strip()
    if value and not _SITE_URL.fullmatch(value):
        raise SettingError(name, f"expected an absolute http(s) URL like https://kb.example.org, got {value!r}")
    return value.rstrip("/")


_RATE = re.compile(r"\d+/(s|sec|second|m|min|minute|h|hour|d|day)")


def env_rate(name: str, default: str) -> str:
    """A request rate as DRF's throttles read it ("600/minute"), or "off"; "" is the default."""
    value = (env_str(name, default) or default).strip()
    if value.lower() != "off" and not _RATE.fullmatch(value):
        raise SettingError(name, f"expected a rate like 600/minute (or off), got {value!r}")
    return value


def env_secret(name: str, *, fallback_file: Path | None = None) -> str:
    """Read a secret from NAME, or from the file named by NAME_FILE (Docker/Kubernetes secrets).

    Without either, `fallback_file` (the embedded mode's own key under var/) is used, created on first use.
    """
    value = os.environ.get(name)
    if value:
        return value
    file_name = os.environ.get(f"{name}_FILE")
    if file_name:
        try:
            value = Path(file_name).read_text().strip()
        except OSError as exc:
            raise SettingError(f"{name}_FILE", f"cannot read {file_name}: {exc.strerror}") from None
        if not value:
            raise SettingError(f"{name}_FILE", f"{file_name} is empty")
        return value
    if fallback_file is None:
        raise SettingError(name, f"is required: set {name} or {name}_FILE")
    if not fallback_file.exists():
        import secrets

        fallback_file.parent.mkdir(parents=True, exist_ok=True)
        fallback_file.write_text(secrets.token_urlsafe(50))
        fallback_file.chmod(0o600)
    return fallback_file.read_text().strip()


def load_settings_or_exit() -> None:
    """Load Django's settings now; on a bad setting print one line and exit, instead of a traceback."""
    import sys

    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018 - touching a setting loads the module
    except ImproperlyConfigured as exc:
        sys.exit(f"configuration error: {exc}")
