"""How much evidence fits a language model's context: its real context size and token counts, from the server
when it says, so the prompt fills the context without overflowing it, whichever model and tokenizer serve.

- The context size: PORTAL_LLM_CONTEXT_TOKENS when set; else llama.cpp's `GET /props` (the slot's `n_ctx`, what
  the server really allots, not the model's training context); else `GET {base}/models`, whose entry for the
  model carries `max_model_len` on vLLM (`context_length` / `max_context_length` on some others). Unknown: the
  prompt keeps answers.prompt's default budgets, sized for the smallest context tested (2,048 tokens).
- Token counts: llama.cpp's `POST /apply-template` (the chat template applied) then `POST /tokenize`; vLLM's
  `POST /tokenize` with the messages. A server that offers neither gets answers.prompt.estimate_tokens (Latin
  characters at four to a token, wide characters CJK_COST times that; measured figures by the constants there).
- Fitting (fit_messages): the prompt without evidence is counted, then the default one; the tokens per character of
  evidence they imply set the evidence budget that fills what the context leaves after the answer's max_tokens,
  and the fitted prompt is counted again and the budget scaled until it fits and fills most of it (FIT_ATTEMPTS).
- A server that still refuses the prompt as too long (its error names its context, as llama.cpp and vLLM/OpenAI
  word it: overflow_context) teaches the context size; LLMComposer then fits again and retries once.

What a server reported is kept per endpoint and model for CACHE_SECONDS, so an answer costs one or two small
requests (the counts), not a probe of every endpoint. Standard library only, like answers.llm.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from apps.citations.answers.prompt import CHUNK_CHARS, EVIDENCE_CHARS, build_messages, estimate_tokens, evidence_limits
from apps.citations.answers.types import ComposeRequest

PROBE_TIMEOUT = 5.0  # seconds per probe or count request: a server that is slower to say than this has no say
CACHE_SECONDS = 600.0
# Tokens left free besides the answer's max_tokens: a count that misses the template's last tokens, and the
# per-message overhead the estimate guesses.
CONTEXT_MARGIN = 48
MESSAGE_OVERHEAD = 6  # tokens a chat template adds per message (role tags), for the estimate only
FIT_ATTEMPTS = 4
FIT_SAFETY = 0.95  # the budget aims at this share of what is left: evidence cut elsewhere costs a little more or less
FIT_FULL = 0.85  # a fitted prompt whose evidence fills this share of its room is kept; below, the budget grows
# The per-passage cap, as tokens: answers.prompt's CHUNK_CHARS Latin characters at four to a token.
CHUNK_TOKENS = CHUNK_CHARS / 4

# "request (6063 tokens) exceeds the available context size (2048 tokens)" (llama.cpp); "This model's maximum
# context length is 2048 tokens. However, you requested 4100 tokens (3700 in the messages, …)" (vLLM) or "…
# However, your messages resulted in 9000 tokens" (OpenAI).
_LLAMA_OVERFLOW = re.compile(r"request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)")
_OPENAI_OVERFLOW = re.compile(r"maximum context length is (\d+) tokens", re.I)
_OPENAI_PROMPT = re.compile(r"(\d+) in the messages|messages resulted in (\d+) tokens", re.I)


@dataclass(frozen=True)
class ServerFacts:
    context_tokens: int | None  # None: the server does not say
    counter: str  # "llama.cpp" | "vllm" | "": how this server counts tokens (""; it cannot: estimate)
    # The estimate's error on this server's tokenizer (its tokens / the estimate's), from a refusal that counted.
    estimate_scale: float = 1.0


@dataclass(frozen=True)
class Overflow:
    context_tokens: int
    prompt_tokens: int | None  # what the server counted the refused prompt as, when it said


_facts: dict[tuple[str, str], tuple[float, ServerFacts]] = {}
_lock = threading.Lock()


def overflow_context(message: str) -> Overflow | None:
    """The context size (and the refused prompt's tokens) an endpoint's "prompt too long" error names, or None
    when the error is something else."""
    if found := _LLAMA_OVERFLOW.search(message):
        return Overflow(int(found[2]), int(found[1]))
    if found := _OPENAI_OVERFLOW.search(message):
        prompt = _OPENAI_PROMPT.search(message)
        return Overflow(int(found[1]), int(prompt[1] or prompt[2]) if prompt else None)
    return None


def learn_context(base_url: str, model: str, overflow: Overflow, refused: list[dict]) -> None:
    """Remember what a refusal of the `refused` prompt revealed: the context size, and how far the estimate is off
    this server's tokenizer (when it counted the prompt), keeping how the server counts tokens."""
    key = (base_url, model)
    with _lock:
        known = _facts.get(key)
        facts = known[1] if known else ServerFacts(None, "")
        scale = facts.estimate_scale
        if overflow.prompt_tokens:
            scale = max(scale, overflow.prompt_tokens / max(1, estimate(refused)))
        _facts[key] = (time.monotonic(), ServerFacts(overflow.context_tokens, facts.counter, scale))


def forget(base_url: str = "", model: str = "") -> None:
    """Drop what was learnt (all of it without arguments): the next answer asks the server again."""
    with _lock:
        for key in [k for k in _facts if not base_url or k == (base_url, model)]:
            del _facts[key]


class ModelServer:
    """The probes and counts of one OpenAI-compatible endpoint (base_url ends where /chat/completions starts)."""

    def __init__(
        self, base_url: str, model: str, api_key: str = "", context_tokens: int = 0, timeout: float = PROBE_TIMEOUT
    ) -> None:
        self.timeout = min(timeout, PROBE_TIMEOUT)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.configured_context = context_tokens  # PORTAL_LLM_CONTEXT_TOKENS; 0: ask the server
        parts = urlsplit(self.base_url)
        # llama.cpp and vLLM serve /props and /tokenize beside /v1, not under it.
        self.root = self.base_url[: -len("/v1")] if parts.path.rstrip("/").endswith("/v1") else self.base_url

    def facts(self) -> ServerFacts:
        key = (self.base_url, self.model)
        with _lock:
            known = _facts.get(key)
        if known and time.monotonic() - known[0] < CACHE_SECONDS:
            facts = known[1]
        else:
            facts = self._probe()
            with _lock:
                _facts[key] = (time.monotonic(), facts)
        if self.configured_context:
            return ServerFacts(self.configured_context, facts.counter, facts.estimate_scale)
        return facts

    def _probe(self) -> ServerFacts:
        props = self._json("GET", f"{self.root}/props")
        if isinstance(props, dict):
            settings = props.get("default_generation_settings")
            n_ctx = settings.get("n_ctx") if isinstance(settings, dict) else props.get("n_ctx")
            if isinstance(n_ctx, int) and n_ctx > 0:
                return ServerFacts(n_ctx, "llama.cpp")
        models = self._json("GET", f"{self.base_url}/models")
        entries = models.get("data") if isinstance(models, dict) else None
        if isinstance(entries, list):
            mine = [e for e in entries if isinstance(e, dict) and e.get("id") == self.model] or [
                e for e in entries if isinstance(e, dict)
            ]
            for entry in mine[:1]:
                if isinstance(size := entry.get("max_model_len"), int) and size > 0:
                    return ServerFacts(size, "vllm")
                for name in ("context_length", "max_context_length", "context_window"):
                    if isinstance(size := entry.get(name), int) and size > 0:
                        return ServerFacts(size, "")
        return ServerFacts(None, "")

    def count(self, messages: list[dict]) -> int:
        """The prompt's tokens as the server's own tokenizer and chat template count them; when it cannot, the
        estimate (corrected by what a refusal taught about this server)."""
        facts = self.facts()
        counter = facts.counter
        if counter == "llama.cpp":
            templated = self._json("POST", f"{self.root}/apply-template", {"messages": messages})
            prompt = templated.get("prompt") if isinstance(templated, dict) else None
            if isinstance(prompt, str):
                tokens = self._json("POST", f"{self.root}/tokenize", {"content": prompt, "add_special": True})
                if isinstance(tokens, dict) and isinstance(tokens.get("tokens"), list):
                    return len(tokens["tokens"])
        elif counter == "vllm":
            counted = self._json("POST", f"{self.root}/tokenize", {"model": self.model, "messages": messages})
            if isinstance(counted, dict) and isinstance(counted.get("count"), int):
                return counted["count"]
        return round(estimate(messages) * facts.estimate_scale)

    def _json(self, method: str, url: str, body: dict | None = None) -> Any:
        """The JSON an endpoint answers with 200, or None for anything else (a probe never fails an answer)."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return None
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        try:
            connection = kind(parts.hostname, parts.port, timeout=self.timeout)
            try:
                connection.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), payload, headers)
                response = connection.getresponse()
                if response.status != 200 or "json" not in (response.getheader("Content-Type") or ""):
                    return None
                return json.loads(response.read(4 * 1024 * 1024))
            finally:
                connection.close()
        except (OSError, ValueError, http.client.HTTPException):
            return None


def estimate(messages: list[dict]) -> int:
    """answers.prompt's estimate of a prompt's tokens, with the template's per-message overhead."""
    return int(sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD for m in messages))


def fit_messages(
    request: ComposeRequest,
    context_tokens: int | None,
    max_tokens: int,
    count: Callable[[list[dict]], int] | None = None,
    evidence_chars: int = EVIDENCE_CHARS,
) -> list[dict]:
    """The prompt for `request`, its evidence budget fitted to `context_tokens` less the answer's `max_tokens`.

    `count` is the server's token count (ModelServer.count; None: the estimate). Without a context size the
    prompt keeps the default budgets (`evidence_chars`, answers.prompt's estimate in Latin characters).
    """
    default = build_messages(request, evidence_chars=evidence_chars)
    if not context_tokens or not request.evidence:
        return default

    def tokens(messages: list[dict]) -> int:
        return count(messages) if count is not None else estimate(messages)

    limit = context_tokens - max_tokens - CONTEXT_MARGIN
    bare = tokens(build_messages(request, evidence_chars=0))
    room = limit - bare  # what the evidence blocks may cost
    if room <= 0:
        return build_messages(request, evidence_chars=0)
    used = sum(evidence_limits(request, evidence_chars))
    spent = tokens(default) - bare
    if used <= 0 or spent <= 0:
        return default
    per_char = spent / used  # this evidence's tokens per character (block headers included), on this tokenizer
    budget = int(room / per_char * FIT_SAFETY)
    chunk_chars = max(1, int(CHUNK_TOKENS / per_char))
    best: tuple[int, list[dict]] | None = None
    for _ in range(FIT_ATTEMPTS):
        messages = build_messages(request, evidence_chars=budget, chunk_chars=chunk_chars, scaled=False)
        total = tokens(messages)
        spent = total - bare
        if total <= limit:
            if best is None or total > best[0]:
                best = (total, messages)
            everything = sum(evidence_limits(request, budget, chunk_chars, scaled=False)) < budget
            if everything or spent >= FIT_FULL * room:
                break
        # Over, or well short (passages left out or cut shorter than measured): scale by what it really cost.
        budget = int(budget * room / max(1, spent) * FIT_SAFETY)
    return best[1] if best else messages
