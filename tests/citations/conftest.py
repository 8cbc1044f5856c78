"""Fixtures of the answer tests: the embedding model, and a small library indexed in the `lab` collection."""

from __future__ import annotations

import pytest

from apps.documents.services.bulk import TextItem, add_texts

PAPERS = [
    (
        "lions.txt",
        "Asiatic lions",
        "The Asiatic lion survives only in the Gir forest of Gujarat in India. "
        "Its population grew to about 600 animals by 2017 after decades of protection.",
    ),
    (
        "wheat.txt",
        "Wheat volatiles",
        "Fusarium poae infects durum wheat kernels in the field. "
        "Infected kernels released more volatile alcohols than healthy kernels.",
    ),
    ("glacier.txt", "Glaciers", "Glaciers retreat as mountain temperatures rise, exposing bare rock and moraine."),
    ("panda.txt", "熊猫", "大熊猫主要生活在四川的竹林中，以竹子为食。"),
]


@pytest.fixture
def library(collection, personas, embedder):
    """The PAPERS as ready documents of `lab` (same parse, chunking and model as ingest), by file name."""
    docs = add_texts(collection, [TextItem(n, t, x) for n, t, x in PAPERS], embedder)
    return {d.original_name: d for d in docs}
