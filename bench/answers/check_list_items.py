"""Check that every gold item of the list questions is in its document's text (for whoever writes questions).

The evaluation matches an item as a case-insensitive substring after removing all whitespace; this does the same
against the text a reader sees: `pdftotext` (reading order, and -layout) for a PDF, python-docx paragraphs and
table cells for a DOCX, the file itself otherwise. It reads the documents only, never the portal's answers.

    .venv/bin/python bench/answers/check_list_items.py --split fresh4
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import datasets

SPACE = re.compile(r"\s+")


def squeeze(text: str) -> str:
    return SPACE.sub("", text).lower()


def docx_text(path: Path) -> str:
    import docx

    def cells(table):
        for row in table.rows:
            for cell in row.cells:
                yield from (p.text for p in cell.paragraphs)
                for inner in cell.tables:
                    yield from cells(inner)

    document = docx.Document(str(path))
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        parts += list(cells(table))
    return "\n".join(parts)


def texts(path: Path) -> dict[str, str]:
    """The document's text in each way a reader might extract it."""
    if path.suffix == ".pdf":

        def run(*flags: str) -> str:
            command = ["pdftotext", *flags, str(path), "-"]
            return subprocess.run(command, capture_output=True, text=True, check=True).stdout

        return {"pdftotext": run(), "pdftotext -layout": run("-layout")}
    if path.suffix == ".docx":
        return {"python-docx": docx_text(path)}
    return {"file": path.read_text(encoding="utf-8")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", help="only the questions with this own split (e.g. fresh4)")
    args = parser.parse_args()
    data = json.loads(datasets.LISTS.read_text(encoding="utf-8"))
    questions = [q for q in data["questions"] if args.split is None or q.get("split") == args.split]
    others = {q["source"] for q in data["questions"] if q.get("split") != args.split} if args.split else set()
    cache: dict[str, dict[str, str]] = {}
    missing = 0
    for q in questions:
        source = q["source"]
        if source not in cache:
            cache[source] = {how: squeeze(text) for how, text in texts(datasets.source_path(source)).items()}
        found = {item: [how for how, text in cache[source].items() if squeeze(item) in text] for item in q["items"]}
        lost = [item for item, hows in found.items() if not hows]
        every = len(cache[source])
        partial = [f"{item} (only {', '.join(hows)})" for item, hows in found.items() if 0 < len(hows) < every]
        missing += len(lost)
        notes = [f"MISSING {lost}"] if lost else []
        notes += [f"partial: {'; '.join(partial)}"] if partial else []
        notes += ["SOURCE ALSO USED BY ANOTHER SPLIT"] if source in others else []
        notes += [] if source in data["sources"] else ["NO LICENCE NOTE"]
        status = "ok" if not notes else " | ".join(notes)
        print(f"{q['id']:<44} {q['language']} {Path(source).suffix:<5} {len(q['items']):>2} items  {status}")
    print(f"{len(questions)} questions, {sum(len(q['items']) for q in questions)} items, {missing} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
