"""A reranking service over HTTP, in the common `POST /rerank` shape (Cohere, Jina, vLLM, Infinity, TEI).

Request: {"query": q, "documents": [...], "top_n": len(documents)} as JSON, with an optional bearer key.
Accepted answers, mapped back to the order of the documents sent:

* {"results": [{"index": i, "relevance_score": s}, ...]}  (Cohere, Jina, vLLM, Infinity; "score" also accepted)
* [{"index": i, "score": s}, ...]                          (Hugging Face text-embeddings-inference)
* {"scores": [s0, s1, ...]}                                 (already in input order; a bare list of numbers too)

Standard library only (urllib), so no HTTP client dependency. The timeout applies to connecting and to each
read, as urllib's does.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from apps.retrieval.rerank.base import Reranker, RerankUnavailable, checked_scores

MAX_RESPONSE_BYTES = 16 * 1024 * 1024  # a score per document is a few KB; anything far larger is not an answer
SOURCE = "the rerank endpoint"


def _malformed(detail: str) -> RerankUnavailable:
    return RerankUnavailable(f"malformed rerank response: {detail}")


def parse_scores(data: Any, count: int) -> list[float]:
    """Scores in input order from a decoded rerank response, for `count` documents; RerankUnavailable if malformed."""
    if isinstance(data, dict):
        if isinstance(data.get("results"), list):
            data = data["results"]
        elif isinstance(data.get("scores"), list):
            return checked_scores(data["scores"], count, SOURCE)
        else:
            raise _malformed(f"no 'results' or 'scores' list (keys: {', '.join(sorted(map(str, data))[:8])})")
    if not isinstance(data, list):
        raise _malformed(f"expected an object or a list, got {type(data).__name__}")
    if not data or not all(isinstance(item, dict) for item in data):
        # A list of plain numbers is the in-order shape without its wrapper.
        return checked_scores(data, count, SOURCE)
    by_index: dict[int, object] = {}
    for item in data:
        index = item.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise _malformed(f"bad index {index!r:.40} for {count} documents")
        if index in by_index:
            raise _malformed(f"index {index} appears twice")
        score = item.get("relevance_score", item.get("score"))
        if score is None:
            raise _malformed("a result has neither 'relevance_score' nor 'score'")
        by_index[index] = score
    if len(by_index) != count:
        raise RerankUnavailable(f"{SOURCE} gave {len(by_index)} scores for {count} texts")
    return checked_scores((by_index[i] for i in range(count)), count, SOURCE)


class HttpReranker(Reranker):
    """Reranks through an HTTP endpoint; every failure (HTTP error, timeout, bad answer) is RerankUnavailable."""

    configured = True

    def __init__(self, url: str, timeout: float = 10, api_key: str = "") -> None:
        self.url = url
        self.name = f"http:{url}"
        self.timeout = float(timeout)
        self.api_key = api_key

    def _host_port(self) -> tuple[str, int]:
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RerankUnavailable(f"not an http(s) URL: {self.url}")
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            raise RerankUnavailable(f"bad port in URL: {self.url}") from None
        return parts.hostname, port

    def available(self) -> tuple[bool, str]:
        """Whether the endpoint accepts a connection (a TCP connect, no request: scoring costs the server)."""
        try:
            host, port = self._host_port()
        except RerankUnavailable as exc:
            return False, exc.reason
        try:
            with socket.create_connection((host, port), timeout=min(self.timeout, 3.0)):
                pass
        except OSError as exc:
            return False, f"endpoint unreachable: {host}:{port} ({_os_reason(exc)})"
        return True, ""

    def scores(self, query: str, texts: list[str]) -> list[float]:
        if not texts:
            return []
        try:
            self._host_port()
            return parse_scores(self._post(query, texts), len(texts))
        except RerankUnavailable:
            raise
        except Exception as exc:  # the caller's fallback must see nothing but RerankUnavailable
            raise RerankUnavailable(f"rerank request failed: {type(exc).__name__}: {exc}"[:300]) from exc

    def _post(self, query: str, texts: list[str]) -> Any:
        body = json.dumps({"query": query, "documents": texts, "top_n": len(texts)}).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read(MAX_RESPONSE_BYTES + 1)
        except urllib.error.HTTPError as exc:
            detail = _error_body(exc)
            raise RerankUnavailable(f"rerank endpoint answered HTTP {exc.code} {exc.reason}{detail}") from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise RerankUnavailable(f"rerank endpoint timed out after {self.timeout:g} s") from exc
            raise RerankUnavailable(f"endpoint unreachable: {self.url} ({_os_reason(exc.reason)})") from exc
        except TimeoutError as exc:
            raise RerankUnavailable(f"rerank endpoint timed out after {self.timeout:g} s") from exc
        except OSError as exc:  # a connection reset or dropped mid-answer
            raise RerankUnavailable(f"rerank endpoint connection failed: {_os_reason(exc)}") from exc
        if len(raw) > MAX_RESPONSE_BYTES:
            raise _malformed(f"larger than {MAX_RESPONSE_BYTES} bytes")
        try:
            return json.loads(raw)
        except ValueError as exc:  # also UnicodeDecodeError
            raise _malformed(f"not JSON ({raw[:60]!r})") from exc


def _os_reason(reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return "timed out"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason) or type(reason).__name__


def _error_body(exc: urllib.error.HTTPError) -> str:
    """The first bytes of an error answer (servers put the reason there), or nothing if unreadable."""
    try:
        text = exc.read(300).decode("utf-8", "replace").strip()
    except Exception:
        return ""
    return f": {' '.join(text.split())[:200]}" if text else ""
