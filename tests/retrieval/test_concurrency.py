"""Many threads (and processes) at once get what one thread gets: the analyser, the keyword indexes, the search service.

A web process serves requests from several threads (gunicorn's --threads), so every analyser, model and cache they
share must give each of them exactly the single-threaded answer. Each test computes that answer in one thread
first, then from many threads started together, and compares every result. The interpreter's switch interval is
made tiny while the threads run, so they interleave after a handful of bytecodes (as they do under load) rather
than every 5 ms; the one shared Snowball stemmer of the old analyser failed these tests within the first
hundred words.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, connections

from apps.documents.services.bulk import TextItem, add_texts
from apps.retrieval.keyword import analyzer, store
from apps.retrieval.models import KeywordSnapshot
from apps.retrieval.search import service
from apps.retrieval.search.types import SearchParams

THREADS = 8
QUERIES = 20
ABSTRACTS = 60


@contextmanager
def switching_often() -> Iterator[None]:
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def in_threads(work: Callable[[int], object], threads: int = THREADS) -> list[object]:
    """`work(n)` for n in range(threads), all started together; their results in order (an exception re-raised)."""
    start = threading.Barrier(threads)
    results: list[object] = [None] * threads
    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            start.wait()
            results[n] = work(n)
        except BaseException as exc:  # any failure of a thread fails the test
            failures.append(exc)
        finally:
            connection.close()  # each thread had a database connection of its own

    workers = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    with switching_often():
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    if failures:
        raise failures[0]
    return results


def shuffled(items: list, seed: int) -> list:
    return random.Random(seed).sample(items, len(items))


# ---- the analyser -------------------------------------------------------------------------------------------------
def _texts() -> list[str]:
    """Sentences of many distinct English-looking words (stems differ by suffix: -s, -ing, -ation, -ness ...)."""
    rng = random.Random(14)
    suffixes = ["", "s", "es", "ed", "ing", "ation", "ations", "ness", "ly", "ful", "ments", "ised", "izing"]
    words = {
        "".join(rng.choice("abcdefghiklmnoprstuvwy") for _ in range(rng.randint(3, 10))) + rng.choice(suffixes)
        for _ in range(24_000)
    }
    words = [*sorted(words), "events", "proteins", "ribosomes", "running", "generously", "café", "naïve"]
    return [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]


def test_the_analyser_gives_every_thread_the_terms_one_thread_gets():
    # given: the terms of many distinct words, analysed by one thread with nothing cached
    texts = _texts()
    analyzer._word_term.cache_clear()
    expected = [analyzer.terms(text) for text in texts]
    expected_spans = [analyzer.term_spans(text) for text in texts[:200]]
    analyzer._word_term.cache_clear()

    # when: eight threads analyse them all at once, each in its own order, first with an empty cache, then again
    # from the cache the threads filled together
    def analyse(n: int) -> tuple[dict[int, list[str]], dict[int, list[str]], list]:
        order = shuffled(range(len(texts)), n)
        cold = {i: analyzer.terms(texts[i]) for i in order}
        warm = {i: analyzer.query_terms(texts[i]) for i in order}
        return cold, warm, [analyzer.term_spans(text) for text in texts[:200]]

    results = in_threads(analyse)

    # then: every thread got exactly the single-threaded terms, and so does anyone reading the cache afterwards
    for cold, warm, spans in results:
        assert [cold[i] for i in range(len(texts))] == expected
        assert [warm[i] for i in range(len(texts))] == [list(dict.fromkeys(terms)) for terms in expected]
        assert spans == expected_spans
    assert [analyzer.terms(text) for text in texts] == expected
    assert analyzer.terms("events proteins") == ["event", "protein"]


# ---- the keyword indexes ------------------------------------------------------------------------------------------


def _scifact_sample(shared_corpus: Path) -> tuple[list[TextItem], list[str]]:
    """ABSTRACTS SciFact abstracts and QUERIES of its test queries, each query's relevant abstracts among them."""
    from apps.evaluation.ranking import load_beir

    corpus, queries, qrels = load_beir(shared_corpus / "beir-scifact")
    chosen = sorted(queries, key=int)[:QUERIES]
    ids = [doc_id for qid in chosen for doc_id in qrels[qid]]
    ids += [doc_id for doc_id in sorted(corpus) if doc_id not in ids][: ABSTRACTS - len(ids)]
    items = [TextItem(f"scifact-{doc_id}.txt", corpus[doc_id][:80], corpus[doc_id]) for doc_id in dict.fromkeys(ids)]
    return items, [queries[qid] for qid in chosen]


@pytest.fixture
def scifact(collection, personas, embedder, shared_corpus):
    items, queries = _scifact_sample(shared_corpus)
    # The vectors are kept on disk for the run: the three tests that use this collection embed it once.
    add_texts(collection, items, embedder, vector_cache=Path(settings.VAR_DIR) / "cache" / "test-vectors")
    collection.refresh_from_db()
    return collection, queries


def _forget_everything(collection_id: int) -> None:
    """A process as it starts: no cached terms, no index in memory, no query vectors; and no saved snapshot, so
    the first search builds the index from the chunks (analysing every one of them)."""
    analyzer._word_term.cache_clear()
    service.query_vector.cache_clear()
    store.forget_loaded()
    KeywordSnapshot.objects.filter(pk=collection_id).delete()


def _search_all(user, queries: list[str], mode: str) -> dict[str, list[tuple]]:
    found = {}
    for query in queries:
        params = SearchParams(query=query, collections=("lab",), mode=mode, top_k=10, use_cache=False)
        response = service.search(user, params)
        assert response.diagnostics["degraded"] == [], response.diagnostics["degraded"]
        found[query] = [(hit.chunk_id, round(hit.score, 6), hit.snippet_html) for hit in response.hits]
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_searches_from_many_threads_find_what_one_thread_finds(scifact, personas, mode):
    # given: every query's results, ranks, scores and highlighted snippets, from one thread in a cold process
    collection, queries = scifact
    viewer = personas["viewer"]
    _forget_everything(collection.pk)
    expected = _search_all(viewer, queries, mode)
    assert sum(1 for hits in expected.values() if hits) >= QUERIES - 2  # the sample really answers its queries

    # when: a cold process again, and eight threads searching at once, each in its own order
    _forget_everything(collection.pk)
    results = in_threads(lambda n: _search_all(viewer, shuffled(queries, n), mode))

    # then: each thread found exactly what the one thread found
    for found in results:
        assert found == expected


@pytest.mark.django_db(transaction=True)
def test_threads_that_find_a_collection_not_loaded_wait_for_one_load(collection, monkeypatch):
    loads = []
    real_load = store._load

    def slow_load(collection_id: int):
        loads.append(collection_id)
        time.sleep(0.3)  # long enough for every thread to arrive while the first one is loading
        return real_load(collection_id)

    monkeypatch.setattr(store, "_load", slow_load)
    store.forget_loaded()
    entries = in_threads(lambda n: store.current_index(collection.pk, collection.index_version))
    assert loads == [collection.pk]
    assert all(entry is entries[0] for entry in entries)


# ---- processes: the snapshot in the database is shared by every process -------------------------------------------
def _child(collection_id: int, version: int, queries: list[str], expected: dict, out) -> None:
    """A fresh process whose threads all load the collection, search it and save its snapshot at once."""
    analyzer._word_term.cache_clear()
    store.forget_loaded()

    def work(n: int) -> int:
        entry = store.current_index(collection_id, version)
        with entry.lock:
            found = {q: entry.index.search(q, 10) for q in shuffled(queries, n)}
        store.refresh_snapshot(collection_id, force=True)
        return sum(1 for q in queries if [list(hit) for hit in found[q]] != expected[q])

    try:
        out.put(sum(in_threads(work, 4)))
    except BaseException as exc:  # reported to the parent, which fails the test
        out.put(f"{type(exc).__name__}: {exc}")


@pytest.mark.django_db(transaction=True)
def test_processes_saving_the_snapshot_at_once_leave_one_that_every_process_reads_alike(scifact):
    # given: each query's keyword results from an index built by one thread
    collection, queries = scifact
    _forget_everything(collection.pk)
    index = store.build_index(collection.pk).index
    expected = {q: [list(hit) for hit in index.search(q, 10)] for q in queries}
    expected = json.loads(json.dumps(expected))  # as the children's results will look (lists of [id, score])

    # when: three processes, four threads each, build the index, search it and save the snapshot, all at once
    store.forget_loaded()
    KeywordSnapshot.objects.filter(pk=collection.pk).delete()
    connections.close_all()  # a forked child must open connections of its own, never share the parent's
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    args = (collection.pk, collection.index_version, queries, expected, out)
    children = [context.Process(target=_child, args=args) for _ in range(3)]
    with switching_often():
        for child in children:
            child.start()
        reports = [out.get(timeout=300) for _ in children]
        for child in children:
            child.join(60)

    # then: no child saw other results, and the one snapshot left gives any process the same results again
    assert reports == [0, 0, 0]
    assert [child.exitcode for child in children] == [0, 0, 0]
    store.forget_loaded()
    analyzer._word_term.cache_clear()
    snapshot = KeywordSnapshot.objects.get(pk=collection.pk)
    assert snapshot.analyzer_version == analyzer.ANALYZER_VERSION
    loaded = store.current_index(collection.pk, collection.index_version)
    assert loaded.upto == snapshot.upto_change
    assert {q: [list(hit) for hit in loaded.index.search(q, 10)] for q in queries} == expected
