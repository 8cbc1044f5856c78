"""The search service on the real database: scope, modes, fusion, filters, weights, cache, degradation, snapshots."""

from __future__ import annotations

import json
import socket
import threading

import pytest
from django.db import transaction

from apps.documents.models import Chunk, Collection, Document
from apps.documents.services.bulk import TextItem, add_texts
from apps.documents.services.documents import collection_delete, document_delete
from apps.retrieval.keyword import store
from apps.retrieval.models import IndexChange, KeywordSnapshot
from apps.retrieval.search.fusion import reciprocal_rank_fusion
from apps.retrieval.search.service import search
from apps.retrieval.search.types import CollectionNotFound, Filters, InvalidSearch, SearchParams
from apps.retrieval.services.changes import record_change
from tests.retrieval.local_services import build_tiny_cross_encoder, rerank_server

pytestmark = pytest.mark.django_db(transaction=True)

PAPERS = [
    ("photosynthesis.txt", "Light reactions", "Chloroplasts convert light into chemical energy during photosynthesis."),
    ("ribosome.txt", "Protein synthesis", "Ribosomes translate messenger RNA into proteins in every living cell."),
    ("glacier.txt", "Glaciers", "Glaciers retreat as mountain temperatures rise, exposing bare rock and moraine."),
    ("volcano.txt", "Volcanoes", "Basaltic lava flows from shield volcanoes such as those of Hawaii."),
    ("beijing.txt", "北京", "北京大学是中国著名的高等学府，位于北京市海淀区。"),
    ("panda.txt", "熊猫", "大熊猫主要生活在四川的竹林中，以竹子为食。"),
]


@pytest.fixture
def library(collection, personas, embedder):
    docs = add_texts(collection, [TextItem(n, t, x) for n, t, x in PAPERS], embedder)
    collection.refresh_from_db()
    return {d.original_name: d for d in docs}


def _search(user, query, **kw):
    kw.setdefault("collections", ("lab",))
    return search(user, SearchParams(query=query, **kw))


def _names(response):
    return [hit.source for hit in response.hits]


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
def test_each_mode_finds_the_passage_and_reports_its_stages(library, personas, mode):
    response = _search(personas["viewer"], "how do ribosomes make proteins", mode=mode, top_k=3)
    assert _names(response)[0] == "ribosome.txt"
    diagnostics = response.diagnostics
    assert diagnostics["mode_used"] == mode
    expected = {"keyword": ["keyword"], "vector": ["vector"], "hybrid": ["keyword", "vector", "fusion"]}[mode]
    assert diagnostics["stages"][: len(expected)] == expected
    assert diagnostics["vector_search"] == (None if mode == "keyword" else "exact")
    assert diagnostics["candidates"]["returned"] == len(response.hits) <= 3
    assert response.hits[0].score_source == {"hybrid": "fusion"}.get(mode, mode)
    assert "total" in diagnostics["timings_ms"]


def test_chinese_queries_find_chinese_passages(library, personas):
    for mode in ("keyword", "hybrid", "vector"):
        assert _names(_search(personas["viewer"], "熊猫吃什么", mode=mode))[0] == "panda.txt", mode
    hit = _search(personas["viewer"], "北京大学在哪里", mode="keyword").hits[0]
    assert hit.source == "beijing.txt"
    assert "<mark>北京</mark>" in hit.snippet_html


def test_hits_carry_the_locator_fields(library, personas):
    hit = _search(personas["viewer"], "glaciers retreat", mode="keyword").hits[0]
    data = hit.as_dict()
    for key in (
        "chunk_id",
        "chunk_index",
        "document_id",
        "collection",
        "title",
        "source",
        "doc_type",
        "section",
        "locator_precision",
        "page",
        "page_end",
        "rects",
        "para_start",
        "para_end",
        "line_start",
        "score",
        "score_source",
        "viewer_url",
        "content",
        "snippet_html",
    ):
        assert key in data
    assert data["collection"] == "lab" and data["doc_type"] == "txt" and data["page"] is None
    assert data["line_start"] == 1 and data["locator_precision"] == "paragraph"
    # a citation made from it carries the lines, as its card and every surface show them (ChunkSource)
    from apps.citations.answers.citation import from_hit

    assert (from_hit(hit, 1, "").as_dict()["line_start"], data["line_end"]) == (1, hit.line_end)
    assert data["viewer_url"].endswith(f"?chunk={hit.chunk_index}")
    assert data["snippet_html"].startswith("<mark>Glaciers</mark> <mark>retreat</mark> as mountain")


def test_weight_zero_chunks_are_never_returned(library, personas, collection):
    doc = library["volcano.txt"]
    with transaction.atomic():
        Chunk.objects.create(document=doc, chunk_index=5, text="Hawaii shield volcano references list", weight=0)
        record_change(collection_id=collection.pk, document_id=doc.pk, removed_chunk_ids=[])
    for mode in ("keyword", "hybrid"):
        texts = [h.text for h in _search(personas["viewer"], "hawaii shield volcano references", mode=mode).hits]
        assert texts and all("references list" not in t for t in texts)


def test_fusion_is_reciprocal_rank_times_weight():
    fused = reciprocal_rank_fusion({"keyword": [1, 2, 3], "vector": [2, 3, 9]}, {1: 1.0, 2: 1.0, 3: 0.5, 9: 0.0})
    scores = dict(fused)
    assert scores[2] == pytest.approx(1 / 62 + 1 / 61)
    assert scores[1] == pytest.approx(1 / 61)
    assert scores[3] == pytest.approx(0.5 * (1 / 63 + 1 / 62))
    assert 9 not in scores and [c for c, _ in fused] == [2, 1, 3]


def test_filters(library, personas, collection):
    Document.objects.filter(pk=library["glacier.txt"].pk).update(year=2019, authors=["Ada Lovelace"], journal="Ice")
    Document.objects.filter(pk=library["volcano.txt"].pk).update(year=2005, authors=["Alan Turing"])
    user = personas["viewer"]
    query = "glaciers volcanoes lava rock"
    assert set(_names(_search(user, query, top_k=10))) >= {"glacier.txt", "volcano.txt"}
    assert _names(_search(user, query, filters=Filters(year_from=2010), top_k=10)) == ["glacier.txt"]
    assert _names(_search(user, query, filters=Filters(year_to=2010), top_k=10)) == ["volcano.txt"]
    assert _names(_search(user, query, filters=Filters(authors="turing"), top_k=10)) == ["volcano.txt"]
    assert _names(_search(user, query, filters=Filters(journal="ice"), top_k=10)) == ["glacier.txt"]
    only = library["volcano.txt"].pk
    for mode in ("keyword", "vector", "hybrid"):
        names = _names(_search(user, query, mode=mode, filters=Filters(document=only), top_k=10))
        assert names == ["volcano.txt"], mode
    assert _search(user, query, filters=Filters(kind="pdf"), top_k=10).hits == []
    assert _search(user, query, filters=Filters(section="no such section"), top_k=10).hits == []


def test_invalid_parameters_are_refused_with_a_reason(library, personas):
    for params, words in [
        (dict(query="  "), "Type something"),
        (dict(query="x", mode="fuzzy"), "mode"),
        (dict(query="x", depth="deeper"), "depth"),
        (dict(query="x", top_k=0), "top_k"),
        (dict(query="x", snippet_chars=5), "snippet"),
        (dict(query="x", filters=Filters(year_from=2020, year_to=2010)), "year"),
    ]:
        with pytest.raises(InvalidSearch, match=words):
            search(personas["viewer"], SearchParams(**params))


def test_scope_never_reaches_another_collection(library, personas, other_collection, embedder):
    add_texts(
        other_collection, [TextItem("secret.txt", "Secret", "Ribosomes of the other team, confidential.")], embedder
    )
    outsider, viewer = personas["outsider"], personas["viewer"]
    # The member of the other collection: the lab's slug is unknown to them, and an open scope holds only theirs.
    with pytest.raises(CollectionNotFound):
        _search(outsider, "ribosomes")
    for mode in ("keyword", "vector", "hybrid"):
        open_scope = search(outsider, SearchParams(query="ribosomes proteins", mode=mode, top_k=10))
        assert {h.collection for h in open_scope.hits} == {"other"}, mode
        mine = search(viewer, SearchParams(query="ribosomes proteins", mode=mode, top_k=10))
        assert "other" not in {h.collection for h in mine.hits}
        assert "secret.txt" not in _names(mine)
    # Also through the cache: the viewer's identical search right after the outsider's is not served their entry.
    first = search(outsider, SearchParams(query="confidential ribosomes", top_k=10))
    again = search(viewer, SearchParams(query="confidential ribosomes", top_k=10))
    assert first.hits and not again.cached and "secret.txt" not in _names(again)
    assert search(outsider, SearchParams(query="confidential ribosomes", top_k=10)).cached
    with pytest.raises(CollectionNotFound):
        search(viewer, SearchParams(query="x", collections=("other",)))
    with pytest.raises(CollectionNotFound):
        search(viewer, SearchParams(query="x", collections=("no-such-thing",)))
    from django.contrib.auth.models import AnonymousUser

    assert search(AnonymousUser(), SearchParams(query="ribosomes")).hits == []


def test_cache_serves_repeats_and_is_cleared_by_a_change(library, personas, collection, embedder):
    user = personas["viewer"]
    first = _search(user, "basaltic lava", mode="keyword")
    assert not first.cached and _names(first) == ["volcano.txt"]
    repeat = _search(user, "basaltic lava", mode="keyword")
    assert repeat.cached and _names(repeat) == ["volcano.txt"]
    assert not _search(user, "basaltic lava", mode="keyword", top_k=2).cached  # another parameter, another entry
    add_texts(collection, [TextItem("etna.txt", "Etna", "Etna erupts basaltic lava almost every year.")], embedder)
    after_add = _search(user, "basaltic lava", mode="keyword")
    assert not after_add.cached and "etna.txt" in _names(after_add)
    document_delete(document=library["volcano.txt"])
    after_delete = _search(user, "basaltic lava", mode="keyword")
    assert not after_delete.cached and _names(after_delete) == ["etna.txt"]


def test_degradation_without_vectors_is_reported(library, personas, settings):
    from apps.retrieval.embedding import encoder

    settings.PORTAL_EMBEDDING_MODEL = "/nonexistent/model-folder"
    encoder._cache.pop("/nonexistent/model-folder", None)
    response = _search(personas["viewer"], "ribosomes proteins", mode="hybrid")
    assert response.diagnostics["mode_used"] == "keyword"
    assert any("vectors unavailable" in note for note in response.diagnostics["degraded"])
    assert _names(response)[0] == "ribosome.txt"
    # A fault that may clear is not cached.
    assert not _search(personas["viewer"], "ribosomes proteins", mode="hybrid").cached


def test_quick_and_deep_presets_and_the_missing_reranker(library, personas, settings):
    settings.PORTAL_RERANK_MODEL = ""
    settings.PORTAL_RERANK_URL = ""
    quick = _search(personas["viewer"], "energy light chemical", depth="quick", top_k=None)
    assert quick.params["top_k"] == 3 and quick.params["snippet"] == 300 and quick.hint
    assert "rerank" not in quick.diagnostics["stages"]
    deep = _search(personas["viewer"], "energy light chemical", depth="deep")
    assert deep.params["top_k"] == 5 and not deep.hint
    assert deep.diagnostics["reranker"] == {"name": "none", "available": False, "used": False, "reason": ""}
    assert any("no reranker configured" in n for n in deep.diagnostics["degraded"])
    assert {"chain", "related"} <= set(deep.diagnostics["stages"])
    assert deep.hits[0].source == "photosynthesis.txt" and deep.hits[0].score_source == "fusion"
    explicit = _search(personas["viewer"], "energy light chemical", depth="deep", top_k=2, snippet_chars=100)
    assert len(explicit.hits) == 2 and len(explicit.hits[0].content) <= 300


def test_hnsw_and_exact_agree_on_a_small_collection(library, personas, settings, monkeypatch):
    from apps.retrieval.search import vector

    exact = _search(personas["viewer"], "mountain ice melting", mode="vector", top_k=3, use_cache=False)
    settings.PORTAL_VECTOR_EXACT_LIMIT = 0
    monkeypatch.setattr(vector, "MIN_SHARE_FOR_HNSW", 0.0)
    approximate = _search(personas["viewer"], "mountain ice melting", mode="vector", top_k=3, use_cache=False)
    assert exact.diagnostics["vector_search"] == "exact" and approximate.diagnostics["vector_search"] == "hnsw"
    assert _names(approximate) == _names(exact)
    assert _names(exact)[0] == "glacier.txt"


def test_snapshots_and_the_change_log_keep_every_process_current(library, personas, collection, embedder):
    # forced: the worker may have saved the snapshot of the committed library a moment ago (then nothing is new)
    assert store.refresh_snapshot(collection.pk, force=True)
    snapshot = KeywordSnapshot.objects.get(pk=collection.pk)
    collection.refresh_from_db()
    assert snapshot.upto_change == collection.index_version and snapshot.chunk_count == len(PAPERS)
    assert not store.refresh_snapshot(collection.pk)  # nothing new
    # A process starting now loads the snapshot, then applies the changes logged after it.
    add_texts(collection, [TextItem("fjord.txt", "Fjords", "Fjords were carved by glaciers.")], embedder)
    document_delete(document=library["glacier.txt"])
    store.forget_loaded()
    collection.refresh_from_db()
    entry = store.current_index(collection.pk, collection.index_version)
    assert entry.upto == collection.index_version
    fresh = store.build_index(collection.pk).index
    assert len(entry.index) == len(fresh) == len(PAPERS)
    for query in ("glaciers carved", "fjords", "ribosomes"):
        assert entry.index.search(query, 5) == fresh.search(query, 5)
    assert IndexChange.objects.filter(collection=collection).count() == len(PAPERS) + 2


def test_search_never_loads_a_deleted_collections_index(library, personas, collection):
    store.refresh_snapshot(collection.pk, force=True)
    Collection.objects.filter(pk=collection.pk).delete()
    assert not KeywordSnapshot.objects.filter(pk=collection.pk).exists()
    assert not store.refresh_snapshot(collection.pk)


def test_a_snapshot_saved_while_its_collection_is_being_deleted_never_breaks_the_delete(library, collection):
    # seen once in a test run: a worker's snapshot of a collection whose delete had not committed yet made the
    # delete fail its foreign-key check at commit
    from django.db import connection

    saved: list[bool] = []

    def save_in_a_worker() -> None:
        try:
            saved.append(store.refresh_snapshot(collection.pk, force=True))
        finally:
            connection.close()

    worker = threading.Thread(target=save_in_a_worker)
    with transaction.atomic():  # the delete, not yet committed
        collection_delete(collection=Collection.objects.get(pk=collection.pk))
        worker.start()
        worker.join(1.0)
        assert worker.is_alive()  # the snapshot waits for the collection's row instead of writing beside the delete
    worker.join(30)
    assert saved == [False]  # it then finds the collection gone
    assert not Collection.objects.filter(pk=collection.pk).exists()
    assert not KeywordSnapshot.objects.exists()


# ---- rerank through the service -------------------------------------------------------------------------------
def _prefer_short_texts(body: dict) -> tuple[int, bytes, float]:
    """The Cohere shape, scoring the shortest text best (the reverse of what fusion would say), listed backwards."""
    results = [{"index": i, "relevance_score": 1.0 / len(doc)} for i, doc in enumerate(body["documents"])]
    return 200, json.dumps({"results": results[::-1]}).encode(), 0.0


@pytest.fixture
def rerank_url():
    with rerank_server(_prefer_short_texts) as httpd:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/rerank"


def test_deep_search_reranks_through_an_http_endpoint(library, personas, settings, rerank_url):
    settings.PORTAL_RERANK_MODEL = ""
    settings.PORTAL_RERANK_URL = rerank_url
    response = _search(personas["viewer"], "light energy proteins glaciers lava", depth="deep", top_k=5)
    info = response.diagnostics["reranker"]
    assert info == {"name": f"http:{rerank_url}", "available": True, "used": True, "reason": ""}
    assert "rerank" in response.diagnostics["stages"] and not response.diagnostics["degraded"]
    lengths = [len(hit.text) for hit in response.hits]
    assert lengths == sorted(lengths)  # the endpoint's order, not the fused one
    assert all(hit.score_source == "rerank" and "fusion" in hit.scores for hit in response.hits)
    assert response.hits[0].score == pytest.approx(1.0 / lengths[0], rel=1e-5)


def test_a_reranker_that_fails_is_reported_and_the_fused_order_kept(library, personas, settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    settings.PORTAL_RERANK_MODEL = ""
    settings.PORTAL_RERANK_URL = f"http://127.0.0.1:{closed}/rerank"
    deep = _search(personas["viewer"], "light energy proteins", depth="deep")
    plain = _search(personas["viewer"], "light energy proteins", depth="deep", rerank=False)
    assert deep.diagnostics["reranker"]["used"] is False and deep.diagnostics["reranker"]["reason"]
    assert any("reranker" in note for note in deep.diagnostics["degraded"])
    assert _names(deep) == _names(plain) and deep.hits[0].score_source == "fusion"
    assert not _search(personas["viewer"], "light energy proteins", depth="deep").cached  # a fault is not cached


def test_deep_search_reranks_with_a_local_cross_encoder(library, personas, settings, tmp_path):
    from sentence_transformers import CrossEncoder

    words = {w for _, _, text in PAPERS for w in text.lower().replace(".", " ").replace(",", " ").split()}
    folder = build_tiny_cross_encoder(tmp_path, words)
    settings.PORTAL_RERANK_MODEL = folder
    settings.PORTAL_RERANK_URL = ""
    query = "light energy proteins glaciers lava"
    response = _search(personas["viewer"], query, depth="deep", top_k=5)
    assert response.diagnostics["reranker"]["used"] is True
    assert response.diagnostics["reranker"]["name"] == f"cross-encoder:{folder}"
    expected = CrossEncoder(folder, local_files_only=True).predict([(query, hit.text) for hit in response.hits])
    assert [hit.score for hit in response.hits] == pytest.approx(sorted(map(float, expected), reverse=True), rel=1e-4)


def test_exact_search_for_small_scopes_and_small_shares_of_the_table(settings, monkeypatch, db):
    from apps.retrieval.search import vector

    settings.PORTAL_VECTOR_EXACT_LIMIT = 2000
    assert vector.exact_is_better(2000)
    monkeypatch.setattr(vector, "MIN_SHARE_FOR_HNSW", 0.0)
    assert not vector.exact_is_better(2001)
    monkeypatch.setattr(vector, "MIN_SHARE_FOR_HNSW", 1e9)  # every scope is a "small share" of a known table
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE documents_chunk")
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = 'documents_chunk'::regclass")
        known = cursor.fetchone()[0] > 0
    assert vector.exact_is_better(2001) is known
