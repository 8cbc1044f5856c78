"""Retrieval quality on a BEIR-format folder: nDCG@10, Recall@100, MRR@10 and latency per mode."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.retrieval.search.types import MODES


class Command(BaseCommand):
    help = (
        "Load a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv) into a throwaway collection and "
        "measure search per mode. Vectors are cached under var/cache, so a second run skips the embedding."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--beir", required=True, type=Path, help="the BEIR-format folder")
        parser.add_argument("--mode", action="append", choices=MODES, help="repeatable; default: all three")
        parser.add_argument("--split", default="test")
        parser.add_argument("--max-queries", type=int, default=None, help="only the first N judged queries")
        parser.add_argument("--keep", action="store_true", help="keep the collection afterwards (for inspection)")
        parser.add_argument("--json", action="store_true", help="print JSON instead of a table")

    def handle(self, *args, beir: Path, mode, split, max_queries, keep, json: bool, **options) -> None:
        from apps.evaluation.retrieval import evaluate_beir

        for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
            if not (beir / name).is_file():
                raise CommandError(f"{beir} is not a BEIR-format folder: {name} is missing.")
        modes = list(dict.fromkeys(mode or MODES))
        results = evaluate_beir(
            beir, modes, split=split, max_queries=max_queries, keep=keep, progress=lambda m: self.stderr.write(m)
        )
        if json:
            self.stdout.write(_json({mode: result.as_dict() for mode, result in results.items()}))
            return
        self.stdout.write(f"{'mode':8s} {'nDCG@10':>8s} {'R@100':>7s} {'MRR@10':>7s} {'p50 ms':>8s} {'p95 ms':>8s}")
        for name, r in results.items():
            quality = f"{r.ndcg_at_10:8.3f} {r.recall_at_100:7.3f} {r.mrr_at_10:7.3f}"
            self.stdout.write(f"{name:8s} {quality} {r.p50_ms:8.1f} {r.p95_ms:8.1f}")
            for note in r.degraded:
                self.stdout.write(f"  {name}: {note}")


def _json(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
