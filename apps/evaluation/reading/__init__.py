"""`manage.py evaluate_reading`: what reading a folder of documents finds, against hand-written ground truth.

Each file is read exactly as ingestion reads it (apps/documents/services/reading.py read_file, in the same bounded
child), so the figures are those of the portal, not of a copy of its parser.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings

from apps.citations.receivers import REFERENCES
from apps.documents.parsing import SUPPORTED_EXTENSIONS
from apps.documents.parsing.sandbox import run_bounded
from apps.documents.services.reading import Reading, read_file, read_limits
from apps.evaluation.ocr_quality import ocr_cer
from apps.evaluation.table_stats import table_stats

from .headings import english_names_on_cjk, heading_scores, section_scores
from .references import reference_scores


def read_bounded(path: Path) -> Reading:
    data = path.read_bytes()
    doc_type = path.suffix.lower().lstrip(".")
    bounded = run_bounded(
        read_file,
        data,
        path.name,
        doc_type,
        read_limits(),
        memory_mb=settings.PORTAL_PARSE_MEMORY_MB,
        timeout_s=settings.PORTAL_PARSE_TIMEOUT_S,
    )
    return bounded.value


def evaluate_file(path: Path, truth: dict) -> dict:
    started = time.perf_counter()
    try:
        reading = read_bounded(path)
    except Exception as exc:  # a file that cannot be read is a result too, not the end of the run
        return {"error": f"{type(exc).__name__}: {exc}"}
    blocks, drafts = reading.parsed.blocks, reading.drafts
    printed = truth.get("section_headings") or []
    tables = table_stats(reading.parsed, drafts, str(path)) if reading.parsed.doc_type == "pdf" else {}
    return {
        "seconds": round(time.perf_counter() - started, 2),
        "pages": reading.parsed.page_count,
        "passages": len(drafts),
        "references": reference_scores(truth, reading.extras[REFERENCES.name][0]),  # (entries, mentions)
        "headings": heading_scores(printed, blocks),
        "sections": section_scores(printed, blocks, drafts),
        "english_names_on_cjk": english_names_on_cjk(drafts),
        "pages_unread": list(reading.parsed.needs_ocr_pages),
        "ocr_passages": sum(1 for d in drafts if getattr(d, "ocr", False)),
        "tables": sum(1 for b in blocks if b.kind == "table"),
        "table_passages": sum(1 for d in drafts if d.chunk_type == "table"),
        "table_rows": tables.get("rows", 0),
        "table_rows_boxed": tables.get("rows_boxed", 0),  # rows whose box on the page holds the row's text
    }


def ocr_scores(specs: Iterable[str]) -> dict:
    """Character error rate of OCR on pages of text PDFs rasterised into clean scans: each spec is PATH:PAGE[,PAGE]
    (1-based), compared with the page's own text layer (apps/evaluation/ocr_quality.py)."""
    rows = {}
    for spec in specs:
        path, _, pages = spec.rpartition(":")
        rows[spec] = ocr_cer(Path(path).read_bytes(), [int(p) for p in pages.split(",")])
    chars = sum(r["chars"] for r in rows.values())
    errors = sum(r["errors"] for r in rows.values())
    blocks = sum(r["blocks"] for r in rows.values())
    boxed = sum(r["blocks_boxed"] for r in rows.values())
    return {
        "pages": rows,
        "chars": chars,
        "errors": errors,
        "cer": round(errors / chars, 4) if chars else None,
        "blocks": blocks,
        "blocks_boxed": _share(boxed, blocks),  # OCR'd blocks whose rectangles hold the text they show
    }


def document_paths(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in SUPPORTED_EXTENSIONS)


def ground_truth(folder: Path) -> dict:
    path = folder / "ground_truth.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def totals(rows: Iterable[dict]) -> dict:
    rows = [r for r in rows if "error" not in r]
    refs = [r["references"] for r in rows if r["references"]]
    found = sum(r["headings"]["found"] for r in rows)
    return {
        "files": len(rows),
        "ref_files": len(refs),
        "ref_count_exact": _share(sum(r["exact"] for r in refs), len(refs)),
        "ref_count_within_5pct": _share(sum(r["within_5pct"] for r in refs), len(refs)),
        "ref_entries_expected": sum(r["expected"] for r in refs),
        "ref_entries_found": sum(r["found"] for r in refs),
        "ref_titles_parsed": _share(
            sum(r["titled_in_slots"] for r in refs if r["titles_printed"]),
            sum(r["title_slots"] for r in refs if r["titles_printed"]),
        ),
        "ref_titles_where_none_printed": sum(
            r["titled_without_slot"] if r["titles_printed"] else r["titled"] for r in refs
        ),
        "ref_first_last_ok": _share(
            sum(bool(r[k]) for r in refs for k in ("first_ok", "last_ok")),
            sum(r[k] is not None for r in refs for k in ("first_ok", "last_ok")),
        ),
        "headings_expected": sum(r["headings"]["expected"] for r in rows),
        "headings_recall": _share(found, sum(r["headings"]["expected"] for r in rows)),
        "headings_same_level": _share(sum(r["headings"]["same_level"] for r in rows), found),
        "sections_right": _share(
            sum(r["sections"]["right"] for r in rows), sum(r["sections"]["passages"] for r in rows)
        ),
        "english_names_on_cjk": sum(r["english_names_on_cjk"] for r in rows),
        "pages_unread": sum(len(r["pages_unread"]) for r in rows),
        "ocr_passages": sum(r["ocr_passages"] for r in rows),
        "tables": sum(r["tables"] for r in rows),
        "table_passages": sum(r["table_passages"] for r in rows),
        "table_rows_boxed": _share(sum(r["table_rows_boxed"] for r in rows), sum(r["table_rows"] for r in rows)),
    }


def _share(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None
