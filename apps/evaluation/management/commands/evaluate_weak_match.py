"""The weak-match threshold of search: chosen on one half of real and weak queries, checked on the other."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Measure the weak-match signal (key-term coverage) on SciFact and CMRC against nonsense and out-of-domain."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--english", type=Path, default=Path("/work/shared/corpus/beir-scifact"))
        parser.add_argument("--chinese", type=Path, default=Path("/work/shared/corpus/zh-cmrc2018/retrieval"))
        parser.add_argument("--per-set", type=int, default=200, help="real queries per language")
        parser.add_argument("--top-k", type=int, default=3, help="passages the signal looks at (quick search: 3)")
        parser.add_argument("--rows", type=Path, default=None, help="write every query's row here (JSON)")

    def handle(self, *args, english: Path, chinese: Path, per_set: int, top_k: int, rows: Path | None, **options):
        from apps.evaluation.weak_match import choose, measure, scores

        table = measure(english, chinese, per_set=per_set, top_k=top_k, progress=lambda m: self.stderr.write(m))
        calibration = [row for row in table if not row["held_out"]]
        test = [row for row in table if row["held_out"]]
        report = {}
        for signal in ("coverage", "top_score"):
            chosen = choose(calibration, signal)
            report[signal] = {"calibration": chosen, "held_out": scores(test, signal, chosen["threshold"])}
        if rows:
            rows.write_text(json.dumps(table, ensure_ascii=False, indent=1))
        self.stdout.write(json.dumps(report, indent=2))
