"""File names from uploads: the one people see, and the one the file is stored under.

An uploaded name is whatever the client sent. People see it on pages, in answers and in the API, so it loses what
could deceive or break them: path components ("../../etc/passwd.txt", "a\\b.txt"), control characters and NUL
(PostgreSQL refuses NUL in text), and the bidirectional controls that make "report‮txt.exe" read as
"reportexe.txt". The stored file gets a plain ASCII name of bounded length, since file systems limit a name to
255 bytes and a 200-character Unicode name can be three times that.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePosixPath

from django.utils.text import slugify

MAX_NAME_CHARS = 200
_MAX_SUFFIX_CHARS = 16
_MAX_STORED_STEM = 80
# C0 and C1 controls, DEL, the bidirectional marks, embeddings, overrides and isolates, and the BOM.
_UNSAFE_CHARS_RE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def clean_name(raw: str) -> str:
    """The name to show and keep on the document: its last path component, NFC-normalised, without control or
    bidirectional characters, at most MAX_NAME_CHARS long with its extension kept. May be "" (nothing usable)."""
    name = _UNSAFE_CHARS_RE.sub("", unicodedata.normalize("NFC", raw))
    name = name.replace("\\", "/").rsplit("/", 1)[-1].strip(" .")
    if len(name) <= MAX_NAME_CHARS:
        return name
    path = PurePosixPath(name)
    suffix = path.suffix if len(path.suffix) <= _MAX_SUFFIX_CHARS else ""
    return path.stem[: MAX_NAME_CHARS - len(suffix)].rstrip(" .") + suffix


def storage_name(name: str) -> str:
    """An ASCII name for the stored file, short enough for any file system, with the extension of `name`."""
    path = PurePosixPath(name)
    suffix = path.suffix.lower() if re.fullmatch(r"\.[a-z0-9]{1,10}", path.suffix.lower()) else ""
    stem = slugify(path.stem)[:_MAX_STORED_STEM].strip("-_") or "document"
    return stem + suffix
