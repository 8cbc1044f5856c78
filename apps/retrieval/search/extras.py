"""Deep search's extras: what other apps add to each hit (the references a passage cites, the documents related
to its document). Those apps register here from their AppConfig.ready(), so search depends on none of them
(dependencies point one way: documents <- retrieval <- citations)."""

from __future__ import annotations

from collections.abc import Callable

from apps.documents.models import Document
from apps.retrieval.search.types import SearchHit

HitExtras = Callable[[list[SearchHit], dict[int, Document]], None]
_REGISTERED: list[HitExtras] = []


def register_hit_extras(extras: HitExtras) -> HitExtras:
    """Add `extras(hits, documents_by_id)` to deep search; registering one twice keeps one."""
    if extras not in _REGISTERED:
        _REGISTERED.append(extras)
    return extras


def add_deep_extras(hits: list[SearchHit], documents: dict[int, Document]) -> None:
    """Fill each hit's extras; `documents` are the hits' documents by id."""
    for extras in _REGISTERED:
        extras(hits, documents)
