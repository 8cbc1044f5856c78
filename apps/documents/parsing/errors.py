"""Errors whose message can be shown as-is to the person who uploaded the file.

`str(err)` is always a plain sentence; technical detail (library exception text) goes in `.detail`
for logs, never into the message.
"""

from __future__ import annotations


class ParseError(Exception):
    # What the bounded reading process used before this error (sandbox.Usage), when it ran in one.
    usage = None

    def __init__(self, message: str, *, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail

    def __str__(self) -> str:
        return self.message


class UnsupportedFormat(ParseError):
    """The file's type is not one we can read (by its name and its content)."""
