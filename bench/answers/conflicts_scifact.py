"""How often the conflict test (answers/conflicts.py `disagree`) fires on SciFact's labelled claim–abstract pairs.

SciFact labels each relevant abstract of a claim SUPPORT or CONTRADICT. A pair is "flagged" when some sentence of the
abstract disagrees with the claim (claim and abstract count as two documents). A good test flags CONTRADICT
abstracts more often than SUPPORT ones, and flags little of either beyond them: the failure of issue 15 was a
listed "disagreement" that contradicts nothing. `--old FILE` runs a saved copy of an older conflicts.py beside it.

    .venv/bin/python bench/answers/conflicts_scifact.py --split tune [--old /tmp/old_conflicts.py] [--show 10]
    .venv/bin/python bench/answers/conflicts_scifact.py --split held-out   # once, to report

Claims of qrels/train.tsv are TUNE, of qrels/test.tsv HELD-OUT; look at HELD-OUT only to report.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCIFACT = ROOT.parent / "shared" / "corpus" / "beir-scifact"


@dataclass
class Sentence:
    text: str
    document_id: int
    terms: set[str] = field(default_factory=set)


def _load(path: str):
    spec = importlib.util.spec_from_file_location("conflicts_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=("tune", "held-out"), default="tune")
    parser.add_argument("--old", help="a saved older conflicts.py to compare with")
    parser.add_argument("--show", type=int, default=0, help="print this many flagged pairs per label")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("SECRET_KEY", "bench")
    import django

    django.setup()

    from apps.citations.answers import conflicts
    from apps.citations.answers.citation import sentences
    from apps.citations.answers.similarity import content_terms

    qrels = "train.tsv" if args.split == "tune" else "test.tsv"
    claim_ids = {line.split("\t")[0] for line in (SCIFACT / "qrels" / qrels).read_text().splitlines()[1:] if line}
    claims = {}
    for line in (SCIFACT / "queries.jsonl").open():
        row = json.loads(line)
        if row["_id"] in claim_ids and row["metadata"]:
            claims[row["_id"]] = row
    wanted = {doc for row in claims.values() for doc in row["metadata"]}
    abstracts = {}
    for line in (SCIFACT / "corpus.jsonl").open():
        row = json.loads(line)
        if row["_id"] in wanted:
            abstracts[row["_id"]] = [s for s in sentences(row["text"]) if s]

    testers = {"new": conflicts.disagree}
    if args.old:
        testers["old"] = _load(args.old).disagree
    counts: dict[str, dict[str, list[int]]] = {name: {} for name in testers}
    shown: dict[tuple[str, str], int] = {}
    for row in claims.values():
        claim = Sentence(row["text"], 0, content_terms(row["text"]))
        for doc, evidence in row["metadata"].items():
            label = evidence[0]["label"]
            parts = [Sentence(s, 1, content_terms(s)) for s in abstracts.get(doc, [])]
            for name, disagree in testers.items():
                flagged = [p.text for p in parts if disagree(claim, p)]
                tally = counts[name].setdefault(label, [0, 0])
                tally[0] += bool(flagged)
                tally[1] += 1
                if flagged and shown.get((name, label), 0) < args.show:
                    shown[(name, label)] = shown.get((name, label), 0) + 1
                    print(f"[{name} {label}] {row['text']}\n    ↔ {flagged[0]}")
    print(f"\nSciFact {args.split}: abstracts with a sentence flagged as disagreeing with the claim")
    for name, by_label in counts.items():
        line = "  ".join(
            f"{label} {hit}/{total} ({hit / total:.0%})" for label, (hit, total) in sorted(by_label.items())
        )
        print(f"  {name}: {line}")


if __name__ == "__main__":
    main()
