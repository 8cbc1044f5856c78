"""The development data of issue 15: which questions, with which gold, asked in which collection.

Pure functions (no Django) build the question sets and decide what goes into each collection, so the tests can
check them on tiny inputs; `evaluate.py` loads the collections. The TUNE / HELD-OUT rule (briefs, common.md):

- CMRC 2018: an article is TUNE when int(md5(article id), 16) % 10 < 6, else HELD-OUT. In the derived
  retrieval/ folder each passage is one article (passage id "DEV_12" = article id), so a question's split is
  its passage's.
- SciFact: claims of qrels/train.tsv are TUNE, of qrels/test.tsv HELD-OUT.
- List questions (lists.json): source files sorted by path, even index TUNE, odd HELD-OUT; a question with its
  own "split" ("fresh", "fresh2", "fresh3", "fresh4", "docs-dev": questions added later, from files no other
  question used) keeps it, and its file takes no place in the even/odd order, so adding one never moves an old
  question to the other split. A source is a path under the shared corpus, or "bench:PATH" for a document kept in
  this folder (bench/answers/documents/, see its LICENSES.md).

Unanswerable sets are made the honest way: the same questions asked in a collection without their own relevant
passages, so what is left is on the topic but lacks the answer.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = (HERE / ".." / ".." / ".." / "shared" / "corpus").resolve()
CMRC = CORPUS / "zh-cmrc2018" / "retrieval"
SCIFACT = CORPUS / "beir-scifact"
LISTS = HERE / "lists.json"
# "fresh" (2026-12-02) and "fresh2" (2026-12-03) were each measured once before any tuning on them and have been
# tuned on since; "fresh3" (2026-12-03, 30 questions from 17 files no other question uses) and "fresh4"
# (2026-12-03, 34 questions from 11 files no other question uses, 9 of them kept in documents/) are list sets
# nobody tunes on. "docs-dev" (written 2026-12-03, 40 questions from 11 software-documentation files kept in
# documents/ that no other question uses) is a development set of software documentation that may be tuned on, the
# tuning companion to fresh4, which stays untuned.
TUNE, HELD_OUT, FRESH, FRESH2, FRESH3, FRESH4 = "tune", "held-out", "fresh", "fresh2", "fresh3", "fresh4"
DOCS_DEV = "docs-dev"
SPLITS = (TUNE, HELD_OUT, FRESH, FRESH2, FRESH3, FRESH4, DOCS_DEV)
BENCH = "bench:"  # prefix of a list question's source kept in this folder rather than in the shared corpus


@dataclass(frozen=True)
class Question:
    qid: str
    text: str
    split: str  # TUNE | HELD_OUT | FRESH | FRESH2 | FRESH3 | FRESH4 | DOCS_DEV (list questions added later)
    relevant: frozenset[str]  # source ids (BEIR doc id, or a list question's source path)
    gold: tuple[str, ...] = ()  # answer strings (CMRC); empty when judged by relevance only (SciFact)
    items: tuple[str, ...] = ()  # list questions: the gold items
    kind: str = "factoid"  # factoid | claim | list


@dataclass
class QuestionSet:
    name: str  # e.g. "cmrc", "cmrc-unanswerable"
    answerable: bool
    questions: list[Question]
    collection: str = ""  # which collection (a key of the harness's collection table) they are asked in
    notes: dict = field(default_factory=dict)


def cmrc_split(article_id: str) -> str:
    return TUNE if int(hashlib.md5(article_id.encode()).hexdigest(), 16) % 10 < 6 else HELD_OUT


def list_split(sources: list[str], source: str) -> str:
    """Half the source files TUNE, half HELD-OUT: sorted by path, even index TUNE."""
    return TUNE if sorted(set(sources)).index(source) % 2 == 0 else HELD_OUT


def source_path(source: str) -> Path:
    """The file of a list question's source: "bench:documents/x.txt" is under this folder, others in the corpus."""
    return HERE / source.removeprefix(BENCH) if source.startswith(BENCH) else CORPUS / source


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            parts = line.rstrip("\n").split("\t")
            if n == 0 and not parts[-1].lstrip("-").isdigit():
                continue  # header row
            qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    return qrels


def sample_per_split(questions: list[Question], per_split: int, seed: int) -> list[Question]:
    """`per_split` questions of each split, drawn with `seed` (the same draw on every tree and every run)."""
    out = []
    for split in (TUNE, HELD_OUT):
        pool = sorted((q for q in questions if q.split == split), key=lambda q: q.qid)
        out += random.Random(f"{seed}:{split}").sample(pool, min(per_split, len(pool)))
    return out


def cmrc_questions(folder: Path = CMRC) -> list[Question]:
    qrels = read_qrels(folder / "qrels" / "test.tsv")
    out = []
    for row in read_jsonl(folder / "queries.jsonl"):
        relevant = qrels.get(row["_id"], {})
        if len(relevant) != 1:
            continue
        (passage,) = relevant
        answers = tuple(a for a in row.get("metadata", {}).get("answers", []) if a.strip())
        if answers:
            out.append(Question(row["_id"], row["text"], cmrc_split(passage), frozenset(relevant), answers))
    return out


def scifact_questions(folder: Path = SCIFACT) -> list[Question]:
    """Claims with at least one relevant abstract; the claim text is the question."""
    queries = {row["_id"]: row["text"] for row in read_jsonl(folder / "queries.jsonl")}
    out = []
    for split, name in ((TUNE, "train"), (HELD_OUT, "test")):
        for qid, judged in read_qrels(folder / "qrels" / f"{name}.tsv").items():
            relevant = frozenset(d for d, grade in judged.items() if grade > 0)
            if relevant and qid in queries:
                out.append(Question(f"{split}:{qid}", queries[qid], split, relevant, kind="claim"))
    return out


def list_questions(path: Path = LISTS) -> list[Question]:
    data = json.loads(path.read_text(encoding="utf-8"))
    sources = [q["source"] for q in data["questions"] if "split" not in q]
    return [
        Question(
            q["id"],
            q["question"],
            q.get("split") or list_split(sources, q["source"]),
            frozenset([q["source"]]),
            items=tuple(q["items"]),
        )
        for q in data["questions"]
    ]


def with_kind(questions: list[Question], kind: str) -> list[Question]:
    return [Question(q.qid, q.text, q.split, q.relevant, q.gold, q.items, kind) for q in questions]


def removed_for(questions: list[Question]) -> set[str]:
    """The passages an unanswerable collection leaves out: every sampled question's own relevant ones."""
    return {doc for q in questions for doc in q.relevant}


# --- a SciFact subset small enough to embed on a shared 2-core machine -----------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
_STOP_WORDS = "a an and are as at be by for from has have in is it its of on or that the this to was were with "
_STOP = frozenset(_STOP_WORDS.split())


def _terms(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1]


def bm25_neighbours(docs: dict[str, str], queries: list[str], k: int, k1: float = 1.5, b: float = 0.75) -> set[str]:
    """The top `k` documents of each query under plain BM25: the topical neighbours that make a subset hard."""
    tokens = {doc: _terms(text) for doc, text in docs.items()}
    average = sum(len(t) for t in tokens.values()) / max(len(tokens), 1)
    postings: dict[str, list[tuple[str, int]]] = {}
    for doc, terms in tokens.items():
        for term, count in Counter(terms).items():
            postings.setdefault(term, []).append((doc, count))
    idf = {t: math.log(1 + (len(docs) - len(p) + 0.5) / (len(p) + 0.5)) for t, p in postings.items()}
    out: set[str] = set()
    for query in queries:
        scores: Counter[str] = Counter()
        for term in set(_terms(query)):
            for doc, tf in postings.get(term, ()):
                norm = tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(tokens[doc]) / average))
                scores[doc] += idf[term] * norm
        out.update(doc for doc, _ in scores.most_common(k))
    return out


def scifact_subset(docs: dict[str, str], questions: list[Question], size: int, neighbours: int, seed: int) -> list[str]:
    """Doc ids of a seeded subset: the claims' relevant abstracts, their BM25 neighbours, then random others up to
    `size`; in corpus order, so the same subset always makes the same collection (and hits the vector cache)."""
    keep = removed_for(questions) | bm25_neighbours(docs, [q.text for q in questions], neighbours)
    rest = sorted(set(docs) - keep)
    keep |= set(random.Random(seed).sample(rest, max(0, min(len(rest), size - len(keep)))))
    return [doc for doc in docs if doc in keep]


def write_beir_subset(source: Path, doc_ids: list[str], target: Path) -> Path:
    """A corpus.jsonl holding only `doc_ids` (in the source's order), for load_collection."""
    wanted = set(doc_ids)
    target.mkdir(parents=True, exist_ok=True)
    rows = [row for row in read_jsonl(source / "corpus.jsonl") if str(row["_id"]) in wanted]
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    path = target / "corpus.jsonl"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return target


def fingerprint(values) -> str:
    return hashlib.sha256("\n".join(sorted(values)).encode()).hexdigest()[:10]
