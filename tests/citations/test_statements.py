"""The statement gate (answers.statements): a claim to check is answered only by evidence that states it.

Real SciFact claims and abstracts (../shared/corpus/beir-scifact) with the real embedding model: the claim's own
abstract among its on-topic neighbours (the ones retrieval gave in the issue-15 evaluation's collection) is cited
first; the neighbours alone, on the topic but not stating it, make the composer abstain. The collection's idf is
that of the abstracts the test reads (a small collection of its own), as the BM25 index would give it.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from apps.citations.answers import statements
from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.question import classify
from apps.citations.answers.types import ComposeRequest, Evidence
from apps.retrieval.keyword.analyzer import terms
from tests.citations.hit_factory import make_hit

# SciFact train claims (TUNE). 944: its relevant abstract 1642727 and the neighbours retrieval ranked beside it.
ACTIVITY = "Physical activity does not improve cognitive function in individuals with Alzheimers."
ACTIVITY_RELEVANT = "1642727"
ACTIVITY_NEIGHBOURS = ["21274919", "24285403", "14682243", "37583120"]
# 96: its relevant abstract (14500725) removed; what is left is on emigrating African physicians, not Algerians.
PHYSICIANS = (
    "Algerian physicians constitue the largest component of sub-Saharan Africa-trained physicians in the United States."
)
PHYSICIANS_NEIGHBOURS = ["3662510", "18268012", "581832"]


@pytest.fixture(scope="module")
def abstracts(shared_corpus: Path) -> dict[str, tuple[str, str]]:
    wanted = {ACTIVITY_RELEVANT, *ACTIVITY_NEIGHBOURS, *PHYSICIANS_NEIGHBOURS}
    found = {}
    with (shared_corpus / "beir-scifact" / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["_id"] in wanted:
                found[row["_id"]] = (row["title"], row["text"])
    assert set(found) == wanted
    return found


@pytest.fixture
def collection_idf(abstracts, monkeypatch):
    """BM25's idf over the test's abstracts, in place of the collection index the service would read."""
    df: Counter[str] = Counter()
    for title, text in abstracts.values():
        df.update(set(terms(f"{title} {text}")))
    n = len(abstracts)

    def idf(term: str) -> float:
        return math.log(1.0 + (n - df.get(term, 0) + 0.5) / (df.get(term, 0) + 0.5))

    monkeypatch.setattr(statements, "collection_idf", lambda evidence: idf)
    return idf


def _compose(embedder, claim: str, ids: list[str], abstracts) -> tuple[str, list[int]]:
    evidence = [
        Evidence(
            i + 1,
            make_hit(
                chunk_id=100 + i,
                document_id=int(doc),
                title=abstracts[doc][0],
                text=abstracts[doc][1],
                section="",
                heading_path=[],
            ),
        )
        for i, doc in enumerate(ids)
    ]
    composer = ExtractiveComposer(embedder=embedder)
    text = "".join(p for p in composer.stream(ComposeRequest(claim, evidence, language="en")) if isinstance(p, str))
    cited = [evidence[int(n) - 1].hit.document_id for n in re.findall(r"\[(\d+)\]", text)]
    return text, cited


def test_a_statement_is_answered_by_the_abstract_that_states_it(embedder, abstracts, collection_idf):
    text, cited = _compose(embedder, ACTIVITY, [ACTIVITY_RELEVANT, *ACTIVITY_NEIGHBOURS], abstracts)
    assert text, "the claim's own abstract is in the evidence: the composer must answer"
    assert cited[0] == int(ACTIVITY_RELEVANT)


def test_a_statement_on_topical_evidence_that_does_not_state_it_abstains(embedder, abstracts, collection_idf):
    text, _ = _compose(embedder, PHYSICIANS, PHYSICIANS_NEIGHBOURS, abstracts)
    assert text == ""


@pytest.mark.parametrize(
    "text, statement",
    [
        (ACTIVITY, True),
        ("Aspirin reduces colorectal cancer risk", True),
        ("吸烟会增加患肺癌的风险。", True),
        ("苏轼是北宋著名的文学家。", True),
        ("Does aspirin reduce the risk of cancer?", False),
        ("Tell me about aspirin", False),
        ("How many people died in the crash?", False),
        ("苏轼是哪个朝代的文学家", False),
        ("印控克什米尔地区寺庙踩踏事故死亡人数", False),
    ],
)
def test_only_declarative_claims_are_statements(text, statement):
    assert statements.is_statement(classify(text)) is statement
