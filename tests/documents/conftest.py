"""Fixtures of the documents tests that drive ingest jobs in-process."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from apps.retrieval.embedding import encoder


class FakeModel:
    """Deterministic unit vectors, a record of every text embedded, and an optional failure on call number N."""

    model_id = "fake-model@1"

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.calls = 0
        self.fail_on: tuple[int, BaseException] | None = None

    def embed_passages(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        self.calls += 1
        self.texts.extend(texts)
        if self.fail_on and self.calls == self.fail_on[0]:
            raise self.fail_on[1]
        vectors = np.array([np.frombuffer(hashlib.sha256(t.encode()).digest()[:8], np.uint8) for t in texts], float)
        vectors += 1.0
        return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture
def model(monkeypatch):
    fake = FakeModel()
    monkeypatch.setattr(encoder, "get_embedder", lambda *_args, **_kwargs: fake)
    return fake
