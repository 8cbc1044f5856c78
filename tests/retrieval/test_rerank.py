"""Reranking: a tiny CrossEncoder built here (nothing downloaded), a local HTTP /rerank server in each response
shape and each way of failing, and get_reranker() following the settings. No database."""

from __future__ import annotations

import json
import math
import random
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from apps.retrieval.rerank import (
    CrossEncoderReranker,
    HttpReranker,
    NoReranker,
    RerankUnavailable,
    get_reranker,
)
from apps.retrieval.rerank import cross_encoder as ce_module
from tests.retrieval.local_services import Behaviour, RerankServer, build_tiny_cross_encoder, rerank_server

QUERY = "protein folding in the cell"
TEXTS = [
    "the weather is nice today",
    "protein folding happens in the cell",
    "a cell divides",
    "folding chairs for sale",
    "protein structure and protein folding in every cell of the body",
]


# ---- no reranker -----------------------------------------------------------------------------------------------
def test_no_reranker_is_never_available():
    reranker = NoReranker()
    assert (reranker.name, reranker.configured) == ("none", False)
    assert reranker.available() == (False, "no reranker configured")
    with pytest.raises(RerankUnavailable, match="no reranker configured"):
        reranker.scores(QUERY, TEXTS)


# ---- get_reranker follows the settings -------------------------------------------------------------------------
def test_get_reranker_with_nothing_configured(settings):
    settings.PORTAL_RERANK_MODEL = ""
    settings.PORTAL_RERANK_URL = ""
    assert isinstance(get_reranker(), NoReranker)


def test_get_reranker_with_a_url(settings):
    settings.PORTAL_RERANK_MODEL = ""
    settings.PORTAL_RERANK_URL = "http://127.0.0.1:9/rerank"
    settings.PORTAL_RERANK_TIMEOUT = 7
    settings.PORTAL_RERANK_KEY = "secret"
    reranker = get_reranker()
    assert isinstance(reranker, HttpReranker)
    assert (reranker.name, reranker.configured) == ("http:http://127.0.0.1:9/rerank", True)
    assert (reranker.timeout, reranker.api_key) == (7, "secret")


def test_get_reranker_with_a_model_and_when_both_are_set_the_model_wins(settings, tmp_path):
    settings.PORTAL_RERANK_MODEL = str(tmp_path)
    settings.PORTAL_RERANK_URL = ""
    reranker = get_reranker()
    assert isinstance(reranker, CrossEncoderReranker)
    assert (reranker.name, reranker.configured) == (f"cross-encoder:{tmp_path}", True)
    settings.PORTAL_RERANK_URL = "http://127.0.0.1:9/rerank"
    assert isinstance(get_reranker(), CrossEncoderReranker)


# ---- CrossEncoder with a tiny local model ----------------------------------------------------------------------
WORDS = sorted({word for text in [QUERY, *TEXTS] for word in text.split()} | {"unrelated", "words"})


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> str:
    return build_tiny_cross_encoder(tmp_path_factory.mktemp("tiny-cross-encoder"), WORDS)


@pytest.fixture(autouse=True)
def fresh_model_cache():
    ce_module.forget_models()
    yield
    ce_module.forget_models()


def test_cross_encoder_scores_match_sentence_transformers(tiny_model):
    from sentence_transformers import CrossEncoder

    reranker = CrossEncoderReranker(tiny_model)
    assert reranker.available() == (True, "")  # before loading: the folder is there
    first = reranker.scores(QUERY, TEXTS)
    assert len(first) == len(TEXTS) and all(isinstance(s, float) and math.isfinite(s) for s in first)
    assert len(set(first)) > 1
    assert reranker.scores(QUERY, TEXTS) == first  # deterministic
    assert reranker.available() == (True, "")

    expected = CrossEncoder(tiny_model, local_files_only=True).predict([(QUERY, text) for text in TEXTS])
    assert first == pytest.approx([float(x) for x in expected], abs=1e-6)
    # Order in = order out.
    assert reranker.scores(QUERY, TEXTS[::-1]) == pytest.approx(first[::-1], abs=1e-6)
    assert reranker.scores(QUERY, []) == []


def test_cross_encoder_is_loaded_once_and_shared_by_threads(tiny_model):
    one, two = CrossEncoderReranker(tiny_model), CrossEncoderReranker(tiny_model)
    expected = one.scores(QUERY, TEXTS)
    model = ce_module._models[tiny_model].model
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: two.scores(QUERY, TEXTS), range(8)))
    assert ce_module._models[tiny_model].model is model
    assert all(result == pytest.approx(expected, abs=1e-6) for result in results)


def test_cross_encoder_truncates_long_texts(tiny_model):
    scores = CrossEncoderReranker(tiny_model).scores(QUERY, ["protein " * 500, "cell"])
    assert len(scores) == 2


def test_missing_model_folder_is_unavailable(tmp_path):
    reranker = CrossEncoderReranker(str(tmp_path / "no-such-model"))
    ok, reason = reranker.available()
    assert not ok and reason.startswith("model folder not found:") and "no-such-model" in reason
    with pytest.raises(RerankUnavailable, match="model folder not found"):
        reranker.scores(QUERY, TEXTS)

    ok, reason = CrossEncoderReranker(str(tmp_path)).available()  # a folder, but no model in it
    assert not ok and "no config.json" in reason

    ok, reason = CrossEncoderReranker("nobody-has/this-model-xyz").available()
    assert not ok and "not in the Hugging Face cache" in reason
    with pytest.raises(RerankUnavailable, match="not in the Hugging Face cache"):
        CrossEncoderReranker("nobody-has/this-model-xyz").scores(QUERY, TEXTS)


def test_a_broken_model_is_not_retried_for_a_while(tmp_path, monkeypatch):
    (tmp_path / "config.json").write_text("{ this is not json", encoding="utf-8")
    loads = []
    real_load = ce_module._load
    monkeypatch.setattr(ce_module, "_load", lambda name: loads.append(name) or real_load(name))
    reranker = CrossEncoderReranker(str(tmp_path))
    with pytest.raises(RerankUnavailable, match="cross-encoder failed to load") as first:
        reranker.scores(QUERY, TEXTS)
    with pytest.raises(RerankUnavailable) as second:
        reranker.scores(QUERY, TEXTS)
    assert len(loads) == 1 and second.value.reason == first.value.reason
    assert reranker.available() == (False, first.value.reason)
    # Once the pause is over, the next search tries again.
    monkeypatch.setattr(ce_module, "RETRY_AFTER_SECONDS", 0.0)
    with pytest.raises(RerankUnavailable):
        reranker.scores(QUERY, TEXTS)
    assert len(loads) == 2


# ---- HTTP against a local server -------------------------------------------------------------------------------
def overlap_score(query: str, text: str) -> float:
    """Shared words, with a small length tie-break, so every text gets a distinct, checkable score."""
    words = set(text.split())
    return len(set(query.split()) & words) + 1.0 / (1 + len(text))


@pytest.fixture
def server() -> Iterator[RerankServer]:
    with rerank_server() as httpd:
        yield httpd


def url_of(httpd: RerankServer) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}/rerank"


def shaped(shape: str) -> Behaviour:
    def answer(body: dict) -> tuple[int, bytes, float]:
        scores = [overlap_score(body["query"], doc) for doc in body["documents"]]
        entries = list(enumerate(scores))
        random.Random(len(scores)).shuffle(entries)  # any order: the client must map by index
        if shape == "results":
            data = {"results": [{"index": i, "relevance_score": s, "document": {"text": "…"}} for i, s in entries]}
            data |= {"id": "x", "meta": {"billed_units": {"search_units": 1}}}
        elif shape == "tei":
            data = [{"index": i, "score": s} for i, s in entries]
        else:
            data = {"scores": scores}
        return 200, json.dumps(data).encode(), 0.0

    return answer


@pytest.mark.parametrize("shape", ["results", "tei", "scores"])
def test_http_scores_come_back_in_input_order(server, shape):
    server.behaviour = shaped(shape)
    reranker = HttpReranker(url_of(server), timeout=5)
    assert reranker.available() == (True, "")
    expected = [overlap_score(QUERY, text) for text in TEXTS]
    assert reranker.scores(QUERY, TEXTS) == pytest.approx(expected)
    assert reranker.scores(QUERY, TEXTS[::-1]) == pytest.approx(expected[::-1])
    body, headers = server.requests[0]
    assert body == {"query": QUERY, "documents": TEXTS, "top_n": len(TEXTS)}
    assert headers["Content-Type"] == "application/json" and "Authorization" not in headers


def test_http_settings_give_the_timeout_and_the_key(server, settings):
    server.behaviour = shaped("results")
    settings.PORTAL_RERANK_MODEL = ""
    settings.PORTAL_RERANK_URL = url_of(server)
    settings.PORTAL_RERANK_KEY = "k-123"
    reranker = get_reranker()
    assert len(reranker.scores(QUERY, TEXTS)) == len(TEXTS)
    assert server.requests[0][1]["Authorization"] == "Bearer k-123"
    assert reranker.scores(QUERY, []) == [] and len(server.requests) == 1  # nothing to score, nothing sent


def fixed(status: int, body: bytes | str, delay: float = 0.0) -> Behaviour:
    payload = body.encode() if isinstance(body, str) else body
    return lambda _request: (status, payload, delay)


FIVE = len(TEXTS)
RESULTS = [{"index": i, "relevance_score": 0.5} for i in range(FIVE)]


@pytest.mark.parametrize(
    ("status", "body", "reason"),
    [
        (500, '{"error": "CUDA out of memory"}', r"HTTP 500 .*CUDA out of memory"),
        (404, "no such route", r"HTTP 404"),
        (200, "<html>not json</html>", r"malformed rerank response: not JSON"),
        (200, '{"data": []}', r"malformed rerank response: no 'results' or 'scores'"),
        (200, '"just a string"', r"malformed rerank response: expected an object or a list"),
        (200, json.dumps({"results": RESULTS[:-1]}), r"gave 4 scores for 5 texts"),
        (200, json.dumps({"scores": [0.1, 0.2]}), r"gave 2 scores for 5 texts"),
        (200, json.dumps([{"index": 0, "score": 1}] * FIVE), r"index 0 appears twice"),
        (200, json.dumps([*RESULTS[:-1], {"index": 9, "score": 1}]), r"bad index 9"),
        (200, json.dumps([*RESULTS[:-1], {"index": 4}]), r"neither 'relevance_score' nor 'score'"),
        (200, json.dumps({"scores": [0.1, 0.2, "high", 0.4, 0.5]}), r"not a number"),
        (200, json.dumps({"scores": [0.1, 0.2, True, 0.4, 0.5]}), r"not a number"),
        (200, '{"scores": [0.1, 0.2, NaN, 0.4, 0.5]}', r"non-finite score"),
    ],
)
def test_http_failures_are_rerank_unavailable_with_a_reason(server, status, body, reason):
    server.behaviour = fixed(status, body)
    with pytest.raises(RerankUnavailable, match=reason):
        HttpReranker(url_of(server), timeout=5).scores(QUERY, TEXTS)


def test_http_timeout(server, settings):
    server.behaviour = fixed(200, json.dumps({"scores": [1.0] * FIVE}), delay=3.0)
    settings.PORTAL_RERANK_MODEL = ""
    settings.PORTAL_RERANK_URL = url_of(server)
    settings.PORTAL_RERANK_TIMEOUT = 1
    reranker = get_reranker()
    started = time.monotonic()
    with pytest.raises(RerankUnavailable, match=r"timed out after 1 s"):
        reranker.scores(QUERY, TEXTS)
    assert time.monotonic() - started < 2.5


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_http_connection_refused():
    reranker = HttpReranker(f"http://127.0.0.1:{closed_port()}/rerank", timeout=2)
    ok, reason = reranker.available()
    assert not ok and reason.startswith("endpoint unreachable:") and "refused" in reason
    with pytest.raises(RerankUnavailable, match=r"endpoint unreachable: .*connection refused"):
        reranker.scores(QUERY, TEXTS)


@pytest.mark.parametrize("url", ["ftp://example.org/rerank", "not a url", "http:///rerank"])
def test_http_bad_url(url):
    reranker = HttpReranker(url)
    ok, reason = reranker.available()
    assert not ok and "URL" in reason
    with pytest.raises(RerankUnavailable, match="URL"):
        reranker.scores(QUERY, TEXTS)
