"""python manage.py evaluate_reading DIR [--held-out FILE] [--only NAME ...] [--json]

Reads every document in DIR the way ingestion does and compares what it found with DIR/ground_truth.json
(pdf-varied's conventions: ref_count, first_ref, last_ref, section_headings): reference entries against the printed
count, entries with a parsed title, printed top-level headings found, passages under the right heading, pages left
unread, passages read by OCR, tables. --held-out names files (one per line) whose totals are reported apart.
"""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
from django.core.management.base import BaseCommand, CommandError

from apps.evaluation.reading import document_paths, evaluate_file, ground_truth, ocr_scores, totals


class Command(BaseCommand):
    help = "Reading quality on a folder with ground_truth.json (references, headings, sections, OCR, tables)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("folder")
        parser.add_argument("--held-out", help="a file listing the file names to total apart (one per line)")
        parser.add_argument("--only", nargs="*", default=None, help="only these file names")
        parser.add_argument(
            "--ocr-cer",
            action="append",
            default=[],
            metavar="PDF:PAGES",
            help="also rasterise these pages (1-based, comma-separated) of a text PDF and measure OCR's error rate",
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, folder: str, held_out: str | None, only: list[str] | None, json: bool, **options):
        ocr_specs = options["ocr_cer"]
        pymupdf.TOOLS.mupdf_display_errors(False)  # damaged objects are the documents' business, not the table's
        root = Path(folder)
        if not root.is_dir():
            raise CommandError(f"{folder} is not a folder")
        truth = ground_truth(root)
        # With ground truth, the files it describes (a README beside them is no test document).
        paths = [p for p in document_paths(root) if (only is None or p.name in only) and (not truth or p.name in truth)]
        if not paths:
            raise CommandError(f"no documents to read in {folder}")
        aside = set(Path(held_out).read_text(encoding="utf-8").split()) if held_out else set()
        files = {}
        for path in paths:
            files[path.name] = evaluate_file(path, truth.get(path.name, {}))
            if not json:
                self.stdout.write(_line(path.name, files[path.name]))
        dev = [row for name, row in files.items() if name not in aside]
        result = {"files": files, "total": totals(files.values()), "development": totals(dev)}
        if ocr_specs:
            result["ocr"] = ocr_scores(ocr_specs)
        if aside:
            result["held_out"] = totals(row for name, row in files.items() if name in aside)
        if json:
            self.stdout.write(_dumps(result))
            return
        if ocr_specs:
            self.stdout.write(
                f"OCR character error rate: {result['ocr']['cer']} over {result['ocr']['chars']} characters"
            )
        for split in ("development", "held_out", "total"):
            if split in result:
                self.stdout.write(f"{split}: " + ", ".join(f"{k} {v}" for k, v in result[split].items()))


def _line(name: str, row: dict) -> str:
    if "error" in row:
        return f"{name[:44]:<44} ERROR {row['error']}"
    refs = row["references"]
    ref_part = f"refs {refs['found']:>3}/{refs['expected']:<3} titled {refs['titled']:>3}" if refs else "refs   -    "
    h = row["headings"]
    s = row["sections"]
    return (
        f"{name[:44]:<44} {ref_part:<24} headings {h['found']:>2}/{h['expected']:<2} (level {h['same_level']:>2}) "
        f"sections {s['right']:>3}/{s['passages']:<3} en-on-zh {row['english_names_on_cjk']:>2} "
        f"unread {len(row['pages_unread']):>2} ocr {row['ocr_passages']:>3} tables {row['tables']:>2} "
        f"{row['seconds']:>5}s"
    )


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
