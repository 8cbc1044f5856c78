"""The composer-only loop's development cases (calibrate_gate.py): each question with the evidence retrieval would
give it — its own passage among its top BM25 neighbours (answerable) or the neighbours without it (unanswerable).
No database; the SciFact cases also set the corpus's own idf (COLLECTION_IDF) for the statement gate."""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("PORTAL_BENCH_CORPUS", ROOT.parent / "shared" / "corpus"))
EVIDENCE = 5  # the deep preset's top_k
COLLECTION_IDF: dict[str, float] = {}  # term → idf over the whole SciFact corpus (set by scifact_cases)
COLLECTION_DOCS = 0  # its number of abstracts


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
