"""Pluggable reranking for the search pipeline: `get_reranker()` picks one from the settings.

* PORTAL_RERANK_MODEL: a sentence-transformers CrossEncoder (local folder, or a name already in the Hugging Face
  cache), run in this process on the CPU; nothing is downloaded.
* PORTAL_RERANK_URL: an HTTP endpoint of the common `POST /rerank` shape, with PORTAL_RERANK_TIMEOUT seconds and
  an optional bearer key in PORTAL_RERANK_KEY.
* Neither: NoReranker, which is never available.

If both are set the model wins: it is the explicit local choice, needs no network and no second service, and the
URL is more likely a leftover from the environment. Every reranker's `scores` raises only RerankUnavailable, so
the search service can fall back to its fused order and show the reason.
"""

from __future__ import annotations

from django.conf import settings

from apps.retrieval.rerank.base import NoReranker, Reranker, RerankUnavailable
from apps.retrieval.rerank.cross_encoder import CrossEncoderReranker
from apps.retrieval.rerank.remote import HttpReranker

__all__ = [
    "CrossEncoderReranker",
    "HttpReranker",
    "NoReranker",
    "RerankUnavailable",
    "Reranker",
    "get_reranker",
]


def get_reranker() -> Reranker:
    """The reranker the settings ask for (cheap: a CrossEncoder loads on its first `scores`, once per process)."""
    # Read without getattr defaults: a setting that portal/settings.py forgot to read fails here, loudly, instead
    # of being silently empty (PORTAL_RERANK_KEY once was: a key set in the environment never reached the server).
    model = (settings.PORTAL_RERANK_MODEL or "").strip()
    if model:
        return CrossEncoderReranker(model)
    url = (settings.PORTAL_RERANK_URL or "").strip()
    if url:
        api_key = (settings.PORTAL_RERANK_KEY or "").strip()
        return HttpReranker(url, timeout=settings.PORTAL_RERANK_TIMEOUT, api_key=api_key)
    return NoReranker()
