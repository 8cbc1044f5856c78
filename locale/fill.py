"""Writes the table of locale/zh_hans_strings.py into locale/zh_Hans/LC_MESSAGES/*.po after makemessages.

    python manage.py makemessages -l zh_Hans --no-location --no-obsolete -i ".venv/*" -i "var/*" -i "static/vendor/*" \
        -i "bench/*" -i "demo/*" -i "tests/*"
    python manage.py makemessages -d djangojs -l zh_Hans --no-location --no-obsolete (same -i options)
    python locale/fill.py && python manage.py compilemessages -l zh_Hans

Entries the table lacks stay empty, and tests/test_translations.py fails naming them.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from zh_hans_strings import ZH_HANS  # noqa: E402

HEADER = {
    "Project-Id-Version": "knowledge-portal",
    "Language-Team": "Simplified Chinese",
    "Language": "zh_Hans",
    "Last-Translator": "knowledge-portal",
}


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _value(lines: list[str], keyword: str) -> str | None:
    out, on = [], False
    for line in lines:
        if line.startswith(keyword + " "):
            out.append(ast.literal_eval(line[len(keyword) + 1 :]))
            on = True
        elif on and line.startswith('"'):
            out.append(ast.literal_eval(line))
        else:
            on = False
    return "".join(out) if out else None


def fill_block(block: str) -> str:
    lines = block.split("\n")
    msgid = _value(lines, "msgid")
    if msgid is None:
        return block
    if msgid == "":
        kept = [line for line in lines if line != "#, fuzzy"]
        for name, value in HEADER.items():
            kept = [line if not line.startswith(f'"{name}:') else f'"{name}: {value}\\n"' for line in kept]
        return "\n".join(kept)
    context = _value(lines, "msgctxt")
    text = ZH_HANS.get((context, msgid) if context is not None else msgid, "")
    head = [line for at, line in enumerate(lines) if not line.startswith("msgstr") and not _in_msgstr(lines, at)]
    # A translation from the table replaces whatever msgmerge guessed, so the entry is no longer fuzzy.
    head = [_unfuzzy(line) for line in head if line != "#, fuzzy" and not line.startswith("#|")]
    if _value(lines, "msgid_plural") is not None:
        return "\n".join([*head, f"msgstr[0] {_quote(text)}"])  # Chinese: nplurals=1
    return "\n".join([*head, f"msgstr {_quote(text)}"])


def _unfuzzy(line: str) -> str:
    if not line.startswith("#,"):
        return line
    return "#, " + ", ".join(flag.strip() for flag in line[2:].split(",") if flag.strip() != "fuzzy")


def _in_msgstr(lines: list[str], at: int) -> bool:
    """Line `at` is a continuation line ("...") of a msgstr (msgstr comes last in an entry)."""
    if not lines[at].startswith('"'):
        return False
    for earlier in reversed(lines[:at]):
        if not earlier.startswith('"'):
            return earlier.startswith("msgstr")
    return False


def main() -> None:
    for domain in ("django", "djangojs"):
        path = HERE / "zh_Hans" / "LC_MESSAGES" / f"{domain}.po"
        blocks = path.read_text(encoding="utf-8").rstrip("\n").split("\n\n")
        path.write_text("\n\n".join(fill_block(block) for block in blocks) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
