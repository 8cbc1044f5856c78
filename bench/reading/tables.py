"""Tables found in PDFs (issue 16): per file, the tables and rows read, the table passages, and the rows whose
rectangle holds their text (table_stats.table_stats); with --show, each table's page, size and first rows,
to check by eye against the pages.

    DJANGO_SETTINGS_MODULE=portal.settings SECRET_KEY=x .venv/bin/python bench/reading/tables.py FILE_OR_DIR... [--show]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pymupdf

from apps.documents.parsing import chunk_document, parse_document
from apps.evaluation.table_stats import table_stats

HELD_OUT = (
    set((Path(__file__).parent / "held_out.txt").read_text().split())
    if (Path(__file__).parent / "held_out.txt").exists()
    else set()
)


def pdfs(args: list[str]) -> list[Path]:
    out = []
    for arg in args:
        path = Path(arg)
        out += sorted(path.rglob("*.pdf")) if path.is_dir() else [path]
    return out


def main(argv: list[str]) -> None:
    show = "--show" in argv
    include_held = "--held-out" in argv
    pymupdf.TOOLS.mupdf_display_errors(False)
    results = {}
    for path in pdfs([a for a in argv if not a.startswith("--")]):
        if (path.name in HELD_OUT) != include_held:
            continue
        data = path.read_bytes()
        started = time.perf_counter()
        parsed = parse_document(data, path.name)
        drafts = chunk_document(parsed)
        seconds = time.perf_counter() - started
        stats = table_stats(parsed, drafts, data)
        name = f"{path.parent.name}/{path.name}" if path.name == "paper.pdf" else path.name
        results[name] = {**stats, "seconds": round(seconds, 2)}
        print(
            f"{name[:48]:48} tables {stats['tables']:3} rows {stats['rows']:4} passages {stats['table_passages']:3} "
            f"boxed {stats['rows_boxed']}/{stats['rows_checked']}  {seconds:5.1f}s",
            flush=True,
        )
        if show:
            for block in parsed.blocks:
                if block.kind == "table":
                    print(
                        f"    p{block.page} {len(block.cells)}x{max(len(r) for r in block.cells)}: "
                        f"{block.text.splitlines()[0][:110]!r}"
                    )
    total = {
        k: sum(r[k] for r in results.values())
        for k in ("tables", "rows", "table_passages", "rows_checked", "rows_boxed", "seconds")
    }
    print("TOTAL", json.dumps(total))


if __name__ == "__main__":
    import django

    django.setup()
    main(sys.argv[1:])
