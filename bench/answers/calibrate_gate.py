"""Calibrate the extractive composer's answer gate (issue 15) without a database: the fast, composer-only loop.

For each development question the evidence is built the way retrieval would give it — the question's own passage
among its top BM25 neighbours (answerable) or the same neighbours without it (unanswerable: everything left is on
the topic but lacks the answer) — and the composer is run on it directly.

- CMRC 2018 dev (Chinese): the gold answer spans. An article is TUNE when md5(id) % 10 < 6, else HELD-OUT.
  An unanswerable case whose remaining passages still contain the gold answer text is left out (and counted):
  the collection would still hold the answer.
- SciFact (English): claims of qrels/train.tsv are TUNE, qrels/test.tsv HELD-OUT; "answered well" is the first
  claim citing a relevant abstract.

    .venv/bin/python bench/answers/calibrate_gate.py --split tune [--embeddings] [--sweep] [--limit 400]
    .venv/bin/python bench/answers/calibrate_gate.py --split held-out --embeddings   # once, to report
    .venv/bin/python bench/answers/calibrate_gate.py --split tune --sets scifact --features [--limit 200]

--features: the statement gate's calibration (bench/answers/gate_features.py): per SciFact claim, the features of
its best candidate sentences with and without its relevant abstract, each feature's AUC and a threshold sweep.

Look at --split held-out only to report, never to tune.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gate_cases  # noqa: E402  (the development cases: this folder is not a package)
from gate_cases import cmrc_cases, scifact_cases  # noqa: E402


def _setup_django() -> None:
    """Settings only (the embedding model's name, the var dir for jieba's cache): no database is opened."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("SECRET_KEY", "calibrate")
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("PORTAL_HTTPS", "false")
    import django

    django.setup()


# --- running the composer ---------------------------------------------------------------------------------------
def compose(composer, question: str, docs) -> tuple[str, list[int]]:
    from apps.citations.answers.language import detect
    from apps.citations.answers.types import ComposeRequest, Conflict

    evidence = gate_cases._evidence(docs)
    parts = composer.stream(ComposeRequest(question, evidence, language=detect(question)))
    text = "".join(p for p in parts if not isinstance(p, Conflict))
    numbers = [int(n) for n in re.findall(r"\[(\d+)\]", text)]
    return text, [evidence[n - 1].hit.document_id for n in numbers if 0 < n <= len(evidence)]


def first_claim(text: str) -> str:
    from apps.citations.answers.support import split_sentences

    parts = split_sentences(text)
    return parts[0] if parts else ""


def run(cases: list[dict], composer) -> dict:
    from apps.citations.answers.question import FACTOID_KINDS, classify

    rows = []
    for case in cases:
        kind = classify(case["question"]).kind
        text, cited = compose(composer, case["question"], case["answerable"])
        first = first_claim(text)
        row = {
            "set": case["set"],
            "kind": kind,
            "factoid": kind in FACTOID_KINDS,
            "answered": bool(text),
            "chars": len(re.sub(r"\s*\[\d+\]", "", text)),
            "first_holds": bool(case["gold"]) and any(g in first for g in case["gold"]),
            "holds": bool(case["gold"]) and any(g in text for g in case["gold"]),
            "first_relevant": bool(cited) and cited[0] in case["relevant"],
        }
        if case["unanswerable"] is not None:
            row["abstained"] = not compose(composer, case["question"], case["unanswerable"])[0]
        rows.append(row)
    return summarise(rows)


def _share(rows: list[dict], key: str) -> float | None:
    return round(sum(bool(r[key]) for r in rows) / len(rows), 3) if rows else None


def summarise(rows: list[dict]) -> dict:
    out = {}
    for name, subset in (
        ("all", rows),
        ("factoid", [r for r in rows if r["factoid"]]),
        ("other kinds", [r for r in rows if not r["factoid"]]),
    ):
        unanswerable = [r for r in subset if "abstained" in r]
        answered = [r for r in subset if r["answered"]]
        out[name] = {
            "questions": len(subset),
            "answered": _share(subset, "answered"),
            "first_claim_holds_gold": _share(subset, "first_holds"),
            "answer_holds_gold": _share(subset, "holds"),
            "first_claim_relevant": _share(subset, "first_relevant"),
            "median_chars": statistics.median(r["chars"] for r in answered) if answered else None,
            "unanswerable": len(unanswerable),
            "abstained": _share(unanswerable, "abstained"),
        }
    out["kinds"] = dict(Counter(r["kind"] for r in rows).most_common())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("tune", "held-out"), default="tune")
    parser.add_argument("--sets", nargs="+", default=["cmrc", "scifact"])
    parser.add_argument("--limit", type=int, default=0, help="a random sample of this many questions per set")
    parser.add_argument("--embeddings", action="store_true", help="score with the embedding model, as the portal")
    parser.add_argument("--sweep", action="store_true", help="try a grid of gate thresholds (TUNE only)")
    parser.add_argument("--features", action="store_true", help="the statement gate's feature table (SciFact)")
    parser.add_argument("--dump", help="--features: write every case's features to this JSON file")
    parser.add_argument(
        "--candidate-idf",
        action="store_true",
        help="the statement gate without collection statistics (the loop before it read COLLECTION_IDF)",
    )
    parser.add_argument("--coverage", type=float, default=None, help="the key-term coverage floor to use")
    parser.add_argument("--score", type=float, default=None, help="the score floor to use")
    parser.add_argument(
        "--composer-file",
        help="take ExtractiveComposer from this file instead (e.g. `git show HEAD~1:apps/citations/answers/"
        "extractive.py > /tmp/old.py`: today's figures beside the new ones, on the same cases)",
    )
    args = parser.parse_args()
    if args.sweep and args.split != "tune":
        parser.error("thresholds are tuned on the TUNE split only")
    _setup_django()
    from apps.citations.answers.extractive import ExtractiveComposer

    if args.composer_file:
        import importlib.util

        spec = importlib.util.spec_from_file_location("baseline_extractive", args.composer_file)
        module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        ExtractiveComposer = module.ExtractiveComposer

    embedder = None
    if args.embeddings:
        from apps.retrieval.search.service import query_embedder

        embedder, _ = query_embedder()
    builders = {"cmrc": cmrc_cases, "scifact": scifact_cases}
    if not args.candidate_idf:
        _use_collection_idf()
    if args.features:
        from apps.retrieval.search.service import query_embedder as load_embedder

        features(builders, args, embedder or load_embedder()[0])
        return
    results: dict = {"split": args.split, "embeddings": args.embeddings, "sets": {}}
    for name in args.sets:
        cases = builders[name](args.split)
        if args.limit and len(cases) > args.limit:
            cases = random.Random(15).sample(cases, args.limit)
        grid = [(None, None)]
        if args.sweep:
            grid = [(c, s) for c in (0.3, 0.4, 0.5, 0.6, 0.7) for s in (0.0, 0.3, 0.4)]
        elif args.coverage is not None or args.score is not None:
            grid = [(args.coverage, args.score)]
        for coverage, score in grid:
            composer = ExtractiveComposer(embedder=embedder, use_embeddings=args.embeddings)
            composer.min_coverage = getattr(composer, "min_coverage", {"zh": None, "en": None})
            composer.min_score = getattr(composer, "min_score", None)
            if coverage is not None:
                composer.min_coverage = {language: coverage for language in composer.min_coverage}
            if score is not None:
                composer.min_score = score
            started = time.perf_counter()
            summary = run(cases, composer)
            summary["seconds"] = round(time.perf_counter() - started, 1)
            summary["gate"] = {"coverage": composer.min_coverage, "score": composer.min_score}
            results["sets"].setdefault(name, []).append(summary)
            print(json.dumps({"set": name, **summary}, ensure_ascii=False), flush=True)


def _use_collection_idf() -> None:
    """The statement gate reads idf over the whole collection (its BM25 index) in the portal; here there is no
    database, so it is given the SciFact corpus's own (COLLECTION_IDF, set when the cases are built). Without this
    the gate fell back to the candidates' idf, which the portal never uses."""
    from apps.citations.answers import statements

    def collection_idf(evidence):
        if not gate_cases.COLLECTION_IDF or any(e.hit.collection != "bench" for e in evidence):
            return None
        # A term no abstract holds is the rarest there is (BM25's idf at df 0), as collection_idf() gives it.
        unseen = math.log(1.0 + (gate_cases.COLLECTION_DOCS + 0.5) / 0.5)
        return lambda term: gate_cases.COLLECTION_IDF.get(term, unseen)

    statements.collection_idf = collection_idf


def features(builders, args, embedder) -> None:
    """The statement gate's calibration table (gate_features): features, AUCs, a sweep of its support score."""
    import gate_features

    from apps.citations.answers.extractive import ExtractiveComposer

    composer = ExtractiveComposer(embedder=embedder, use_embeddings=True)
    cosines = gate_features.Cosines(embedder)
    for name in args.sets:
        cases = builders[name](args.split)
        if args.limit and len(cases) > args.limit:
            cases = random.Random(15).sample(cases, args.limit)
        idf = gate_cases.COLLECTION_IDF.get if name == "scifact" else None

        def collection_idf(term: str, idf=idf) -> float:
            return idf(term, 0.0) if idf else 0.0

        answerable, unanswerable = [], []
        started = time.perf_counter()
        for case in cases:
            for side, out in (("answerable", answerable), ("unanswerable", unanswerable)):
                if case[side] is not None:
                    row = gate_features.case_features(
                        composer, case["question"], case[side], case["relevant"], collection_idf, cosines
                    )
                    out.append(row)
        print(json.dumps({"set": name, "split": args.split, "claims": len(cases)}), flush=True)
        for row in gate_features.table(answerable, unanswerable):
            print(json.dumps(row), flush=True)
        grid = [round(0.05 * i, 2) for i in range(4, 19)]
        for row in gate_features.sweep(answerable, unanswerable, "stmt", grid):
            print(json.dumps(row), flush=True)
        if args.dump:
            Path(args.dump).write_text(json.dumps({"answerable": answerable, "unanswerable": unanswerable}))
        print(json.dumps({"seconds": round(time.perf_counter() - started, 1)}), flush=True)


if __name__ == "__main__":
    main()
