"""The LLM composer's prompt fits the model's real context (answers.llm_context): a fake llama.cpp server with a
tokenizer far costlier than the built-in estimate reports its n_ctx and counts tokens, and refuses any prompt
that does not fit, as llama.cpp does; a server that only names its context in that refusal; a large context that
gets more evidence; a server that says nothing, which keeps today's budget. Then the real SmolLM2 with Chinese
evidence. No database."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from local_llm import LocalLLM, local_llm  # noqa: F401
from test_llm_composer import Reply as ChatReply
from test_llm_composer import chunk, event, fake_llm, make_hit, url

from apps.citations.answers import llm_context
from apps.citations.answers.llm import LLMComposer
from apps.citations.answers.llm_context import ModelServer, Overflow, fit_messages, overflow_context
from apps.citations.answers.prompt import build_messages, estimate_tokens
from apps.citations.answers.types import ComposeRequest, ComposerUnavailable, Evidence
from tests.loopback import serving

# Ten Chinese passages of 600 characters: what a CMRC question's deep evidence looks like.
ZH_PASSAGE = "印控克什米尔地区发生交通事故，一辆大巴坠入山谷，造成十人死亡，另有二十多人受伤，伤者已送往医院。" * 13
EN_PASSAGE = "A bus fell into a valley in the region, and ten people died in the accident; twenty were hurt. " * 12


def request_of(text: str, question: str, language: str, passages: int = 10) -> ComposeRequest:
    evidence = [Evidence(n, make_hit(n, f"{n}. {text}")) for n in range(1, passages + 1)]
    return ComposeRequest(question, evidence, language)


def heavy_tokens(text: str) -> int:
    """A tokenizer costlier than the estimate: two tokens a Han character (the estimate says 1.25), three Latin
    characters a token (the estimate says four)."""
    wide = len(re.findall(r"[\u3000-\u9fff\uff00-\uffef]", text))
    return 2 * wide + -(-(len(text) - wide) // 3)


def template(messages: list[dict]) -> str:
    return "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages) + "<|im_start|>assistant\n"


class FakeLlamaCpp(ThreadingHTTPServer):
    """llama.cpp's server as far as the composer sees it: /props, /apply-template, /tokenize, and a chat endpoint
    that refuses a prompt of n_ctx tokens or more with llama.cpp's own error."""

    daemon_threads = True

    def __init__(self, n_ctx: int, report_context: bool = True) -> None:
        super().__init__(("127.0.0.1", 0), LlamaHandler)
        self.n_ctx = n_ctx
        self.report_context = report_context  # False: no /props, /tokenize (a server that says nothing up front)
        self.prompts: list[int] = []  # the token count of every chat prompt received
        self.refused = 0
        self.lock = threading.Lock()


class LlamaHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: FakeLlamaCpp

    def _send(self, status: int, body: dict | bytes, content_type: str = "application/json") -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/props" and self.server.report_context:
            return self._send(200, {"default_generation_settings": {"n_ctx": self.server.n_ctx}, "total_slots": 1})
        return self._send(404, {"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/apply-template" and self.server.report_context:
            return self._send(200, {"prompt": template(body["messages"])})
        if self.path == "/tokenize" and self.server.report_context:
            return self._send(200, {"tokens": list(range(heavy_tokens(body["content"])))})
        if self.path != "/v1/chat/completions":
            return self._send(404, {"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}})
        tokens = heavy_tokens(template(body["messages"]))
        with self.server.lock:
            self.server.prompts.append(tokens)
        if tokens >= self.server.n_ctx:
            with self.server.lock:
                self.server.refused += 1
            message = (
                f"request ({tokens} tokens) exceeds the available context size ({self.server.n_ctx} tokens), "
                "try increasing it"
            )
            return self._send(400, {"error": {"code": 400, "message": message, "type": "exceed_context_size_error"}})
        reply = b"".join([chunk(role="assistant"), chunk("十人死亡。"), chunk(finish="stop"), event("[DONE]")])
        return self._send(200, reply, "text/event-stream")

    def log_message(self, format, *args):
        pass


@contextmanager
def fake_llama(n_ctx: int, report_context: bool = True) -> Iterator[FakeLlamaCpp]:
    llm_context.forget()  # what an earlier test's server said is not this one's
    with serving(FakeLlamaCpp(n_ctx, report_context)) as httpd:
        yield httpd
    llm_context.forget()


def evidence_chars(messages: list[dict]) -> int:
    blocks = re.findall(r"cite as \[\d+\]\n(.*?)\n\[kb \d+ end\]", messages[-1]["content"], re.S)
    return sum(len(b) for b in blocks)


# ---- a llama.cpp server that reports its context and counts tokens ---------------------------------------------
@pytest.mark.parametrize(
    "text, question, language",
    [(ZH_PASSAGE, "事故造成多少人死亡？", "zh"), (EN_PASSAGE, "How many people died?", "en")],
    ids=["zh", "en"],
)
def test_the_prompt_fits_the_context_the_server_reports_by_its_own_token_count(text, question, language):
    request = request_of(text, question, language)
    # The built-in estimate's prompt is too long for this tokenizer: without measuring, the server refuses it.
    assert heavy_tokens(template(build_messages(request))) >= 2048
    with fake_llama(n_ctx=2048) as httpd:
        composer = LLMComposer(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m", timeout=10, max_tokens=400)
        assert "".join(composer.stream(request)) == "十人死亡。"
    assert httpd.refused == 0
    [tokens] = httpd.prompts
    # The answer's tokens still fit after the prompt, and the prompt uses most of what is left (not a token-shy
    # fixed budget): at least 75% of the context the answer leaves (a Chinese passage here costs a fifth of it,
    # and passages come whole or not at all below answers.prompt.MIN_PASSAGE_CHARS).
    assert tokens + 400 <= 2048
    assert tokens >= 0.75 * (2048 - 400)


def test_a_large_context_gets_more_evidence_than_the_default_budget():
    request = request_of(EN_PASSAGE, "How many people died?", "en")
    with fake_llama(n_ctx=32768) as httpd:
        server = ModelServer(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m")
        facts = server.facts()
        assert (facts.context_tokens, facts.counter) == (32768, "llama.cpp")
        messages = fit_messages(request, facts.context_tokens, 400, server.count)
    assert evidence_chars(messages) > 1.5 * evidence_chars(build_messages(request))
    assert len(re.findall(r"\[kb \d+ begin\]", messages[-1]["content"])) == 10


# ---- a server that names its context only when it refuses --------------------------------------------------------
def test_a_refusal_that_names_the_context_teaches_it_and_the_composer_retries_once_fitted():
    request = request_of(ZH_PASSAGE, "事故造成多少人死亡？", "zh")
    with fake_llama(n_ctx=1024, report_context=False) as httpd:
        composer = LLMComposer(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m", timeout=10, max_tokens=200)
        assert "".join(composer.stream(request)) == "十人死亡。"
        assert httpd.refused == 1 and len(httpd.prompts) == 2  # refused once, then answered
        assert httpd.prompts[1] < 1024
        # Learnt: the next answer fits at once.
        assert "".join(composer.stream(request)) == "十人死亡。"
        assert httpd.refused == 1 and len(httpd.prompts) == 3


def test_overflow_errors_are_read_in_the_wordings_servers_use():
    llama = "request (6063 tokens) exceeds the available context size (2048 tokens), try increasing it"
    assert overflow_context(llama) == Overflow(2048, 6063)
    vllm = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4600 in the"
    assert overflow_context(vllm + " messages, 400 in the completion).") == Overflow(4096, 4600)
    openai = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."
    assert overflow_context(openai) == Overflow(8192, 9000)
    assert overflow_context("model 'x' not found") is None


def test_a_context_too_small_for_any_evidence_is_still_composer_unavailable_not_a_loop():
    request = request_of(ZH_PASSAGE, "事故造成多少人死亡？", "zh")
    with fake_llama(n_ctx=64, report_context=False) as httpd:
        composer = LLMComposer(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m", timeout=10, max_tokens=16)
        with pytest.raises(ComposerUnavailable, match="exceeds the available context size"):
            "".join(composer.stream(request))
    assert httpd.refused == 2  # the first prompt and the one retry, no more


# ---- a server that says nothing ----------------------------------------------------------------------------------
def test_a_server_that_reports_nothing_gets_the_default_prompt():
    request = request_of(EN_PASSAGE, "How many people died?", "en")
    reply = ChatReply([chunk(role="assistant"), chunk("Ten."), chunk(finish="stop"), event("[DONE]")])
    llm_context.forget()
    with fake_llm(reply) as httpd:
        assert "".join(LLMComposer(url(httpd), "m", timeout=10).stream(request)) == "Ten."
    [(_path, _headers, body)] = httpd.requests  # nothing but the chat request was posted
    assert body["messages"] == build_messages(request)


def test_the_estimate_counts_wide_characters_dearer():
    assert estimate_tokens("abcd" * 100) == pytest.approx(100)
    assert estimate_tokens("事故" * 100) > 2 * estimate_tokens("ab" * 100)


# ---- the real local model ----------------------------------------------------------------------------------------
def test_real_model_reads_ten_chinese_passages_within_its_context(local_llm: LocalLLM):  # noqa: F811
    llm_context.forget()
    request = request_of(ZH_PASSAGE, "事故造成多少人死亡？", "zh")
    server = ModelServer(local_llm.base_url, local_llm.model)
    facts = server.facts()
    assert facts.context_tokens == 2048 and facts.counter == "llama.cpp"
    # Reading ~1,600 tokens takes SmolLM2 a few seconds on 2 free cores, minutes on busy ones: the timeout is generous.
    composer = LLMComposer(local_llm.base_url, local_llm.model, timeout=600, max_tokens=8)
    text = "".join(composer.stream(request))  # an overflow would be ComposerUnavailable (HTTP 400)
    assert text.strip()
    messages = fit_messages(request, facts.context_tokens, 8, server.count)
    counted = server.count(messages)
    assert counted + 8 <= 2048 and counted >= 0.75 * (2048 - 8)
