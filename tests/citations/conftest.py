"""Fixtures of the answer tests: the embedding model, and a small library indexed in the `lab` collection."""

from __future__ import annotations

import pytest

from apps.documents.services.bulk import TextItem, add_texts
from tests.citations.papers import PAPERS


@pytest.fixture
def library(collection, personas, embedder):
    """The PAPERS as ready documents of `lab` (same parse, chunking and model as ingest), by file name."""
    docs = add_texts(collection, [TextItem(n, t, x) for n, t, x in PAPERS], embedder)
    return {d.original_name: d for d in docs}
