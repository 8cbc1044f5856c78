"""The shared cache (Redis) used as what it is, an optimisation: when it cannot be reached, a read is a miss and
a write is skipped, with a warning in the log, so search and the viewer keep working while Redis is away."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

log = logging.getLogger(__name__)


def cache_get(key: str) -> Any | None:
    try:
        return cache.get(key)
    except Exception:  # any client or connection error: redis-py's, a timeout, a refused connection
        log.warning("cache unavailable: read of %s skipped", key.split(":", 1)[0], exc_info=True)
        return None


def cache_set(key: str, value: Any, timeout: float) -> None:
    try:
        cache.set(key, value, timeout=timeout)
    except Exception:
        log.warning("cache unavailable: write of %s skipped", key.split(":", 1)[0], exc_info=True)
