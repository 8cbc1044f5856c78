"""Request input that PostgreSQL cannot store, refused where it enters: REST_FRAMEWORK's parsers, and the helper
portal.middleware uses for query strings, headers and page forms.

PostgreSQL text refuses NUL (U+0000): a question or filter carrying one reached the database and ended in a
DataError, a 500. JSON can also spell an unpaired surrogate ("\\ud800"), which is no text at all and which the
database driver cannot encode. Both are refused with a 400 that names the field, before any view sees them.

JSON nested deeper than any request of this API needs is refused too: Python's parser answers 100,000 levels
with a RecursionError, and how deep it gets before that depends on the stack, so the bound is explicit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from rest_framework import exceptions, parsers
from rest_framework.exceptions import ParseError

# Deeper than any body this API reads (its deepest is an object of lists of scalars) by a wide margin.
MAX_JSON_DEPTH = 32
_UNSTORABLE_RE = re.compile("[\x00\ud800-\udfff]")


def unstorable_reason(text: str) -> str | None:
    """Why `text` cannot be stored as text, or None when it can."""
    match = _UNSTORABLE_RE.search(text)
    if match is None:
        return None
    if match.group() == "\x00":
        return "contains a NUL character (U+0000), which cannot be stored; remove it and try again."
    return f"contains an unpaired surrogate (U+{ord(match.group()):04X}), which is not text; remove it and try again."


def unstorable_fields(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """{name: [reason]} for every (name, value) pair whose name or value cannot be stored."""
    problems: dict[str, list[str]] = {}
    for name, value in pairs:
        reason = unstorable_reason(name) or unstorable_reason(value)
        if reason:
            # A name is echoed back to the client: shown with what cannot be stored replaced.
            problems.setdefault(_UNSTORABLE_RE.sub("\ufffd", name) or "detail", [reason])
    return problems


def _json_strings(data: Any) -> Iterator[tuple[str, str]]:
    """(dotted path, string) for every key and string value; iterative, and refuses nesting past MAX_JSON_DEPTH."""
    stack: list[tuple[str, Any, int]] = [("", data, 0)]
    while stack:
        path, value, depth = stack.pop()
        if isinstance(value, str):
            yield path or "detail", value
        elif isinstance(value, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels.")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                child = f"{path}.{key}" if path else str(key)
                if isinstance(key, str):
                    yield child, key
                stack.append((child, item, depth + 1))


def refuse_unstorable(pairs: Iterable[tuple[str, str]]) -> None:
    """Raise the API's 400 (a ValidationError naming each field) when any pair cannot be stored."""
    problems = unstorable_fields(pairs)
    if problems:
        raise exceptions.ValidationError(problems)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a depth bound and storable text only."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels.") from None
        refuse_unstorable(_json_strings(data))
        return data


def _query_pairs(data: Any) -> Iterator[tuple[str, str]]:
    for name, values in data.lists():
        for value in values or [""]:
            yield name, value


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        refuse_unstorable(_query_pairs(data))
        return data


class MultiPartParser(parsers.MultiPartParser):
    """Form fields only: uploaded file names are cleaned, not refused (apps/documents/services/filenames.py)."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        result = super().parse(stream, media_type, parser_context)
        refuse_unstorable(_query_pairs(result.data))
        return result
