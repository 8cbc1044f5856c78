"""Chinese words and their part-of-speech tags (jieba), for the question's kind, key terms, anchors and items.

jieba's dictionary is loaded once under a lock (its own first-use load is not guarded across threads); tagging
itself reads only tables that do not change after the load, so one tokenizer serves every thread
(tests/citations/test_question_threads.py tags from 8 threads at once and compares with one thread).
"""

from __future__ import annotations

import logging
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

_jieba_lock = threading.Lock()
_jieba_ready = False


def _cache_dir() -> Path:
    """The portal's var/cache when Django is configured and it can be written, else the system's temp dir."""
    try:
        from django.conf import settings

        directory = Path(settings.VAR_DIR) / "cache"
        directory.mkdir(parents=True, exist_ok=True)
        return directory
    except Exception:  # settings not configured (a bench script) or the directory is read-only
        return Path(tempfile.gettempdir())


def posseg():
    """jieba.posseg, its dictionary loaded once (jieba's own first-use load is not guarded across threads)."""
    global _jieba_ready
    import jieba
    import jieba.posseg

    if not _jieba_ready:
        with _jieba_lock:
            if not _jieba_ready:
                jieba.setLogLevel(logging.WARNING)
                jieba.dt.tmp_dir = str(_cache_dir())
                jieba.dt.cache_file = "jieba-portal.cache"
                jieba.dt.initialize()
                jieba.posseg.dt.initialize()
                _jieba_ready = True
    return jieba.posseg


@lru_cache(maxsize=20_000)
def tagged(text: str) -> tuple[tuple[str, str], ...]:
    """(word, part-of-speech) pairs; cached, as the same evidence sentences are read for every question on them."""
    return tuple((pair.word, pair.flag) for pair in posseg().cut(text))
