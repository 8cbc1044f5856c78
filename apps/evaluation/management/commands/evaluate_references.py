"""python manage.py evaluate_references --jats-dir DIR [--json]

Compares the reference lists and in-text citation links found in each paper's PDF with the publisher's XML
(JATS `ref-list` / `xref ref-type="bibr"`, BMC `bibl` / `abbr bid`): papers are DIR/papers/ID/paper.pdf + paper.xml.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.evaluation.reference_entries import evaluate_entries
from apps.evaluation.reference_links import evaluate_links


class Command(BaseCommand):
    help = "Reference-list and in-text link quality against publisher XML (entries found, links precision/recall)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--jats-dir", required=True)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, jats_dir: str, json: bool, **options) -> None:
        papers_dir = Path(jats_dir) / "papers"
        pairs = sorted(p for p in papers_dir.glob("*") if (p / "paper.pdf").exists() and (p / "paper.xml").exists())
        if not pairs:
            raise CommandError(f"no papers/ID/paper.pdf + paper.xml under {jats_dir}")
        papers = {folder.name: _evaluate(folder) for folder in pairs}
        result = {"papers": papers, "total": _total(papers.values())}
        if json:
            self.stdout.write(_dumps(result))
            return
        self.stdout.write(f"{'paper':<28} {'expected':>8} {'found':>6} {'text ok':>7} {'links P':>8} {'links R':>8}")
        for name, row in papers.items():
            self.stdout.write(
                f"{name:<28} {row['entries_expected']:>8} {row['entries_found']:>6} {row['entries_text_matched']:>7} "
                f"{row['links_precision']:>8.3f} {row['links_recall']:>8.3f}"
            )
        total = result["total"]
        self.stdout.write(
            f"{'total':<28} {total['entries_expected']:>8} {total['entries_found']:>6} "
            f"{total['entries_text_matched']:>7} {total['links_precision']:>8.3f} {total['links_recall']:>8.3f}"
        )
        self.stdout.write(f"entries found / expected: {total['entries_found_ratio']:.3f}")


def _evaluate(folder: Path) -> dict:
    pdf, xml = folder / "paper.pdf", folder / "paper.xml"
    entries = evaluate_entries(pdf, xml)
    links = evaluate_links(pdf, xml)
    return {
        "entries_expected": entries["expected"],
        "entries_found": entries["found"],
        "entries_text_matched": entries["matched"],
        "links_expected": links["expected"],
        "links_found": links["links"],
        "links_correct": links["matched"],
        "links_precision": _ratio(links["matched"], links["links"]),
        "links_recall": _ratio(links["matched"], links["expected"]),
    }


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 1.0


def _total(rows) -> dict:
    rows = list(rows)
    summed = {
        key: sum(row[key] for row in rows)
        for key in (
            "entries_expected",
            "entries_found",
            "entries_text_matched",
            "links_expected",
            "links_found",
            "links_correct",
        )
    }
    return summed | {
        "entries_found_ratio": _ratio(summed["entries_text_matched"], summed["entries_expected"]),
        "links_precision": _ratio(summed["links_correct"], summed["links_found"]),
        "links_recall": _ratio(summed["links_correct"], summed["links_expected"]),
    }


def _dumps(data: dict) -> str:
    return json.dumps(data, indent=2)
