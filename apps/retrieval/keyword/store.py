"""Per-collection BM25 indexes: kept in each process's memory, saved by the workers, kept current by the change log.

Why here and not in PostgreSQL: `ts_rank` is not BM25, and BM25 over a postings table costs a scan of every
posting of each query term in SQL (tens of milliseconds for a common term at 100,000 chunks), while the in-memory
index answers in a few milliseconds (docs/benchmarks.md). What PostgreSQL holds is the source of truth: the chunks,
the log of changes (`IndexChange`) and a saved snapshot of each index (`KeywordSnapshot`).

A process that searches a collection loads the snapshot once, then before each search applies the changes logged
after it (usually none: one indexed-id comparison). Workers refresh the snapshot after ingests, so a process
starting cold has little to apply. Index ids are chunk ids; chunks of weight 0 (reference lists) are never indexed,
so they can never be found.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction

from apps.documents.models import Chunk, Collection
from apps.retrieval.keyword import analyzer
from apps.retrieval.keyword.bm25 import BM25Index
from apps.retrieval.models import IndexChange, KeywordSnapshot

log = logging.getLogger(__name__)

# A snapshot is rewritten once this many changes have piled up since the last one (or at once for a small index,
# where writing it costs little); in between, processes apply the few logged changes themselves.
SNAPSHOT_EVERY_CHANGES = 20
SNAPSHOT_SMALL_CHUNKS = 20_000
_BATCH = 2000


@dataclass
class LoadedIndex:
    index: BM25Index
    upto: int  # the last IndexChange id reflected
    lock: threading.RLock = field(default_factory=threading.RLock)


_loaded: OrderedDict[int, LoadedIndex] = OrderedDict()
_loaded_lock = threading.Lock()  # guards _loaded and _loading; never held while the database is read
# One lock per collection being loaded: the threads of a process that all search a cold collection at once wait
# for one load instead of each reading (or, without a snapshot, analysing) the whole collection.
_loading: dict[int, threading.Lock] = {}


def _indexable_chunks(collection_id: int, document_ids: list[int] | None = None):
    rows = Chunk.objects.filter(document__collection_id=collection_id, weight__gt=0)
    if document_ids is not None:
        rows = rows.filter(document_id__in=document_ids)
    return rows.values_list("id", "text").iterator(chunk_size=_BATCH)


def build_index(collection_id: int) -> LoadedIndex:
    """An index made from the chunks themselves (no snapshot, or one from another analyzer version)."""
    # The version is read before the chunks: a change committing in between is then applied again, which is
    # harmless (applying a change is idempotent), instead of being missed.
    version = Collection.objects.filter(pk=collection_id).values_list("index_version", flat=True).first() or 0
    index = BM25Index()
    index.add_many(_indexable_chunks(collection_id))
    return LoadedIndex(index=index, upto=version)


def _load(collection_id: int) -> LoadedIndex:
    snapshot = KeywordSnapshot.objects.filter(pk=collection_id).first()
    if snapshot is not None and snapshot.analyzer_version == analyzer.ANALYZER_VERSION:
        try:
            return LoadedIndex(index=BM25Index.from_bytes(bytes(snapshot.data)), upto=snapshot.upto_change)
        except ValueError:
            log.warning("keyword snapshot of collection %s is unreadable; rebuilding it", collection_id)
    return build_index(collection_id)


def apply_changes(entry: LoadedIndex, collection_id: int) -> int:
    """Bring `entry` up to the latest logged change; returns how many changes were applied."""
    changes = IndexChange.objects.filter(collection_id=collection_id, id__gt=entry.upto).order_by("id")
    changes = list(changes.values_list("id", "document_id", "removed_chunk_ids"))
    if not changes:
        return 0
    # Removed ids are always older chunks than the documents' current ones (ids are never reused), so forgetting
    # all of them and then indexing each document's current chunks gives the same index as applying one by one.
    for _, _, removed in changes:
        for chunk_id in removed:
            entry.index.remove(chunk_id)
    documents = sorted({document_id for _, document_id, _ in changes})
    entry.index.add_many(_indexable_chunks(collection_id, documents))
    entry.upto = max(change_id for change_id, _, _ in changes)
    return len(changes)


def current_index(collection_id: int, version: int) -> LoadedIndex:
    """The process's index of a collection, brought up to at least `version` (its `index_version`).

    Hold `entry.lock` while searching it: another thread may be applying changes.
    """
    entry = _loaded_entry(collection_id)
    if entry.upto < version:
        with entry.lock:
            if entry.upto < version:
                apply_changes(entry, collection_id)
    return entry


def _loaded_entry(collection_id: int) -> LoadedIndex:
    """The process's index of a collection as it is, loaded first if this process has none."""
    with _loaded_lock:
        entry = _loaded.get(collection_id)
        if entry is not None:
            _loaded.move_to_end(collection_id)
            return entry
        loading = _loading.setdefault(collection_id, threading.Lock())
    with loading:
        with _loaded_lock:
            entry = _loaded.get(collection_id)  # loaded by the thread this one waited for
        if entry is None:
            fresh = _load(collection_id)
            with _loaded_lock:
                entry = _loaded.setdefault(collection_id, fresh)
                _loaded.move_to_end(collection_id)
                while len(_loaded) > settings.PORTAL_KEYWORD_INDEXES_IN_MEMORY:
                    _loaded.popitem(last=False)
    return entry


def forget_loaded() -> None:
    """Drop every in-memory index (tests; a process that wants its memory back)."""
    with _loaded_lock:
        _loaded.clear()


def forget(collection_id: int) -> None:
    """Drop one collection's in-memory index (a deleted collection)."""
    with _loaded_lock:
        _loaded.pop(collection_id, None)
        _loading.pop(collection_id, None)


def refresh_snapshot(collection_id: int, *, force: bool = False) -> bool:
    """Save the collection's index if enough changed since the last snapshot; returns whether it saved.

    `force` saves even when a snapshot as new as this process's index exists (a worker may have saved one a moment
    ago): only a collection that is gone, or being deleted, is never saved."""
    snapshot = KeywordSnapshot.objects.filter(pk=collection_id).values("upto_change", "analyzer_version").first()
    version = Collection.objects.filter(pk=collection_id).values_list("index_version", flat=True).first()
    if version is None:
        return False  # the collection is gone
    stale_format = snapshot is None or snapshot["analyzer_version"] != analyzer.ANALYZER_VERSION
    if not (force or stale_format) and snapshot["upto_change"] >= version:
        return False
    entry = current_index(collection_id, version)
    with entry.lock:
        pending = IndexChange.objects.filter(
            collection_id=collection_id, id__gt=snapshot["upto_change"] if snapshot else 0
        ).count()
        small = len(entry.index) <= SNAPSHOT_SMALL_CHUNKS
        if not (force or stale_format or small or pending >= SNAPSHOT_EVERY_CHANGES):
            return False
        data, upto, count = entry.index.to_bytes(), entry.upto, len(entry.index)
    with transaction.atomic():
        # The collection's row first, as collection_delete locks it: a delete under way makes this wait and then
        # find it gone, and a delete that comes later waits for this snapshot and deletes it too. (Writing one for
        # a collection whose delete had not committed broke that delete at its foreign-key check.)
        if Collection.objects.select_for_update().filter(pk=collection_id).values_list("pk", flat=True).first() is None:
            return False
        current = KeywordSnapshot.objects.select_for_update().filter(pk=collection_id).first()
        newer = current is not None and not stale_format and current.upto_change > upto
        as_new = current is not None and not stale_format and current.upto_change == upto
        if newer or (as_new and not force):
            return False  # another worker saved a newer one meanwhile (or, unforced, as new a one)
        KeywordSnapshot.objects.update_or_create(
            collection_id=collection_id,
            defaults={
                "upto_change": upto,
                "analyzer_version": analyzer.ANALYZER_VERSION,
                "chunk_count": count,
                "data": data,
            },
        )
    log.info("saved the keyword index of collection %s (%s chunks, up to change %s)", collection_id, count, upto)
    return True
