"""Result cache: keyed on everything that changes a result, so a hit is always the answer a fresh search would give.

The key holds each collection in scope with its `index_version` (the id of its last change): an ingest or a
delete moves that version, so every entry of the collection becomes unreachable at that instant, for every process
at once, without scanning Redis for keys to delete (the stale entries expire on their own). The scope is the
resolved list of readable collections, so a user who may read other collections can never share an entry with
one who may not.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings

from portal import soft_cache

KEY_VERSION = 2  # bump when the cached payload's shape changes


def cache_key(*, scope: list[tuple[int, int]], params: dict[str, Any], reranker: str, embedding_model: str) -> str:
    material = json.dumps(
        {"v": KEY_VERSION, "scope": scope, "params": params, "reranker": reranker, "embedding": embedding_model},
        sort_keys=True,
        ensure_ascii=False,
    )
    return "search:" + hashlib.sha256(material.encode()).hexdigest()


def cache_get(key: str) -> dict | None:
    if not settings.PORTAL_SEARCH_CACHE_SECONDS:
        return None
    return soft_cache.cache_get(key)  # Redis being away must not break search


def cache_set(key: str, payload: dict) -> None:
    if settings.PORTAL_SEARCH_CACHE_SECONDS:
        soft_cache.cache_set(key, payload, settings.PORTAL_SEARCH_CACHE_SECONDS)
