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
import hashlib
import json
import math
import os
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("PORTAL_BENCH_CORPUS", ROOT.parent / "shared" / "corpus"))
EVIDENCE = 5  # the deep preset's top_k
COLLECTION_IDF: dict[str, float] = {}  # term → idf over the whole SciFact corpus (set by scifact_cases)
COLLECTION_DOCS = 0  # its number of abstracts


def _setup_django() -> None:
    """Settings only (the embedding model's name, the var dir for jieba's cache): no database is opened."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("SECRET_KEY", "calibrate")
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("PORTAL_HTTPS", "false")
    import django

    django.setup()


class BM25:
    """Okapi BM25 over the portal's own analyzer terms (k1 1.5, b 0.75): the topical neighbours of a question."""

    def __init__(self, texts: list[str]) -> None:
        from apps.retrieval.keyword.analyzer import terms

        self.docs = [Counter(terms(t)) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.mean = sum(self.lengths) / max(1, len(self.lengths))
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, d in enumerate(self.docs):
            for t in d:
                self.postings[t].append(i)

    def top(self, query: str, k: int) -> list[int]:
        from apps.retrieval.keyword.analyzer import query_terms

        scores: dict[int, float] = defaultdict(float)
        for t in query_terms(query):
            for i in self.postings.get(t, ()):
                f = self.docs[i][t]
                norm = f * 2.5 / (f + 1.5 * (0.25 + 0.75 * self.lengths[i] / self.mean))
                scores[i] += self.idf[t] * norm
        return [i for i, _ in sorted(scores.items(), key=lambda x: -x[1])[:k]]


def _hit(number: int, document_id: int, title: str, text: str):
    from apps.retrieval.search.types import SearchHit

    return SearchHit(
        chunk_id=document_id,
        chunk_index=0,
        document_id=document_id,
        collection="bench",
        title=title,
        authors=[],
        year=None,
        journal="",
        doi="",
        source=f"{document_id}.txt",
        doc_type="text",
        section="",
        heading_path=[],
        chunk_type="text",
        content=text[:300],
        text=text,
        snippet_html="",
        locator_precision="line",
        locator_degraded=False,
        page=None,
        page_end=None,
        rects=[],
        page_size={},
        para_start=None,
        para_end=None,
        para_ids=[],
        line_start=None,
        line_end=None,
        weight=1.0,
        score=1.0 / number,
        score_source="bm25",
        scores={},
        viewer_url="",
    )


def _evidence(docs: list[tuple[int, str, str]]):
    from apps.citations.answers.markers import neutralise_markers
    from apps.citations.answers.types import Evidence

    # As the service hands them to composers: a source's own "[12]" becomes "(ref 12)".
    return [Evidence(i + 1, _hit(i + 1, d, title, neutralise_markers(text))) for i, (d, title, text) in enumerate(docs)]


# --- cases ------------------------------------------------------------------------------------------------------
def tune_article(article_id: str) -> bool:
    return int(hashlib.md5(article_id.encode()).hexdigest(), 16) % 10 < 6


def cmrc_cases(split: str) -> list[dict]:
    global COLLECTION_IDF
    COLLECTION_IDF = {}  # no collection statistics for CMRC here (the gate falls back to the candidates')
    data = json.loads((CORPUS / "zh-cmrc2018/cmrc2018_dev.squad.json").read_text())["data"]
    passages = [(i, a.get("title", ""), p["context"]) for i, a in enumerate(data) for p in a["paragraphs"]]
    index = BM25([text for _, _, text in passages])
    cases = []
    for k, (i, _title, _text) in enumerate(passages):
        if tune_article(data[i]["id"]) != (split == "tune"):
            continue
        for qa in data[i]["paragraphs"][0]["qas"] if len(data[i]["paragraphs"]) == 1 else []:
            gold = sorted({a["text"].strip() for a in qa["answers"] if a["text"].strip()})
            ranked = index.top(qa["question"], EVIDENCE + 1)
            others = [j for j in ranked if j != k][: EVIDENCE - 1]
            own_rank = ranked.index(k) if k in ranked else 0
            answerable = [*others[:own_rank], k, *others[own_rank:]]
            unanswerable = [j for j in ranked if j != k][:EVIDENCE]
            still_holds = any(g in passages[j][2] for j in unanswerable for g in gold)
            cases.append(
                {
                    "set": "cmrc",
                    "question": qa["question"],
                    "gold": gold,
                    "relevant": {k},
                    "answerable": [passages[j] for j in answerable],
                    "unanswerable": None if still_holds else [passages[j] for j in unanswerable],
                }
            )
    return cases


def scifact_cases(split: str) -> list[dict]:
    base = CORPUS / "beir-scifact"
    docs = {}
    for line in (base / "corpus.jsonl").open():
        row = json.loads(line)
        docs[int(row["_id"])] = (row.get("title", ""), row["text"])
    ids = sorted(docs)
    index = BM25([f"{docs[d][0]} {docs[d][1]}" for d in ids])
    global COLLECTION_IDF, COLLECTION_DOCS
    COLLECTION_IDF, COLLECTION_DOCS = index.idf, len(ids)
    claims = {row["_id"]: row["text"] for row in map(json.loads, (base / "queries.jsonl").open())}
    qrels: dict[str, set[int]] = defaultdict(set)
    name = "train.tsv" if split == "tune" else "test.tsv"
    for line in list((base / "qrels" / name).open())[1:]:
        qid, did, _score = line.split("\t")
        qrels[qid].add(int(did))
    cases = []
    for qid, relevant in sorted(qrels.items(), key=lambda x: int(x[0])):
        ranked = [ids[j] for j in index.top(claims[qid], EVIDENCE + len(relevant))]
        others = [d for d in ranked if d not in relevant]
        own = [d for d in ranked if d in relevant] or sorted(relevant)[:1]
        answerable = (own + others)[:EVIDENCE]
        # Keep BM25 order where the relevant abstract was retrieved; otherwise it leads.
        answerable = sorted(answerable, key=lambda d: ranked.index(d) if d in ranked else -1)
        cases.append(
            {
                "set": "scifact",
                "question": claims[qid],
                "gold": [],
                "relevant": set(relevant),
                "answerable": [(d, *docs[d]) for d in answerable],
                "unanswerable": [(d, *docs[d]) for d in others[:EVIDENCE]],
            }
        )
    return cases


# --- running the composer ---------------------------------------------------------------------------------------
def compose(composer, question: str, docs) -> tuple[str, list[int]]:
    from apps.citations.answers.language import detect
    from apps.citations.answers.types import ComposeRequest, Conflict

    evidence = _evidence(docs)
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
        if not COLLECTION_IDF or any(e.hit.collection != "bench" for e in evidence):
            return None
        # A term no abstract holds is the rarest there is (BM25's idf at df 0), as collection_idf() gives it.
        unseen = math.log(1.0 + (COLLECTION_DOCS + 0.5) / 0.5)
        return lambda term: COLLECTION_IDF.get(term, unseen)

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
        idf = COLLECTION_IDF.get if name == "scifact" else None

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
