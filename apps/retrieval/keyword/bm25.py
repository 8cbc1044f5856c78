"""An in-memory BM25 index (Robertson/Lucene) with add, remove, filtered search and a pickle-free byte format.

Score of document d for query terms q (each distinct query term counted once):

    sum over t in q ∩ d of  idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))
    idf(t) = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))

with N the number of live documents, |d| the number of terms of d and avgdl their mean. This is the classic
formula with Lucene's always-positive idf (the original Robertson idf goes negative for terms in more than half
of the documents, which would punish a document for containing a query word). Lucene ≥ 8 drops the constant
(k1 + 1) factor; that changes no ranking.

Layout, and why: postings are a CSR matrix by term (doc slots int32, term frequencies float32) so that one query
term costs a few vectorised numpy operations however long its list is. Documents added since the last rebuild go
to small per-term "pending" lists that search reads as well, and are folded into the CSR arrays once they grow past
a quarter of it (amortised O(1) per posting). Removal only marks the slot dead, so it is O(1); dead slots are
dropped at the next rebuild. Nothing precomputes per-document scores, because avgdl changes with every add.
Independent of Django: ids are any str or int (the byte format stores them as JSON).
"""

from __future__ import annotations

import io
import json
import math
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from itertools import repeat

import numpy as np

from . import analyzer

DocId = str | int
FORMAT = "bm25-npz-1"  # bump when the byte layout changes


class BM25Index:
    def __init__(
        self,
        k1: float = 1.2,
        b: float = 0.75,
        doc_terms: Callable[[str], list[str]] = analyzer.terms,
        query_terms: Callable[[str], list[str]] = analyzer.query_terms,
    ) -> None:
        self.k1, self.b, self.analyzer_version = float(k1), float(b), analyzer.ANALYZER_VERSION
        self._doc_terms, self._query_terms = doc_terms, query_terms
        self._ids: list[DocId | None] = []  # slot → id, None once removed
        self._slot: dict[DocId, int] = {}
        self._lengths = array("i")  # slot → number of terms (0 once removed)
        self._live = bytearray()  # slot → 1 live / 0 removed
        self._total_length = 0
        self._dead = 0
        self._vocab: dict[str, int] = {}  # term → term id; ids ≥ len(indptr) - 1 exist only in pending
        self._indptr = np.zeros(1, dtype=np.int64)
        self._docs = np.zeros(0, dtype=np.int32)
        self._tfs = np.zeros(0, dtype=np.float32)
        self._pending: dict[int, tuple[array, array]] = {}
        self._pending_postings = 0
        self._cache: tuple[np.ndarray, np.ndarray] | None = None  # (k1 length norm per slot, live mask)

    def __len__(self) -> int:
        return len(self._slot)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._slot

    def add(self, doc_id: DocId, text: str) -> None:
        """Index `text` under `doc_id`; an id already present is replaced."""
        self.add_terms(doc_id, self._doc_terms(text))

    def add_many(self, docs: Iterable[tuple[DocId, str]]) -> None:
        """Index many documents; a large batch goes straight into the CSR arrays (one rebuild, no pending)."""
        self.add_terms_many((doc_id, self._doc_terms(text)) for doc_id, text in docs)

    def add_terms(self, doc_id: DocId, terms: list[str]) -> None:
        """Index already analysed terms (for callers with their own analysis, and for tests)."""
        self.add_terms_many([(doc_id, terms)])

    def add_terms_many(self, docs: Iterable[tuple[DocId, list[str]]]) -> None:
        counted = [(doc_id, len(terms), Counter(terms)) for doc_id, terms in docs]
        vocab = self._vocab
        new_postings = sum(len(counts) for _, _, counts in counted)
        if new_postings * 8 < len(self._docs):
            # Small next to the index: per-term pending lists, so the add costs nothing like a rebuild.
            for doc_id, length, counts in counted:
                slot = self._new_slot(doc_id, length)
                for term, tf in counts.items():
                    tid = vocab.setdefault(term, len(vocab))
                    slots, tfs = self._pending.setdefault(tid, (array("i"), array("i")))
                    slots.append(slot)
                    tfs.append(tf)
                self._pending_postings += len(counts)
            if self._pending_postings > max(100_000, len(self._docs) // 4):
                self._rebuild()
            return
        # Bulk: flat (term, slot, tf) arrays filled with C-level extends, then one sort. ~3x faster per posting.
        tids, slots, tfs = array("i"), array("i"), array("i")
        for doc_id, length, counts in counted:
            slot = self._new_slot(doc_id, length)
            for term in counts:
                if term not in vocab:
                    vocab[term] = len(vocab)
            tids.extend(map(vocab.__getitem__, counts))
            slots.extend(array("i", [slot]) * len(counts))
            tfs.extend(counts.values())
        self._rebuild((tids, slots, tfs))

    def _new_slot(self, doc_id: DocId, length: int) -> int:
        if doc_id in self._slot:
            self.remove(doc_id)
        slot = len(self._ids)
        self._ids.append(doc_id)
        self._slot[doc_id] = slot
        self._lengths.append(length)
        self._live.append(1)
        self._total_length += length
        self._cache = None
        return slot

    def remove(self, doc_id: DocId) -> bool:
        """Forget `doc_id`; returns whether it was there. O(1): the slot is dropped at the next rebuild."""
        slot = self._slot.pop(doc_id, None)
        if slot is None:
            return False
        self._total_length -= self._lengths[slot]
        self._lengths[slot] = 0
        self._live[slot] = 0
        self._ids[slot] = None
        self._dead += 1
        self._cache = None
        return True

    def _rebuild(self, flat: tuple[array, array, array] | None = None) -> None:
        """Fold pending (and `flat` bulk) postings into the CSR arrays; drop dead slots, renumbering the rest."""
        if flat is None and not self._pending and not self._dead:
            return
        n_terms = len(self._vocab)
        frozen_tids = np.repeat(np.arange(len(self._indptr) - 1, dtype=np.int32), np.diff(self._indptr))
        parts_t, parts_d, parts_f = [frozen_tids], [self._docs], [self._tfs]
        for tid, (slots, tfs) in self._pending.items():
            parts_t.append(np.full(len(slots), tid, dtype=np.int32))
            parts_d.append(np.frombuffer(slots, dtype=np.int32).copy())
            parts_f.append(np.frombuffer(tfs, dtype=np.int32).astype(np.float32))
        if flat is not None:
            parts_t.append(np.array(flat[0], dtype=np.int32))
            parts_d.append(np.array(flat[1], dtype=np.int32))
            parts_f.append(np.array(flat[2], dtype=np.float32))
        tids, docs, tfs = np.concatenate(parts_t), np.concatenate(parts_d), np.concatenate(parts_f)
        if self._dead:
            live = np.frombuffer(bytes(self._live), dtype=np.uint8).astype(bool)
            keep = live[docs]
            tids, docs, tfs = tids[keep], docs[keep], tfs[keep]
            new_slot = np.cumsum(live, dtype=np.int64) - 1
            docs = new_slot[docs].astype(np.int32)
            self._ids = [i for i in self._ids if i is not None]
            self._slot = {doc_id: s for s, doc_id in enumerate(self._ids)}
            self._lengths = array("i", (n for n, alive in zip(self._lengths, self._live, strict=True) if alive))
            self._live = bytearray(b"\x01" * len(self._ids))
            self._dead = 0
        # A stable sort keeps each term's slots in increasing order (frozen before pending, pending in add order).
        order = np.argsort(tids, kind="stable")
        self._docs, self._tfs = docs[order], tfs[order]
        self._indptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(np.bincount(tids, minlength=n_terms), out=self._indptr[1:])
        self._pending.clear()
        self._pending_postings = 0
        self._cache = None

    # ---- scoring -------------------------------------------------------------------------------------------
    def _norm_and_live(self) -> tuple[np.ndarray, np.ndarray]:
        if self._cache is None:
            lengths = np.frombuffer(self._lengths, dtype=np.int32).astype(np.float64)
            avgdl = self._total_length / len(self._slot) if self._slot and self._total_length else 1.0
            norm = self.k1 * (1.0 - self.b + self.b * lengths / avgdl)
            live = np.frombuffer(bytes(self._live), dtype=np.uint8).astype(bool)
            self._cache = (norm, live)
        return self._cache

    def _postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        tid = self._vocab.get(term)
        if tid is None:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
        if tid < len(self._indptr) - 1:
            lo, hi = self._indptr[tid], self._indptr[tid + 1]
            docs, tfs = self._docs[lo:hi], self._tfs[lo:hi]
        else:
            docs, tfs = np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
        if tid in self._pending:
            slots, counts = self._pending[tid]
            docs = np.concatenate([docs, np.frombuffer(slots, dtype=np.int32)])
            tfs = np.concatenate([tfs, np.frombuffer(counts, dtype=np.int32).astype(np.float32)])
        return docs, tfs

    def _df(self, docs: np.ndarray) -> int:
        if not self._dead:
            return len(docs)
        return int(np.count_nonzero(self._norm_and_live()[1][docs]))

    def _idf_from_df(self, df: int) -> float:
        n = len(self._slot)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def idf(self, term: str) -> float:
        """idf of an analysed term (as `analyzer.query_terms` gives it); 0.0 if no live document has it."""
        df = self._df(self._postings(term)[0])
        return self._idf_from_df(df) if df else 0.0

    def search(
        self, query: str, top_k: int = 10, allowed_ids: Collection[DocId] | None = None
    ) -> list[tuple[DocId, float]]:
        """The `top_k` best documents for `query` with score > 0, best first; ties broken by insertion order.

        `allowed_ids` restricts results to those ids (unknown ids are ignored), e.g. a user's collections."""
        return self.search_terms(self._query_terms(query), top_k, allowed_ids)

    def search_terms(
        self, terms: Iterable[str], top_k: int = 10, allowed_ids: Collection[DocId] | None = None
    ) -> list[tuple[DocId, float]]:
        if top_k <= 0 or not self._slot:
            return []
        norm, live = self._norm_and_live()
        scores = np.zeros(len(self._ids), dtype=np.float64)
        for term in dict.fromkeys(terms):
            docs, tfs = self._postings(term)
            df = self._df(docs)
            if not df:
                continue
            scores[docs] += self._idf_from_df(df) * tfs * (self.k1 + 1.0) / (tfs + norm[docs])
        if allowed_ids is not None:
            # Walk whichever is smaller: the scored documents or the allowed ids (a collection filter can be
            # tens of thousands of ids, while a rare-term query scores a handful of documents).
            scored = np.flatnonzero(scores)
            if len(scored) < len(allowed_ids):
                ids = self._ids
                keep = np.fromiter((ids[s] in allowed_ids for s in scored.tolist()), dtype=bool, count=len(scored))
                candidates = scored[keep]
            else:
                found = map(self._slot.get, allowed_ids, repeat(-1))
                slots = np.fromiter(found, dtype=np.int64, count=len(allowed_ids))
                candidates = slots[slots >= 0]
        else:
            if self._dead:
                scores[~live] = 0.0
            candidates = np.flatnonzero(scores)
        values = scores[candidates]
        positive = values > 0
        candidates, values = candidates[positive], values[positive]
        if len(values) > top_k:
            # Keep everything tied with the k-th score so the tie-break below is by slot, not by partition order.
            kth = np.partition(values, len(values) - top_k)[len(values) - top_k]
            keep = values >= kth
            candidates, values = candidates[keep], values[keep]
        order = np.lexsort((candidates, -values))[:top_k]
        return [(self._ids[candidates[i]], float(values[i])) for i in order]

    # ---- persistence (pickle-free: an .npz of numpy arrays plus one JSON blob) --------------------------------
    def to_bytes(self) -> bytes:
        self._rebuild()
        for doc_id in self._ids:
            if isinstance(doc_id, bool) or not isinstance(doc_id, str | int):
                raise TypeError(f"only str and int ids can be saved, not {type(doc_id).__name__}")
        # Term ids are insertion positions in the vocab dict (never reused), so its key order is the term table.
        meta = dict(format=FORMAT, k1=self.k1, b=self.b, analyzer=self.analyzer_version, ids=self._ids)
        meta["terms"] = list(self._vocab)
        buffer = io.BytesIO()
        np.savez(
            buffer,
            meta=np.frombuffer(json.dumps(meta, ensure_ascii=False).encode(), dtype=np.uint8),
            indptr=self._indptr,
            docs=self._docs,
            tfs=self._tfs.astype(np.int32),
            lengths=np.frombuffer(self._lengths, dtype=np.int32),
        )
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, check_analyzer: bool = True) -> BM25Index:
        """Load `to_bytes` output (with the default analyzer). Refuses (ValueError) an index built by another
        analyzer version, whose terms would not match today's queries: the caller should rebuild it instead."""
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            meta = json.loads(arrays["meta"].tobytes().decode())
            if meta.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} index: {meta.get('format')!r}")
            if check_analyzer and meta["analyzer"] != analyzer.ANALYZER_VERSION:
                raise ValueError(f"index built by analyzer {meta['analyzer']}, not {analyzer.ANALYZER_VERSION}")
            index = cls(k1=meta["k1"], b=meta["b"])
            index.analyzer_version = meta["analyzer"]
            index._indptr = arrays["indptr"].astype(np.int64)
            index._docs = arrays["docs"].astype(np.int32)
            index._tfs = arrays["tfs"].astype(np.float32)
            index._lengths = array("i", arrays["lengths"].astype(np.int32).tobytes())
        index._ids = meta["ids"]
        index._slot = {doc_id: s for s, doc_id in enumerate(index._ids)}
        index._vocab = {term: tid for tid, term in enumerate(meta["terms"])}
        index._live = bytearray(b"\x01" * len(index._ids))
        index._total_length = int(sum(index._lengths))
        return index
