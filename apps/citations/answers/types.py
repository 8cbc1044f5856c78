"""What an answer composer is given and what it gives back.

A composer turns numbered evidence into answer text whose claims carry `[n]` markers. It may write the markers in any
form a generator likes (the service cleans them: markers.clean_markers) and it streams: `stream()` yields text
deltas as they are written, and extractive composers may also yield a Conflict for a passage that disagrees with
the answer. The service (answers/service.py) does everything else: retrieval, numbering, cleaning, the support
check, citations and storage, the same way for every composer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from apps.retrieval.search.types import SearchHit


@dataclass
class Evidence:
    number: int  # the [n] the composer is told to write, 1..k in retrieval order
    hit: SearchHit


@dataclass
class ComposeRequest:
    question: str
    evidence: list[Evidence]
    language: str = "en"  # "en" or "zh": the question's language (answers.language.detect)
    strict: bool = True  # only evidence-backed text; otherwise unsupported text is allowed but labelled
    # Earlier turns of the conversation, oldest first, as (question, answer) with markers stripped.
    history: list[tuple[str, str]] = field(default_factory=list)
    document_title: str = ""  # reading mode: the one document asked about


@dataclass
class Conflict:
    """A passage that disagrees with what the answer says, with its evidence marker(s), e.g. "… no effect [3]"."""

    text: str


class ComposerUnavailable(RuntimeError):
    """The composer cannot write now (endpoint down, timeout, bad reply); the message is for a person to read."""


class Composer(Protocol):
    name: str  # "extractive", "llm:<model>"

    def stream(self, request: ComposeRequest) -> Iterator[str | Conflict]: ...
