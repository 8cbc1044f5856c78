"""LLMComposer against a tiny OpenAI-compatible server written here (delta parsing, each way of failing), and
against the real SmolLM2-135M-Instruct served by llama.cpp (local_llm.py). Model output is checked for structure
only, never wording. No database."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import hit_factory
import pytest
from local_llm import LocalLLM, local_llm  # noqa: F401

from apps.citations.answers.llm import LLMComposer, llm_configured
from apps.citations.answers.markers import clean_markers
from apps.citations.answers.prompt import build_messages
from apps.citations.answers.types import ComposeRequest, ComposerUnavailable, Evidence
from apps.retrieval.search.types import SearchHit
from tests.loopback import serving


def make_hit(number: int, text: str) -> SearchHit:
    """hit_factory's hit, with a document and a page of its own per evidence number."""
    return hit_factory.make_hit(chunk_id=100 + number, document_id=10 + number, page=number, page_end=None, text=text)


FACTS = [
    "In 40 adults, eight hours of sleep after learning raised next-day recall of a word list by 30%.",
    "A 200 mg dose of caffeine before a test did not change recall of word lists; reaction times were faster.",
    "Aerobic exercise three times a week for a year increased hippocampal volume by 2% in older adults.",
]


def make_request(question: str = "Does sleep improve memory?", language: str = "en") -> ComposeRequest:
    return ComposeRequest(question, [Evidence(i + 1, make_hit(i + 1, t)) for i, t in enumerate(FACTS)], language)


# ---- the fake endpoint -----------------------------------------------------------------------------------------
# How long a paused fake model waits to be let go (a threading.Event among its pieces) before it writes on anyway:
# only a test whose client never received what came before the pause waits this long, and it then fails.
RELEASE_TIMEOUT = 30.0


@dataclass
class Reply:
    # Written and flushed in order; a float sleeps; a threading.Event pauses the model until the test sets it.
    pieces: list[bytes | float | threading.Event] = field(default_factory=list)
    status: int = 200
    content_type: str = "text/event-stream"
    chunked: bool = True  # as llama.cpp and vLLM send it; False: the body ends when the connection closes
    wait: float = 0.0  # before the status line
    stalled: int = 0  # pauses that timed out: nobody let the model go on


class FakeLLM(ThreadingHTTPServer):
    daemon_threads = True  # a handler still sleeping must not hold up the test's end
    reply: Reply
    requests: list[tuple[str, dict, dict]]

    def handle_error(self, request, client_address):
        pass  # the client gave up (a timeout test): nothing to report


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: FakeLLM

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, dict(self.headers), body))
        reply = self.server.reply
        time.sleep(reply.wait)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Connection", "close")
        if reply.chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for piece in reply.pieces:
            if isinstance(piece, float):
                time.sleep(piece)
                continue
            if isinstance(piece, threading.Event):
                if not piece.wait(RELEASE_TIMEOUT):
                    reply.stalled += 1
                continue
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if reply.chunked else piece)
            self.wfile.flush()
        if reply.chunked:
            self.wfile.write(b"0\r\n\r\n")

    def log_message(self, format, *args):
        pass


@contextmanager
def fake_llm(reply: Reply) -> Iterator[FakeLLM]:
    """The fake endpoint, on a free loopback port in a thread, sending `reply` to every request."""
    httpd = FakeLLM(("127.0.0.1", 0), Handler)
    httpd.reply = reply
    httpd.requests = []
    with serving(httpd):
        yield httpd


def url(httpd: FakeLLM) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}/v1"


def event(data: dict | str) -> bytes:
    return b"data: " + (data if isinstance(data, str) else json.dumps(data)).encode() + b"\n\n"


def chunk(content: str | None = None, *, role: str | None = None, finish: str | None = None) -> bytes:
    delta = {"role": role} if role else {}
    delta["content"] = content
    return event(
        {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    )


def collect(composer: LLMComposer, request: ComposeRequest | None = None) -> list[str]:
    return list(composer.stream(request or make_request()))


# ---- parsing -----------------------------------------------------------------------------------------------------
STREAM = [
    chunk(role="assistant"),  # role only, content null
    b": keep-alive\n\n",
    chunk("Sleep"),
    chunk(""),
    b"event: message\r\n" + chunk(" helps").replace(b"\n", b"\r\n"),  # CRLF lines and an extra field
    chunk(" recall [1].")[:20],  # one event split across two writes
    0.05,
    chunk(" recall [1].")[20:],
    chunk("睡眠 改善"),
    chunk(finish="stop"),
    event({"object": "chat.completion.chunk", "choices": [], "usage": {"completion_tokens": 5}}),
    event("[DONE]"),
]


@pytest.mark.parametrize("chunked", [True, False])
def test_streamed_deltas_arrive_in_order(chunked):
    with fake_llm(Reply(STREAM, chunked=chunked)) as httpd:
        assert collect(LLMComposer(url(httpd), "m")) == ["Sleep", " helps", " recall [1].", "睡眠 改善"]


def test_the_request_is_a_streamed_chat_completion():
    request = make_request()
    with fake_llm(Reply([chunk("ok", finish="stop"), event("[DONE]")])) as httpd:
        collect(LLMComposer(url(httpd) + "/", "tiny", api_key="sk-test", max_tokens=99, temperature=0.3), request)
        collect(LLMComposer(url(httpd), "tiny"), request)
    (path, headers, body), (_, plain_headers, _) = httpd.requests
    assert path == "/v1/chat/completions"
    assert headers["Authorization"] == "Bearer sk-test" and "Authorization" not in plain_headers
    expected = {"model": "tiny", "messages": build_messages(request), "stream": True, "max_tokens": 99}
    assert body == expected | {"temperature": 0.3}


def test_a_plain_json_completion_is_accepted():
    answer = {"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": "Yes [1]."}}]}
    with fake_llm(Reply([json.dumps(answer).encode()], content_type="application/json")) as httpd:
        assert collect(LLMComposer(url(httpd), "m")) == ["Yes [1]."]


def test_events_under_another_content_type_are_still_read():
    with fake_llm(Reply([chunk("a"), chunk("b", finish="stop"), event("[DONE]")], content_type="text/plain")) as httpd:
        assert collect(LLMComposer(url(httpd), "m")) == ["a", "b"]


def test_nothing_is_sent_until_the_stream_is_read():
    with fake_llm(Reply([chunk("a", finish="stop"), event("[DONE]")])) as httpd:
        stream = LLMComposer(url(httpd), "m").stream(make_request())
        assert httpd.requests == []
        assert next(stream) == "a"
        stream.close()  # a reader that stops early closes the connection; nothing is raised


# ---- failures ----------------------------------------------------------------------------------------------------
FAILURES = {
    "http 500 with an OpenAI error": (
        Reply([b'{"error": {"message": "model crashed", "type": "server_error"}}'], 500, "application/json"),
        ["HTTP 500", "model crashed"],
    ),
    "http 401": (Reply([b'{"error": "bad key"}'], 401, "application/json"), ["HTTP 401", "PORTAL_LLM_API_KEY"]),
    "http 404 with a long page": (Reply([b"<html>" + b"not here " * 500], 404, "text/html"), ["HTTP 404"]),
    "malformed JSON in an event": (Reply([chunk("a"), b"data: {not json\n\n"]), ["not valid JSON"]),
    "malformed JSON body": (Reply([b"<html>oops</html>"], content_type="application/json"), ["not valid JSON"]),
    "a JSON list": (Reply([b"[1, 2]"], content_type="application/json"), ["list"]),
    "no choices in the stream": (Reply([event({"object": "chat.completion.chunk"}), event("[DONE]")]), ["choices"]),
    "no choices in a JSON reply": (Reply([b'{"choices": []}'], content_type="application/json"), ["choices"]),
    "an error event mid-stream": (Reply([chunk("a"), event({"error": {"message": "out of memory"}})]), ["memory"]),
    "cut off before [DONE]": (Reply([chunk("a"), chunk("b")]), ["stopped"]),
    "not UTF-8": (Reply([b"data: \xff\xfe\n\n"]), ["UTF-8"]),
}


@pytest.mark.parametrize("case", list(FAILURES))
def test_each_failure_is_composer_unavailable_with_a_reason(case):
    reply, expected = FAILURES[case]
    with fake_llm(reply) as httpd, pytest.raises(ComposerUnavailable) as caught:
        collect(LLMComposer(url(httpd).replace("://", "://user:secret@"), "m", timeout=5))
    message = str(caught.value)
    assert all(part in message for part in expected), message
    assert "secret" not in message and len(message) < 400


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize(
    ("base_url", "expected"),
    [
        (f"http://127.0.0.1:{free_port()}/v1", "connection refused"),
        ("ftp://127.0.0.1/v1", "not an http(s) URL"),
        ("http://127.0.0.1:99999/v1", "bad port"),
    ],
)
def test_an_unreachable_endpoint_is_composer_unavailable(base_url, expected):
    with pytest.raises(ComposerUnavailable, match=re.escape(expected)):
        collect(LLMComposer(base_url, "m", timeout=3))


@pytest.mark.parametrize(
    "reply",
    [
        Reply([chunk("never")], wait=3.0),  # nothing at all for too long
        Reply([chunk("a"), *[piece for _ in range(30) for piece in (0.15, chunk("b"))]]),  # each read is quick
    ],
    ids=["silent", "trickling"],
)
def test_the_timeout_bounds_the_whole_answer(reply):
    started = time.monotonic()
    with fake_llm(reply) as httpd, pytest.raises(ComposerUnavailable, match="did not finish within 1 s"):
        collect(LLMComposer(url(httpd), "m", timeout=1))
    assert time.monotonic() - started < 2.5


# ---- settings ----------------------------------------------------------------------------------------------------
def test_from_settings(settings):
    settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL = "", ""
    assert not llm_configured()
    with pytest.raises(ComposerUnavailable, match="PORTAL_LLM_BASE_URL"):
        LLMComposer.from_settings()
    settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL = "http://127.0.0.1:9/v1", "qwen"
    settings.PORTAL_LLM_API_KEY, settings.PORTAL_LLM_TIMEOUT = "k", 7
    composer = LLMComposer.from_settings()
    assert llm_configured()
    assert (composer.name, composer.api_key, composer.timeout) == ("llm:qwen", "k", 7.0)


# ---- the real local model ----------------------------------------------------------------------------------------
def test_real_model_streams_text_in_several_deltas(local_llm: LocalLLM):  # noqa: F811
    composer = LLMComposer(local_llm.base_url, local_llm.model, timeout=60, max_tokens=32)
    deltas = list(composer.chat([{"role": "user", "content": "Name three colours."}]))
    assert len(deltas) >= 3 and all(isinstance(d, str) and d for d in deltas)
    assert "".join(deltas).strip()


@pytest.mark.parametrize(
    ("question", "language"), [("Does sleep improve memory?", "en"), ("睡眠能改善记忆吗？", "zh")], ids=["en", "zh"]
)
def test_real_model_answers_through_the_composer_within_the_timeout(local_llm: LocalLLM, question, language):  # noqa: F811
    composer = LLMComposer(local_llm.base_url, local_llm.model, timeout=60, max_tokens=32)
    started = time.monotonic()
    text = "".join(composer.stream(make_request(question, language)))
    assert time.monotonic() - started < composer.timeout
    assert text.strip()
    # Whatever the model cites (SmolLM2 mostly cites nothing), only the given numbers survive cleaning.
    cleaned = clean_markers(text, {1, 2, 3})
    assert set(cleaned.order) <= {1, 2, 3}
    assert {int(n) for n in re.findall(r"\[(\d+)\]", cleaned.text)} <= set(range(1, len(cleaned.order) + 1))


def test_real_model_slower_than_the_timeout_is_composer_unavailable(local_llm: LocalLLM):  # noqa: F811
    # A new prompt of about a thousand tokens takes this CPU seconds to read: far more than the timeout.
    request = ComposeRequest(
        "Summarise.", [Evidence(i, make_hit(i, f"Fact {i}: " + " ".join(FACTS) * 4)) for i in (1, 2, 3)]
    )
    started = time.monotonic()
    with pytest.raises(ComposerUnavailable, match="did not finish"):
        collect(LLMComposer(local_llm.base_url, local_llm.model, timeout=0.3), request)
    assert time.monotonic() - started < 3
