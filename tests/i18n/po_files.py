"""A small reader of GNU gettext .po files, for the translation tests: no gettext tools and no third-party package.

It reads what makemessages writes (msgctxt, msgid, msgid_plural, msgstr, msgstr[n], multi-line strings, the
`#,` flags line) into entries, and gives the catalog a compiled .mo must hold, in the form Python's
gettext.GNUTranslations reads a .mo into (`_catalog`): "ctxt\\x04msgid" keys, (msgid, n) keys for plural forms.
"""

from __future__ import annotations

import ast
import gettext
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> str:
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values()) and "fuzzy" not in self.flags


def _unquote(text: str) -> str:
    # A .po string is a C string literal; Python's literal syntax reads the escapes makemessages writes.
    return ast.literal_eval(text)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file, the header (msgid "") included; obsolete (#~) entries left out."""
    entries: list[Entry] = []
    entry = Entry()
    field_name: str | None = None
    started = False

    def close() -> None:
        nonlocal entry, started, field_name
        if started:
            entries.append(entry)
        entry, started, field_name = Entry(), False, None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            close()
            continue
        if line.startswith("#,"):
            if started and field_name and field_name.startswith("msgstr"):
                close()
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            value = _unquote(line)
        elif keyword in ("msgctxt", "msgid", "msgid_plural") or keyword.startswith("msgstr"):
            if keyword in ("msgctxt", "msgid") and started and field_name and field_name.startswith("msgstr"):
                flags = set()
                close()
                entry.flags = flags
            field_name, value, started = keyword, _unquote(rest), True
            if keyword == "msgctxt":
                entry.msgctxt = ""
        else:
            raise ValueError(f"{path}: cannot read line {raw!r}")
        if field_name == "msgctxt":
            entry.msgctxt = (entry.msgctxt or "") + value
        elif field_name == "msgid":
            entry.msgid += value
        elif field_name == "msgid_plural":
            entry.msgid_plural += value
        elif field_name == "msgstr":
            entry.msgstr[0] = entry.msgstr.get(0, "") + value
        elif field_name and field_name.startswith("msgstr["):
            n = int(field_name[7:-1])
            entry.msgstr[n] = entry.msgstr.get(n, "") + value
    close()
    return entries


def expected_catalog(entries: list[Entry]) -> dict[object, str]:
    """What GNUTranslations must read from the .mo compiled from these entries: every translated entry (msgfmt
    leaves out untranslated and fuzzy ones, but keeps the header)."""
    catalog: dict[object, str] = {}
    for entry in entries:
        if entry.msgid and not entry.translated:
            continue
        if entry.msgid_plural:
            for n, text in entry.msgstr.items():
                catalog[(entry.key, n)] = text
        else:
            catalog[entry.key] = entry.msgstr.get(0, "")
    # GNU msgfmt leaves the template's creation date out of the compiled header (reproducible builds).
    header = catalog.get("", "").splitlines(keepends=True)
    catalog[""] = "".join(line for line in header if not line.startswith("POT-Creation-Date:"))
    return catalog


def read_mo(path: Path) -> dict[object, str]:
    with path.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
