"""An answer composer that asks an OpenAI-compatible chat-completions endpoint (Ollama, vLLM, llama.cpp's server,
a hosted API) and streams its text.

POST {base_url}/chat/completions with stream=true; the reply is read as server-sent events (`data:` lines,
`choices[0].delta.content`, `[DONE]`), and a plain JSON completion is accepted too, for servers that ignore
`stream`. Every failure — no connection, a timeout, an HTTP error, a reply that is not what the API promises —
becomes ComposerUnavailable with a sentence a person can act on, so the service can fall back.

Standard library only (http.client): one request at a time per answer needs no client library, and the socket is
ours to re-arm, so `timeout` bounds the whole answer, not just each read.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

from apps.citations.answers.llm_context import ModelServer, Overflow, fit_messages, learn_context, overflow_context
from apps.citations.answers.prompt import EVIDENCE_CHARS
from apps.citations.answers.types import ComposeRequest, ComposerUnavailable

MAX_JSON_BYTES = 4 * 1024 * 1024  # a whole non-streamed answer is a few KB; far more is not an answer
ERROR_EXCERPT = 200  # characters of an error body shown to the person


def llm_configured() -> bool:
    """Whether settings name an endpoint and a model (both are needed: the name says which model wrote)."""
    from django.conf import settings

    return bool(getattr(settings, "PORTAL_LLM_BASE_URL", "") and getattr(settings, "PORTAL_LLM_MODEL", ""))


def _excerpt(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    text = " ".join(text.split())
    return text if len(text) <= ERROR_EXCERPT else text[: ERROR_EXCERPT - 1] + "…"


def _error_text(raw: bytes) -> str:
    """The reason inside an error body: OpenAI's {"error": {"message"}}, a bare {"error": "..."}, or the text."""
    try:
        data = json.loads(raw)
    except ValueError:
        return _excerpt(raw)
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        error = error.get("message") or error.get("detail") or error
    return _excerpt(error if isinstance(error, str) else json.dumps(error, ensure_ascii=False))


def sse_data(lines: Iterable[bytes]) -> Iterator[str]:
    """The `data` of each server-sent event (multi-line data joined by newlines); comments and other fields skipped."""
    data: list[str] = []
    for raw in lines:
        try:
            line = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            raise ComposerUnavailable("the language model sent a reply that is not UTF-8 text") from exc
        if not line:  # a blank line ends an event
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):  # a comment: keep-alive pings
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:  # the last event without its blank line
        yield "\n".join(data)


def _decode(payload: str | bytes) -> Any:
    try:
        return json.loads(payload)
    except ValueError as exc:  # also UnicodeDecodeError
        reason = f"the language model sent a reply that is not valid JSON: {_excerpt(payload)}"
        raise ComposerUnavailable(reason) from exc


def _check_error(data: Any) -> None:
    if isinstance(data, dict) and data.get("error"):
        raise ComposerUnavailable(f"the language model reported an error: {_error_text(json.dumps(data).encode())}")
    if not isinstance(data, dict):
        raise ComposerUnavailable(f"the language model sent {type(data).__name__} where an object was expected")


def content_deltas(payloads: Iterable[str]) -> Iterator[str]:
    """Text deltas from the data of chat.completion.chunk events, until `[DONE]`."""
    saw_choices = finished = False
    for payload in payloads:
        if payload.strip() == "[DONE]":
            finished = True
            break
        chunk = _decode(payload)
        _check_error(chunk)  # vLLM and hosted APIs report a failure mid-stream as an event with "error"
        choices = chunk.get("choices")
        if not choices:  # a usage-only chunk at the end, or a keep-alive: nothing to write
            continue
        choice = choices[0] if isinstance(choices, list) else None
        if not isinstance(choice, dict):
            raise ComposerUnavailable(f"the language model sent a malformed chunk: {_excerpt(payload)}")
        saw_choices = True
        delta = choice.get("delta") or {}
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str) and content:  # role-only and empty chunks carry no text
            yield content
        if choice.get("finish_reason"):
            finished = True  # keep reading: a usage chunk and [DONE] may follow
    if not saw_choices:
        raise ComposerUnavailable("the language model's reply had no choices")
    if not finished:
        raise ComposerUnavailable("the language model's reply stopped before it was complete")


def completion_text(data: Any) -> str:
    """The answer text of a non-streamed chat.completion (or a legacy completion's `text`)."""
    _check_error(data)
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ComposerUnavailable("the language model's reply had no choices")
    choice = choices[0]
    message = choice.get("message")
    content = message.get("content") if isinstance(message, dict) else choice.get("text")
    return content if isinstance(content, str) else ""


class ContextOverflow(ComposerUnavailable):
    """The endpoint refused the prompt as longer than its context, and its error said how large that is."""

    def __init__(self, message: str, overflow: Overflow) -> None:
        super().__init__(message)
        self.overflow = overflow


class LLMComposer:
    """Writes answers with a chat model behind an OpenAI-compatible endpoint; see the module docstring."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout: float = 60,
        max_tokens: int = 400,
        temperature: float = 0.1,
        evidence_chars: int = EVIDENCE_CHARS,
        context_tokens: int = 0,
    ) -> None:
        """`context_tokens`: the model's context size when the server does not report it (0: ask the server;
        answers.llm_context); `evidence_chars`: the evidence budget while the context size is unknown."""
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"llm:{model}"
        self.api_key = api_key
        self.timeout = float(timeout)
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.evidence_chars = evidence_chars
        self.context_tokens = context_tokens

    @classmethod
    def from_settings(cls) -> LLMComposer:
        from django.conf import settings

        if not llm_configured():
            raise ComposerUnavailable("no language model is configured (set PORTAL_LLM_BASE_URL and PORTAL_LLM_MODEL)")
        return cls(
            settings.PORTAL_LLM_BASE_URL,
            settings.PORTAL_LLM_MODEL,
            api_key=getattr(settings, "PORTAL_LLM_API_KEY", "") or "",
            timeout=getattr(settings, "PORTAL_LLM_TIMEOUT", 60),
            max_tokens=getattr(settings, "PORTAL_LLM_MAX_TOKENS", 400),
            context_tokens=getattr(settings, "PORTAL_LLM_CONTEXT_TOKENS", 0) or 0,
        )

    def stream(self, request: ComposeRequest) -> Iterator[str]:
        # A generator like chat(): the prompt is built, and the request sent, only when the caller starts reading.
        server = ModelServer(self.base_url, self.model, self.api_key, self.context_tokens, self.timeout)
        facts = server.facts()
        messages = fit_messages(request, facts.context_tokens, self.max_tokens, server.count, self.evidence_chars)
        try:
            yield from self.chat(messages)
        except ContextOverflow as exc:
            # Raised before any text (it is the reply's status): the error named the real context; fit to it, once.
            learn_context(self.base_url, self.model, exc.overflow, messages)
            context = server.facts().context_tokens
            yield from self.chat(fit_messages(request, context, self.max_tokens, server.count, self.evidence_chars))

    # -- the HTTP exchange ------------------------------------------------------------------------------------------
    def _where(self) -> str:
        """The endpoint as shown in messages: scheme, host, port and path, never credentials from the URL."""
        parts = urlsplit(self.base_url)
        return f"{parts.scheme}://{parts.hostname}{f':{parts.port}' if parts.port else ''}{parts.path}"

    def _connection(self) -> tuple[http.client.HTTPConnection, str]:
        parts = urlsplit(self.base_url)
        try:
            port = parts.port
        except ValueError:
            raise ComposerUnavailable(f"PORTAL_LLM_BASE_URL has a bad port: {self.base_url}") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ComposerUnavailable(f"PORTAL_LLM_BASE_URL is not an http(s) URL: {self.base_url!r}")
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        return kind(parts.hostname, port, timeout=self.timeout), parts.path.rstrip("/") + "/chat/completions"

    def chat(self, messages: list[dict]) -> Iterator[str]:
        """Send `messages` and yield the answer's text as it arrives (a generator: nothing is sent until iterated)."""
        connection, path = self._connection()
        deadline = time.monotonic() + self.timeout
        body = json.dumps(
            {
                "model": self.model,
                "messages": messages,
                "stream": True,
                "max_tokens": self.max_tokens,
                "temperature": self.temperature,
            }
        ).encode()
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream, application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        try:
            with self._failures():
                connection.connect()
                sock = connection.sock  # kept: http.client drops it from the connection once the reply will close
                connection.request("POST", path, body=body, headers=headers)
                sock.settimeout(max(deadline - time.monotonic(), 0.001))
                response = connection.getresponse()
            if response.status != 200:
                with self._failures():
                    raw = response.read(2000)
                message = self._status_message(response.status, response.reason, raw)
                if response.status in (400, 413) and (overflow := overflow_context(_error_text(raw))):
                    raise ContextOverflow(message, overflow)
                raise ComposerUnavailable(message)
            if "event-stream" in (response.getheader("Content-Type") or ""):
                yield from content_deltas(sse_data(self._lines(response, sock, deadline)))
                return
            raw = self._body(response, sock, deadline)
            if raw.lstrip().startswith(b"data:"):  # events under another content type
                yield from content_deltas(sse_data(raw.splitlines(keepends=True)))
                return
            text = completion_text(_decode(raw))
            if text:
                yield text
        finally:
            connection.close()

    def _status_message(self, status: int, reason: str, raw: bytes) -> str:
        hint = ""
        if status in (401, 403):
            hint = " (check PORTAL_LLM_API_KEY)"
        elif status == 404:
            hint = " (check PORTAL_LLM_BASE_URL: it is the part before /chat/completions, often ending in /v1)"
        detail = _error_text(raw) if raw.strip() else ""
        return f"the language model at {self._where()} answered HTTP {status} {reason}{hint}" + (
            f": {detail}" if detail else ""
        )

    def _lines(self, response: http.client.HTTPResponse, sock: Any, deadline: float) -> Iterator[bytes]:
        """The reply's lines, each read with what is left of the deadline as the socket's timeout."""
        while not response.isclosed():  # closed once the body's end was read: its socket is gone then
            with self._failures():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                sock.settimeout(remaining)
                line = response.readline(1024 * 1024)
            if not line:
                return
            yield line

    def _body(self, response: http.client.HTTPResponse, sock: Any, deadline: float) -> bytes:
        pieces: list[bytes] = []
        size = 0
        for line in self._lines(response, sock, deadline):
            pieces.append(line)
            size += len(line)
            if size > MAX_JSON_BYTES:
                raise ComposerUnavailable(f"the language model's reply is larger than {MAX_JSON_BYTES} bytes")
        return b"".join(pieces)

    def _failures(self) -> _Failures:
        return _Failures(self._where(), self.timeout)


class _Failures:
    """Turns what the socket and http.client raise into ComposerUnavailable with a readable reason."""

    def __init__(self, where: str, timeout: float) -> None:
        self.where = where
        self.timeout = timeout

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, _tb: object) -> bool:
        if exc is None or isinstance(exc, ComposerUnavailable | GeneratorExit):
            return False
        if isinstance(exc, TimeoutError):
            reason = f"the language model at {self.where} did not finish within {self.timeout:g} s"
        elif isinstance(exc, ConnectionRefusedError):
            reason = f"cannot reach the language model at {self.where}: connection refused"
        elif isinstance(exc, http.client.HTTPException):
            reason = f"the connection to the language model at {self.where} broke: {type(exc).__name__}"
        elif isinstance(exc, OSError):
            reason = f"cannot reach the language model at {self.where}: {exc.strerror or exc}"
        else:
            return False
        raise ComposerUnavailable(reason) from exc
