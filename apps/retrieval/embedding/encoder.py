"""Dense text embeddings for retrieval: one loaded model per process, normalised float32 vectors.

The default, "multilingual-e5-small", is a folder the install assembles from two wheels (`manage.py
prepare_models`, apps/install/e5_assembly.py), marked complete by its manifest; this module only reads it.
Any other sentence-transformers model name or local path works too, for users with a model hub or a mirror.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

DEFAULT_MODEL = "multilingual-e5-small"
# Written last by the assembly (apps/install/e5_assembly.py): what the folder was built from; its presence marks
# the folder complete.
MANIFEST = "e5_manifest.json"
MAX_TOKENS = 512
THREADS_ENV = "PORTAL_EMBEDDING_THREADS"
DEVICE_ENV = "PORTAL_EMBEDDING_DEVICE"

_cache: dict[str, Embedder] = {}
_cache_lock = threading.Lock()


class Embedder:
    """A loaded model plus the prefixes it was trained with; vectors are L2-normalised float32."""

    def __init__(self, model: SentenceTransformer, model_id: str, query_prefix: str, passage_prefix: str) -> None:
        self.model = model
        self.model_id = model_id
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        dim_of = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        self.dim: int = int(dim_of())
        # One forward pass at a time: torch already spreads a batch over every core, so concurrent callers
        # (threads of a web worker) would only oversubscribe the CPU and slow each other down.
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Embedder({self.model_id!r}, dim={self.dim})"

    def _encode(self, texts: list[str], batch_size: int) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vectors = self.model.encode(
                texts,
                batch_size=batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,  # also for models whose folder lacks a Normalize module
                show_progress_bar=False,
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def embed_passages(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """(len(texts), dim) vectors for documents/chunks."""
        return self._encode([self.passage_prefix + t for t in texts], batch_size)

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) vector for a search query."""
        return self._encode([self.query_prefix + text], 1)[0]


def configure_threads() -> int:
    """torch intra-op threads from PORTAL_EMBEDDING_THREADS, default the cores this process may use."""
    import torch

    try:
        cores = len(os.sched_getaffinity(0))  # respects container/cgroup CPU pinning, unlike cpu_count()
    except AttributeError:
        cores = os.cpu_count() or 1
    threads = int(os.environ.get(THREADS_ENV) or cores)
    torch.set_num_threads(max(1, threads))
    return torch.get_num_threads()


def models_dir() -> Path:
    """Where assembled models live: settings.PORTAL_MODELS_DIR if set, else settings.VAR_DIR/models.

    PORTAL_MODELS_DIR lets the test stack (its own VAR_DIR) share the portal's assembled model instead of
    rebuilding 0.5 GB. Outside Django (a plain script) the same defaults are read from the environment.
    """
    try:
        from django.conf import settings

        configured = getattr(settings, "PORTAL_MODELS_DIR", None)
        return Path(configured) if configured else Path(settings.VAR_DIR) / "models"
    except Exception:  # settings not configured: mirror portal.settings' defaults
        if os.environ.get("PORTAL_MODELS_DIR"):
            return Path(os.environ["PORTAL_MODELS_DIR"])
        base = os.environ.get("PORTAL_VAR_DIR") or Path(__file__).resolve().parents[3] / "var"
        return Path(base) / "models"


def default_model_path(base: Path | None = None) -> Path:
    return (base or models_dir()) / DEFAULT_MODEL


def _prefixes(model: SentenceTransformer, name: str) -> tuple[str, str]:
    """(query, passage) prefixes: the model's own configured prompts, else e5's convention for e5 models."""
    prompts = getattr(model, "prompts", None) or {}
    query = prompts.get("query")
    passage = prompts.get("passage", prompts.get("document"))
    if query is not None or passage is not None:
        return query or "", passage or ""
    if "e5" in Path(name).name.lower():
        return "query: ", "passage: "
    return "", ""


def _folder_fingerprint(folder: Path) -> str:
    """Cheap identity of a local model folder: its configs' bytes and its weight files' names and sizes."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in {".json", ".safetensors", ".bin", ".pt"}:
            size = path.stat().st_size
            digest.update(f"{path.relative_to(folder)}:{size}\n".encode())
            if path.suffix == ".json" and size < 1 << 20:  # configs, not multi-MB tokenizer.json files
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class ModelNotPrepared(RuntimeError):
    """The default model's folder is missing or incomplete; the message says which command builds it."""


def read_manifest(folder: Path) -> dict | None:
    """The assembled model's manifest, None when the folder is not (completely) assembled."""
    try:
        return json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None


def model_id_for(name_or_path: str, folder: Path | None) -> str:
    """Stable identity stored with vectors: a different model or different weights gives a different id."""
    if folder is not None:
        manifest = read_manifest(folder)
        if manifest:  # an assembled e5: identify by what it was built from, wherever the folder lives
            both = f"{manifest['source_sha256']}:{manifest.get('tokenizer_sha256', '')}"
            return f"{manifest['model']}@{hashlib.sha256(both.encode()).hexdigest()[:16]}"
        return f"{folder.name}@{_folder_fingerprint(folder)}"
    try:  # a hub name: the cached snapshot's commit hash pins the revision
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(name_or_path, "config.json")
        if isinstance(cached, str) and "/snapshots/" in cached:
            return f"{name_or_path}@{cached.split('/snapshots/')[1].split('/')[0][:12]}"
    except Exception:  # an identity without the revision is still usable
        pass
    return name_or_path


def _resolve(name_or_path: str) -> tuple[str, Path | None]:
    """(what to load, local folder or None for a hub name)."""
    if name_or_path == DEFAULT_MODEL:
        folder = default_model_path()
        if read_manifest(folder) is None:
            raise ModelNotPrepared(
                f"The embedding model is not assembled in {folder}: run `python manage.py prepare_models` "
                "(portalctl.py does on every start)."
            )
        return str(folder), folder
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return str(path.resolve()), path.resolve()
    return name_or_path, None


def load_embedder(name_or_path: str) -> Embedder:
    """Load without caching (tests, benchmarks); use get_embedder in the application."""
    from sentence_transformers import SentenceTransformer

    configure_threads()
    target, folder = _resolve(name_or_path)
    model = SentenceTransformer(target, device=os.environ.get(DEVICE_ENV) or None, local_files_only=folder is not None)
    model.eval()
    # Longer inputs are cut: chunks are sized well below this, and e5 was trained on at most 512 tokens.
    model.max_seq_length = min(model.max_seq_length or MAX_TOKENS, MAX_TOKENS)
    query_prefix, passage_prefix = _prefixes(model, name_or_path)
    return Embedder(model, model_id_for(name_or_path, folder), query_prefix, passage_prefix)


def get_embedder(name_or_path: str = DEFAULT_MODEL) -> Embedder:
    """The process-wide Embedder for a model, loaded on first call (thread-safe)."""
    embedder = _cache.get(name_or_path)
    if embedder is None:
        with _cache_lock:  # loading takes seconds and ~0.5 GB: never twice for one name
            embedder = _cache.get(name_or_path)
            if embedder is None:
                embedder = _cache[name_or_path] = load_embedder(name_or_path)
    return embedder
