"""A sentence-transformers CrossEncoder run in this process, on the CPU, from local files only.

The model is loaded on first use and kept for the life of the process (one per name, shared by every thread).
Nothing is ever downloaded: the name must be a local folder or a model already in the Hugging Face cache. A model
that fails to load is not retried for RETRY_AFTER_SECONDS, so a broken setting costs one failed load a minute
rather than one per search.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from apps.retrieval.rerank.base import Reranker, RerankUnavailable, checked_scores

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

RETRY_AFTER_SECONDS = 60.0
# Inputs are cut to this many tokens: rerankers are trained on ≤ 512, and longer pairs only cost CPU time.
MAX_TOKENS = 512
BATCH_SIZE = 16

# What a Hugging Face repo id looks like ("org/name" or "name"); anything else is taken as a folder path.
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*(/[\w.-]+)?")


@dataclass
class _Loaded:
    model: CrossEncoder
    # One forward pass at a time: torch already uses every core for one batch (as the embedder does).
    lock: threading.Lock = field(default_factory=threading.Lock)


_models: dict[str, _Loaded] = {}
_failures: dict[str, tuple[float, str]] = {}  # name → (time.monotonic() of the failure, reason)
_load_lock = threading.Lock()


def _short(exc: BaseException) -> str:
    first_line = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first_line}"[:300]


def locate(name_or_path: str) -> tuple[str | None, str]:
    """(what to give CrossEncoder, "") if the model is on this machine, else (None, why not). Loads nothing."""
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            return None, f"not a model folder (no config.json): {path}"
        return str(path.resolve()), ""
    if path.exists():
        return None, f"not a model folder: {path}"
    if not _HUB_ID.fullmatch(name_or_path):
        return None, f"model folder not found: {path}"
    try:
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(name_or_path, "config.json")
    except Exception:  # huggingface_hub missing or the name rejected: treat as not cached
        cached = None
    if isinstance(cached, str):
        return name_or_path, ""
    return None, f"model not found locally (no such folder, not in the Hugging Face cache): {name_or_path}"


def _load(name_or_path: str) -> CrossEncoder:
    target, reason = locate(name_or_path)
    if target is None:
        raise RerankUnavailable(reason)
    from sentence_transformers import CrossEncoder

    # local_files_only: never reach the hub, whatever HF_HUB_OFFLINE says (sentence-transformers ≥ 3 has it).
    model = CrossEncoder(target, device="cpu", local_files_only=True)
    model.eval()
    limit = model.max_seq_length or MAX_TOKENS
    positions = getattr(getattr(model.transformers_model, "config", None), "max_position_embeddings", None)
    if isinstance(positions, int) and positions > 0:
        limit = min(limit, positions)
    model.max_seq_length = min(limit, MAX_TOKENS)
    return model


def _get(name_or_path: str) -> _Loaded:
    loaded = _models.get(name_or_path)
    if loaded is not None:
        return loaded
    with _load_lock:  # loading takes seconds and memory: never twice at once
        loaded = _models.get(name_or_path)
        if loaded is not None:
            return loaded
        failed = _failures.get(name_or_path)
        if failed and time.monotonic() - failed[0] < RETRY_AFTER_SECONDS:
            raise RerankUnavailable(failed[1])
        try:
            model = _load(name_or_path)
        except Exception as exc:
            if isinstance(exc, RerankUnavailable):
                reason = exc.reason
            else:
                reason = f"cross-encoder failed to load: {_short(exc)}"
            _failures[name_or_path] = (time.monotonic(), reason)
            raise RerankUnavailable(reason) from exc
        _failures.pop(name_or_path, None)
        loaded = _models[name_or_path] = _Loaded(model)
        return loaded


def forget_models() -> None:
    """Drop loaded models and remembered failures (tests; a changed model folder)."""
    with _load_lock:
        _models.clear()
        _failures.clear()


class CrossEncoderReranker(Reranker):
    """Reranks with a local CrossEncoder; its predict() output (after the model's own activation) is the score."""

    configured = True

    def __init__(self, name_or_path: str, batch_size: int = BATCH_SIZE) -> None:
        self.name_or_path = name_or_path
        self.name = f"cross-encoder:{name_or_path}"
        self.batch_size = batch_size

    def available(self) -> tuple[bool, str]:
        if self.name_or_path in _models:
            return True, ""
        failed = _failures.get(self.name_or_path)
        if failed and time.monotonic() - failed[0] < RETRY_AFTER_SECONDS:
            return False, failed[1]
        target, reason = locate(self.name_or_path)
        return target is not None, reason

    def scores(self, query: str, texts: list[str]) -> list[float]:
        if not texts:
            return []
        loaded = _get(self.name_or_path)
        try:
            with loaded.lock:
                raw = loaded.model.predict(
                    [(query, text) for text in texts],
                    batch_size=self.batch_size,
                    show_progress_bar=False,
                    convert_to_numpy=True,
                )
            # A one-label model gives shape (n,); (n, 1) is the same. More labels are no relevance score.
            if raw.ndim == 2 and raw.shape[1] == 1:
                raw = raw[:, 0]
            if raw.ndim != 1:
                raise RerankUnavailable(f"the model gives {raw.shape[-1]} scores per pair, not one relevance score")
            values = raw.tolist()
        except RerankUnavailable:
            raise
        except Exception as exc:
            raise RerankUnavailable(f"cross-encoder failed: {_short(exc)}") from exc
        return checked_scores(values, len(texts), "the cross-encoder")
