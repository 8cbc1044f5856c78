"""Keyword retrieval: the analyzer, BM25 scoring against hand-computed numbers, filtering, removal, persistence,
and quality floors on SciFact and CMRC 2018. No database: everything here is pure Python and numpy."""

from __future__ import annotations

from pathlib import Path

import pytest

from apps.evaluation.ranking import evaluate, ndcg_at
from apps.retrieval.keyword import analyzer
from apps.retrieval.keyword.analyzer import query_terms, terms
from apps.retrieval.keyword.bm25 import BM25Index

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
SCIFACT = CORPUS / "beir-scifact"
CMRC = CORPUS / "zh-cmrc2018" / "retrieval"


# ---- analyzer ----------------------------------------------------------------------------------------------
def test_english_is_lowercased_stemmed_and_stop_words_dropped():
    assert terms("The Running studies of the cells") == ["run", "studi", "cell"]
    assert terms("running RUNS ran") == ["run", "run", "ran"]  # Snowball is a stemmer, not a lemmatiser
    assert terms("what is it that they have been doing") == []
    assert terms("Café naïve") == ["cafe", "naiv"]


def test_numbers_and_alphanumeric_names_are_kept():
    assert terms("In 2019, 3.5 mg of p53 and H1N1 for 1,000 patients") == [
        "2019",
        "3.5",
        "mg",
        "p53",
        "h1n1",
        "1000",
        "patient",
    ]
    assert terms("figures 1,2") == ["figur", "1", "2"]


def test_chinese_becomes_character_bigrams():
    assert terms("北京大学") == ["北京", "京大", "大学"]
    assert terms("猫") == ["猫"]  # a lone character stays searchable
    assert terms("我爱北京。天安门") == ["我爱", "爱北", "北京", "天安", "安门"]  # punctuation cuts the run


def test_mixed_text_and_full_width_forms():
    assert terms("使用DNA测序分析") == ["使用", "dna", "测序", "序分", "分析"]
    assert terms("ＤＮＡ测序２０１９年") == ["dna", "测序", "2019", "年"]
    assert terms("The 研究 of proteins") == ["研究", "protein"]


def test_query_terms_are_unique_in_order_and_deterministic():
    assert query_terms("cells cell CELLS protein") == ["cell", "protein"]
    text = "蛋白质折叠 protein folding 蛋白质 2024"
    assert query_terms(text) == query_terms(text) == ["蛋白", "白质", "质折", "折叠", "protein", "fold", "2024"]


# ---- BM25 --------------------------------------------------------------------------------------------------
def small_index(k1: float = 1.2, b: float = 0.75) -> BM25Index:
    index = BM25Index(k1=k1, b=b)
    index.add_terms("d1", ["a", "b", "a"])
    index.add_terms("d2", ["b", "c"])
    index.add_terms("d3", ["c", "c", "c", "d"])
    return index


def test_scores_match_a_hand_computed_example():
    # N = 3, avgdl = 3, k1 = 1.2, b = 0.75.
    # idf(a) = ln(1 + (3 - 1 + 0.5) / 1.5) = ln(2.6667) = 0.980829;  idf(c) = ln(1 + 1.5 / 2.5) = ln(1.6) = 0.470004
    # d1: a tf 2, |d| 3 → K = 1.2 * (0.25 + 0.75 * 3/3) = 1.2 → 0.980829 * 2 * 2.2 / 3.2 = 1.348640
    # d3: c tf 3, |d| 4 → K = 1.2 * (0.25 + 0.75 * 4/3) = 1.5 → 0.470004 * 3 * 2.2 / 4.5 = 0.689339
    # d2: c tf 1, |d| 2 → K = 1.2 * (0.25 + 0.75 * 2/3) = 0.9 → 0.470004 * 1 * 2.2 / 1.9 = 0.544215
    results = small_index().search_terms(["a", "c", "a"], top_k=10)
    assert [doc_id for doc_id, _ in results] == ["d1", "d3", "d2"]
    assert [score for _, score in results] == pytest.approx([1.348640, 0.689339, 0.544215], abs=1e-6)
    assert small_index().idf("a") == pytest.approx(0.980829, abs=1e-6)
    assert small_index().idf("never-seen") == 0.0


def test_k1_and_b_change_the_scores_as_the_formula_says():
    # b = 0: no length normalisation, so d2 (tf 1) scores idf * 2.2 / 2.2 = idf whatever its length.
    results = dict(small_index(b=0.0).search_terms(["c"]))
    assert results["d2"] == pytest.approx(0.470004, abs=1e-6)


def test_search_analyses_the_query_and_top_k_cuts():
    index = BM25Index()
    index.add_many([(1, "Protein folding in cells"), (2, "蛋白质折叠的研究"), (3, "Stock markets fell")])
    assert [doc_id for doc_id, _ in index.search("folded proteins", top_k=5)] == [1]
    assert [doc_id for doc_id, _ in index.search("蛋白质", top_k=5)] == [2]
    assert index.search("nothing matches zzz") == []
    assert index.search("protein", top_k=0) == []
    assert len(index.search("protein folding 蛋白质折叠 stock", top_k=2)) == 2


def test_ties_are_broken_by_insertion_order():
    index = BM25Index()
    for doc_id in ["z", "y", "x"]:
        index.add(doc_id, "identical text about enzymes")
    assert [doc_id for doc_id, _ in index.search("enzymes", top_k=2)] == ["z", "y"]


def test_allowed_ids_filter_both_ways_round():
    index = BM25Index()
    index.add_many((f"doc{i}", f"enzyme kinetics sample {i}") for i in range(50))
    index.add("other", "unrelated geology text")
    # A small allowed set (walked directly) and a large one (walked through the scored documents).
    assert {d for d, _ in index.search("enzyme", top_k=100, allowed_ids={"doc3", "doc7", "missing"})} == {
        "doc3",
        "doc7",
    }
    large = {f"doc{i}" for i in range(0, 50, 2)} | {f"x{i}" for i in range(100)}
    assert {d for d, _ in index.search("enzyme", top_k=100, allowed_ids=large)} == {f"doc{i}" for i in range(0, 50, 2)}
    assert index.search("enzyme", allowed_ids=set()) == []
    assert index.search("geology", allowed_ids={"doc1"}) == []


def test_remove_and_replace_update_scores_and_statistics():
    index = small_index()
    assert index.remove("d1") and not index.remove("d1")
    assert "d1" not in index and len(index) == 2
    assert index.search_terms(["a"]) == []
    assert index.idf("a") == 0.0
    # Now N = 2 and c is in both documents: idf(c) = ln(1 + 0.5 / 2.5) = ln(1.2).
    assert index.idf("c") == pytest.approx(0.182322, abs=1e-6)
    index.add_terms("d3", ["a"])  # same id: replaces the old d3
    assert [d for d, _ in index.search_terms(["a"])] == ["d3"]
    assert [d for d, _ in index.search_terms(["c"])] == ["d2"]


def test_incremental_adds_and_removals_match_a_fresh_build():
    docs = [(i, f"sample {i % 7} enzyme {'kinase' if i % 3 else 'protease'} assay {i % 11}") for i in range(400)]
    bulk = BM25Index()
    bulk.add_many(docs[:300])
    for doc_id, text in docs[300:]:  # small next to the index: these go to the pending lists
        bulk.add(doc_id, text)
    for doc_id in range(0, 400, 5):
        bulk.remove(doc_id)
    fresh = BM25Index()
    fresh.add_many(d for d in docs if d[0] % 5)
    for query in ["kinase assay 3", "protease sample 6", "enzyme 10"]:
        got, want = bulk.search(query, top_k=20), fresh.search(query, top_k=20)
        assert [d for d, _ in got] == [d for d, _ in want]
        assert [s for _, s in got] == pytest.approx([s for _, s in want])
    bulk._rebuild()  # dropping dead slots renumbers documents; results must not move
    got, want = bulk.search("kinase assay 3", top_k=20), fresh.search("kinase assay 3", top_k=20)
    assert [d for d, _ in got] == [d for d, _ in want]
    assert [s for _, s in got] == pytest.approx([s for _, s in want])


def test_round_trip_through_bytes():
    index = BM25Index(k1=1.5, b=0.6)
    index.add_many([("a", "protein folding"), (7, "蛋白质折叠"), ("c", "cell biology 2020")])
    index.remove("c")
    blob = index.to_bytes()
    assert isinstance(blob, bytes) and b"pickle" not in blob
    loaded = BM25Index.from_bytes(blob)
    assert (loaded.k1, loaded.b, len(loaded)) == (1.5, 0.6, 2)
    for query in ["protein", "蛋白质", "cell"]:
        assert loaded.search(query) == index.search(query)
    loaded.add("d", "protein design")
    assert {d for d, _ in loaded.search("protein")} == {"a", "d"}


def test_bytes_from_another_analyzer_version_are_refused(monkeypatch):
    index = BM25Index()
    index.add("a", "text")
    blob = index.to_bytes()
    monkeypatch.setattr(analyzer, "ANALYZER_VERSION", "kw-0")
    with pytest.raises(ValueError, match="analyzer"):
        BM25Index.from_bytes(blob)
    assert len(BM25Index.from_bytes(blob, check_analyzer=False)) == 1


def test_only_json_ids_can_be_saved():
    index = BM25Index()
    index.add(("tuple", 1), "text")
    with pytest.raises(TypeError):
        index.to_bytes()


def test_ndcg_uses_linear_gains_and_the_ideal_ranking():
    assert ndcg_at(["x", "a"], {"a": 1}) == pytest.approx(1 / 1.5849625)
    assert ndcg_at([], {"a": 1}) == 0.0


# ---- quality floors (the whole test split: about 10 s here) -------------------------------------------------
@pytest.mark.usefixtures("shared_corpus")
def test_scifact_quality_floor():
    result = evaluate(SCIFACT, k1=1.2, b=0.75)
    assert result.queries == 300
    assert result.ndcg_at_10 >= 0.66 and result.recall_at_100 >= 0.90


@pytest.mark.usefixtures("shared_corpus")
def test_cmrc_quality_floor():
    result = evaluate(CMRC, k1=1.2, b=0.75)
    assert result.queries == 3219
    assert result.ndcg_at_10 >= 0.95
