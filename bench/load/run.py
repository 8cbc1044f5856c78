"""A bounded load run: N concurrent clients for S seconds of mixed search, ask and preview over the API.

Run (needs PostgreSQL with pgvector and Redis; a database of its own, shared with bench/search, which builds the
collection):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/portal_bench REDIS_URL=redis://127.0.0.1:6379/3 \\
    SECRET_KEY=... ALLOWED_HOSTS=127.0.0.1 PORTAL_HTTPS=false python bench/load/run.py [--clients 20 --seconds 60]

The collection is bench/search's "bench-20k": SciFact's 5,183 abstracts through the real chunking and embedding
model, copied (vectors perturbed) to 20,000 chunks in documents of 20 chunks. The server is the portal's own
web server as `portalctl.py run` starts it (gunicorn, 2 workers x 4 threads) on loopback, with a result-cache
prefix of this run's own. Each client is a thread with its own connection and its own viewer account and API
token (a team of people, each within the API's per-user rate) that loops until the time is up, picking an
operation by the mix (default: search 35 %, keyword 20 %, preview 25 %, ask 20 %): searches alternate quick and
deep and take SciFact's queries in a per-client shuffled order (the cache serves a query only when another
client asked it first, as in a team); keyword searches are quick, `mode=keyword`, in the same kind of order;
previews open a random chunk of a random document with two neighbours; asks are quick, extractive answers (the
default composer) stored in a conversation, as a page would. Every response must be 200 with a JSON body;
anything else counts as an error and is listed.

Every keyword search is also checked against a single-threaded run: before the server starts, this process
searches every query once, alone, through the same service (cache off), and each keyword answer under load must
hold the same chunks in the same order with the same scores and snippets; a difference counts as an error too
(`keyword_mismatches`). (Threads once shared one stemmer and got each other's words: wrong terms, wrong results.)
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_search", ROOT / "bench" / "search" / "run.py")
bench_search = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_search)  # sets Django up and holds the collection builder

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from apps.documents.models import Chunk, Document, Membership  # noqa: E402
from apps.evaluation.ranking import load_beir  # noqa: E402
from apps.retrieval.search import service  # noqa: E402
from apps.retrieval.search.types import SearchParams  # noqa: E402


class Client:
    """One simulated person: a keep-alive connection, a token, a random stream of operations."""

    def __init__(self, port: int, token: str, slug: str, queries: list[str], documents: list[int], seed: int):
        self.port, self.token, self.slug, self.documents = port, token, slug, documents
        self.rng = random.Random(seed)
        self.queries = self.rng.sample(queries, len(queries))
        self.turn = 0
        self.last_query = ""
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=payload, headers=headers)
                response = self.connection.getresponse()
                return response.status, response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # gunicorn closes idle keep-alive connections; reconnect once, as a browser would
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def next_query(self) -> str:
        self.turn += 1
        self.last_query = self.queries[self.turn % len(self.queries)]
        return self.last_query

    def operation(self, kind: str) -> tuple[int, bytes]:
        from urllib.parse import urlencode

        if kind == "search":
            depth = "quick" if self.turn % 2 else "deep"
            query = urlencode({"q": self.next_query(), "collection": self.slug, "depth": depth})
            return self.request("GET", f"/api/v1/search?{query}")
        if kind == "keyword":
            query = urlencode({"q": self.next_query(), "collection": self.slug, "mode": "keyword", "depth": "quick"})
            return self.request("GET", f"/api/v1/search?{query}")
        if kind == "preview":
            document = self.rng.choice(self.documents)
            index = self.rng.randrange(bench_search.CHUNKS_PER_DOCUMENT)
            return self.request("GET", f"/api/v1/documents/{document}/preview?chunk_index={index}&context=2")
        body = {"question": self.next_query(), "collection": self.slug, "depth": "quick"}
        return self.request("POST", "/api/v1/ask", body)


def keyword_hits(results: list[dict]) -> list[list]:
    """What must not change between a single-threaded run and a loaded one: chunks, order, scores, snippets."""
    return [[hit["chunk_id"], hit["score"], hit["snippet_html"]] for hit in results]


def keyword_reference(user, slug: str, queries: list[str]) -> dict[str, list[list]]:
    """Each query's keyword results from this process alone (one thread, result cache off), before any load."""
    reference = {}
    for query in queries:
        params = SearchParams(query=query, collections=(slug,), mode="keyword", depth="quick", use_cache=False)
        reference[query] = keyword_hits(service.search(user, params).as_dict()["results"])
    return reference


def check(kind: str, status: int, body: bytes, expected: list[list] | None) -> tuple[str, bool]:
    """(the problem with an answer or "", whether it was a keyword answer that differs from the reference)."""
    data = json.loads(body) if status == 200 else None
    if not isinstance(data, dict):
        return f"{kind}: HTTP {status} {body[:200]!r}", False
    if kind == "keyword" and expected is not None and keyword_hits(data["results"]) != expected:
        return f"keyword: results differ from the single-threaded run for {data.get('query')!r}", True
    return "", False


def run_clients(clients: list[Client], seconds: float, mix: dict[str, float], reference: dict) -> dict:
    kinds, weights = list(mix), list(mix.values())
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    checked = {"keyword_checked": 0, "keyword_mismatches": 0}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def loop(client: Client) -> None:
        while time.monotonic() < stop_at:
            kind = client.rng.choices(kinds, weights)[0]
            started = time.perf_counter()
            compared = mismatch = False
            try:
                status, body = client.operation(kind)
                problem, mismatch = check(kind, status, body, reference.get(client.last_query))
                compared = kind == "keyword" and status == 200
            except Exception as exc:  # a refused or dropped connection is an error of the run, not a crash
                problem = f"{kind}: {type(exc).__name__}: {exc}"
            elapsed = (time.perf_counter() - started) * 1000.0
            with lock:
                checked["keyword_checked"] += compared
                checked["keyword_mismatches"] += mismatch
                if problem:
                    errors.append(problem)
                else:
                    latencies[kind].append(elapsed)

    threads = [threading.Thread(target=loop, args=(client,)) for client in clients]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    every = [ms for values in latencies.values() for ms in values]
    out = {
        "clients": len(clients),
        "seconds": round(wall, 1),
        "requests": len(every) + len(errors),
        "errors": len(errors),
        "error_samples": errors[:10],
        **checked,
        "throughput_rps": round((len(every) + len(errors)) / wall, 2),
        "all": bench_search.percentiles(every) if every else {},
    }
    for kind, values in sorted(latencies.items()):
        out[kind] = bench_search.percentiles(values)
    return out


def start_server(port: int) -> subprocess.Popen:
    # Production static files (hashed names from the manifest), as `portalctl.py run` prepares them.
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    command = [sys.executable, "-m", "gunicorn", "portal.wsgi", "-b", f"127.0.0.1:{port}"]
    command += ["--workers", "2", "--threads", "4", "--log-level", "warning"]
    env = dict(os.environ, PORTAL_CACHE_PREFIX=f"load-{os.getpid()}-{time.time_ns()}")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    for _ in range(200):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/accounts/login/")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit("the web server did not start")


def viewer_token(collection, username: str) -> Token:
    user, _ = get_user_model().objects.get_or_create(username=username)
    Membership.objects.get_or_create(user=user, collection=collection, defaults={"role": "viewer"})
    return Token.objects.get_or_create(user=user)[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--size", type=int, default=20000)
    parser.add_argument("--mix", default="search=0.35,keyword=0.2,preview=0.25,ask=0.2")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    mix = {kind: float(share) for kind, share in (part.split("=") for part in args.mix.split(","))}
    embedder, problem = service.query_embedder()
    if embedder is None:
        sys.exit(problem)
    seed = bench_search.seed_collection(embedder)
    collection = bench_search.build(args.size, seed, embedder.model_id)
    tokens = [viewer_token(collection, f"load-{n}") for n in range(args.clients + 1)]
    _, queries, _ = load_beir(bench_search.SCIFACT)
    reference = keyword_reference(tokens[0].user, collection.slug, list(queries.values()))
    documents = list(Document.objects.filter(collection=collection).values_list("pk", flat=True))
    chunks = Chunk.objects.filter(document__collection=collection).count()
    port = bench_search.free_port()
    server = start_server(port)
    try:
        warm = Client(port, tokens[0].key, collection.slug, list(queries.values()), documents, seed=0)
        for kind in ("search", "search", "preview", "ask") * 2:  # both workers load the model before the clock runs
            warm.operation(kind)
        clients = [
            Client(port, tokens[n + 1].key, collection.slug, list(queries.values()), documents, seed=n + 1)
            for n in range(args.clients)
        ]
        result = run_clients(clients, args.seconds, mix, reference)
    finally:
        server.terminate()
        server.wait(timeout=30)
    output = {"collection": collection.slug, "chunks": chunks, "documents": len(documents), "mix": mix, **result}
    if args.json:
        args.json.write_text(json.dumps(output, indent=2))
    print(json.dumps(output, indent=2))


if __name__ == "__main__":
    main()
