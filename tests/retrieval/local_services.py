"""Local stand-ins for what rerank talks to, built inside the tests (nothing can be downloaded here): a tiny
cross-encoder folder, and an HTTP server answering POST /rerank as the test tells it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.loopback import serving


def build_tiny_cross_encoder(folder: Path, words: Iterable[str]) -> str:
    """A 2-layer BERT with a one-label head and its tokenizer, saved like any cross-encoder folder (~0.1 MB)."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(words))]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        num_labels=1,
        initializer_range=0.5,  # large random weights, so different texts get clearly different scores
    )
    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


Behaviour = Callable[[dict], tuple[int, bytes, float]]  # request JSON → (status, body, delay in seconds)


class RerankServer(ThreadingHTTPServer):
    daemon_threads = True  # a handler still sleeping must not hold up the test's end
    behaviour: Behaviour
    requests: list[tuple[dict, dict]]

    def handle_error(self, request, client_address):
        pass  # the client gave up on a slow answer (a timeout test): nothing to report


class RerankHandler(BaseHTTPRequestHandler):
    server: RerankServer

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((body, dict(self.headers)))
        status, payload, delay = self.server.behaviour(body)
        time.sleep(delay)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format, *args):
        pass


@contextmanager
def rerank_server(behaviour: Behaviour | None = None) -> Iterator[RerankServer]:
    """A RerankServer on a free loopback port, in a thread, for the duration of the block."""
    httpd = RerankServer(("127.0.0.1", 0), RerankHandler)
    httpd.requests = []
    if behaviour is not None:
        httpd.behaviour = behaviour
    with serving(httpd):
        yield httpd
