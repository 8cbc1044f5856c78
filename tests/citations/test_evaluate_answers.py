"""The answer evaluation harness of issue 15 (bench/answers): its metrics and its development data, on tiny inputs.

Each test pins a figure a wrong metric would get wrong: the first claim judged apart from the whole answer,
unanswered questions counted against every 'holds' share, whitespace from PDF line breaks ignored, the
non-sentence detector's four reasons, the TUNE / HELD-OUT rules and the honest unanswerable collection.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "answers"


def _harness():
    """bench/answers/evaluate.py, loaded from its file (bench/ is not a package); it imports its datasets.py."""
    spec = importlib.util.spec_from_file_location("bench_answers_evaluate", BENCH / "evaluate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


evaluate = _harness()
datasets = evaluate.datasets
judging = evaluate.judging
Question = datasets.Question


def _result(sentences, citations, answered=True):
    """A finish event's data, as service.ask() returns it: the answer is the sentences joined."""
    return {
        "answer": " ".join(s["text"] for s in sentences),
        "answered": answered,
        "sentences": [{"supported": True, **s} for s in sentences],
        "citations": citations,
        "composer": "extractive",
        "diagnostics": {"composer_fallback": ""},
    }


def _citation(n, document_id, title="A paper", headings=()):
    return {"n": n, "document_id": document_id, "title": title, "heading_path": list(headings)}


QUESTION = Question("q1", "How many died?", datasets.TUNE, frozenset({"P1"}), gold=("10人",))


def test_the_first_claim_is_judged_apart_from_the_answer():
    result = _result(
        [
            {"text": "该地区发生了一起公交车事故，引起了广泛关注。 [1]", "citations": [1]},
            {"text": "事故共造成10人死亡，另有多人受伤。 [2]", "citations": [2]},
        ],
        [_citation(1, 7), _citation(2, 8)],
    )
    row = judging.judge(result, QUESTION, {7: "P9", 8: "P1"})
    assert row["contains_gold"] is True
    assert row["first_claim_gold"] is False
    assert row["cited_relevant"] is True  # [2] is the relevant passage
    assert row["first_claim_relevant"] is False  # the first claim cites P9
    assert row["claims"] == 2


def test_the_first_claim_is_the_first_sentence_with_citations():
    result = _result(
        [
            {"text": "The documents do not fully answer this.", "citations": []},
            {"text": "Ten people died. [1]", "citations": [1]},
        ],
        [_citation(1, 8)],
    )
    question = Question("q2", "How many died?", datasets.TUNE, frozenset({"P1"}), gold=("ten people",))
    row = judging.judge(result, question, {8: "P1"})
    assert row["first_claim_gold"] is True and row["first_claim_relevant"] is True


def test_an_abstention_is_judged_with_no_claims():
    result = _result([{"text": "The documents in this collection do not answer this.", "citations": []}], [])
    row = judging.judge({**result, "answered": False}, QUESTION, {})
    assert row["answered"] is False and row["claims"] == 0 and row["non_sentence"] == []


def test_a_lead_in_claim_is_judged_with_the_item_claim_after_it():
    result = _result(
        [
            {"text": "This paper contributes: [1]", "citations": [1]},
            {"text": "(1) A prototype reading tool [1]", "citations": [1]},
            {"text": "Keywords: [1]", "citations": [1]},
        ],
        [_citation(1, 8)],
    )
    row = judging.judge(result, QUESTION, {8: "P1"})
    assert [n["text"] for n in row["non_sentence"]] == ["Keywords: [1]"]


def test_gold_is_found_across_line_breaks_markers_and_case():
    assert judging.contains_any("光荣和\nω-force 开发 [1]。", ["光荣和ω-force"])
    assert judging.contains_any("the Barbary\n lion [2] is extinct", ["barbary lion is"])
    assert judging.contains_any("satis- faction with care", ["satisfaction with care"])
    assert not judging.contains_any("光荣开发", ["光荣和ω-force"])
    assert not judging.contains_any("anything", [""])  # an empty gold answer never matches


def test_answer_length_counts_characters_without_markers():
    result = _result([{"text": "Ten people died. [1]", "citations": [1]}], [_citation(1, 8)])
    assert judging.judge(result, QUESTION, {})["length"] == len("Ten people died.")


def test_list_item_recall_is_the_share_of_gold_items_named():
    answer = "The networks are: • Management network [1] • High-perfor-\nmance networks [1]"
    items = ["Management network", "High-performance networks", "Auxiliary networks"]
    assert judging.item_recall(answer, items) == pytest.approx(2 / 3)
    assert judging.item_recall(
        "①学校有权\n保管 ②学校可以公布", ["学校有权保管", "学校可以公布", "学校可允许"]
    ) == pytest.approx(2 / 3)
    assert judging.item_recall("anything", []) is None


def test_summary_counts_unanswered_questions_against_every_share():
    rows = [
        {
            **judging.judge(
                _result([{"text": "事故共造成10人死亡。 [1]", "citations": [1]}], [_citation(1, 8)]),
                QUESTION,
                {8: "P1"},
            ),
            "seconds": 1.0,
        },
        # Abstained: the gold is in the note's passages, but an abstention is not an answer holding it.
        {
            **judging.judge(
                _result([{"text": "10人 [1]", "citations": [1]}], [_citation(1, 8)], answered=False),
                QUESTION,
                {8: "P1"},
            ),
            "seconds": 3.0,
        },
    ]
    summary = judging.summarise(rows, answerable=True)
    assert summary["answered"] == 0.5 and summary["abstained"] == 0.5
    assert summary["first_claim_gold"] == 0.5
    assert summary["contains_gold"] == 0.5  # the abstention's text holds "10人", but it is no answer
    assert summary["cited_relevant"] == 0.5
    assert summary["median_length"] == len("事故共造成10人死亡。")  # of answered questions only
    assert summary["p50_seconds"] == 2.0
    assert summary["non_sentence_claims"] == 1  # "10人" is a fragment
    unanswerable = judging.summarise(rows, answerable=False)
    assert "first_claim_gold" not in unanswerable and unanswerable["abstained"] == 0.5


@pytest.mark.parametrize(
    ("claim", "headings", "reason"),
    [
        ("Barbary lion, Panthera leo, Extinction, Ancient DNA [1]", (), "no_end"),
        ("…引用名为”Document Preparation [1]", (), "no_end"),
        ("The lion was hunted to extinction in North Africa.. [1]", (), "dots"),
        ("Results. [1]", (), "short"),
        ("The results were clearly significant. [1]", (), "short"),  # three content terms
        (
            "Revealing the maternal demographic history of Panthera leo using ancient DNA. [1]",
            ("Revealing the maternal demographic history of Panthera leo using ancient DNA",),
            "heading",
        ),
        ("The Barbary lion was hunted to extinction in North Africa by the 1960s. [1]", ("Barbary lion",), ""),
        ("• Validating and checking firmware [2]", (), ""),
        ("1. Healthcare researchers: professionals working in clinical research [3]", (), ""),
        ("事故共造成10人死亡，另有多人受伤。 [1]", (), ""),
        (
            "Examples of compute node sanitization include: [1] • Conducting a node health check [1] • Resetting GPUs",
            (),
            "",
        ),
        ("Prior to running GROBID, we filter out PDFs that [1]\n(i) produce an error when processed [1]", (), "no_end"),
        (
            "本人了解学校有关使用论文的规定，其中包括： [1]\n①学校有权保管 [1]；\n②学校可以公布论文 [1]。",
            (),
            "",
        ),
        ("《战国无双3》是由光荣和ω-force开发的战国无双系列的正统第三续作 [1]", (), "no_end"),
        # A short lead-in reads on into its first item; a label over a term does not make a sentence.
        ("This paper contributes: [1]\n(1) A prototype scientific paper reading tool, CiteSee. [1]", (), ""),
        ("Keywords: [1]\n- Afforestation [1];\n- Flow duration curves [1];", (), "short"),
        ("注： [1]\n1）运行latex 后右边自动显示pdf [1]；", (), "short"),
        ("1）运行latex 后右边自动显示pdf [1]；\n2）按住ctrl 双击也可显示pdf [1]；", (), ""),
        ("- 1: Semantically partition edges CE = {E1, ..., EM} [1]", (), ""),  # the source's own ellipsis
        ("The lion was hunted to extinction in North Africa... [1]", (), "dots"),
    ],
)
def test_the_non_sentence_detector(claim, headings, reason):
    assert judging.non_sentence_reason(claim, headings) == reason


def test_a_lead_in_claim_reads_on_into_the_item_claim_after_it():
    assert judging.non_sentence_reason("This paper contributes: [1]") == "short"
    assert judging.non_sentence_reason("This paper contributes: [1]", (), "(1) A prototype reading tool [1]") == ""
    assert judging.non_sentence_reason("Keywords: [1]", (), "- Afforestation [1];") == "short"
    assert judging.non_sentence_reason("This paper contributes: [1]", (), "It is new. [1]") == "short"


def test_a_claim_identical_to_its_cited_sources_heading_is_counted():
    result = _result(
        [
            {"text": "Smokers were recruited through community outreach in three cities. [1]", "citations": [1]},
            {"text": "Lessons learned from recruiting socioeconomically disadvantaged smokers. [1]", "citations": [1]},
        ],
        [_citation(1, 8, "Lessons learned from recruiting socioeconomically disadvantaged smokers", ["Methods"])],
    )
    row = judging.judge(result, QUESTION, {8: "P1"})
    assert [n["reason"] for n in row["non_sentence"]] == ["heading"]


def test_cmrc_split_follows_the_md5_rule():
    # md5("DEV_0") % 10 == 8, md5("DEV_1") % 10 == 6, md5("DEV_2") % 10 == 0, md5("DEV_10") % 10 == 4
    assert [datasets.cmrc_split(a) for a in ("DEV_0", "DEV_1", "DEV_2", "DEV_10")] == [
        datasets.HELD_OUT,
        datasets.HELD_OUT,
        datasets.TUNE,
        datasets.TUNE,
    ]


def test_list_split_takes_even_indexes_of_the_sorted_files_as_tune():
    sources = ["b.pdf", "a.pdf", "d.pdf", "c.pdf", "a.pdf"]
    assert [datasets.list_split(sources, s) for s in ("a.pdf", "b.pdf", "c.pdf", "d.pdf")] == [
        datasets.TUNE,
        datasets.HELD_OUT,
        datasets.TUNE,
        datasets.HELD_OUT,
    ]


def test_the_list_questions_are_split_by_source_file():
    questions = datasets.list_questions()
    by_source = {}
    for q in questions:
        by_source.setdefault(next(iter(q.relevant)), set()).add(q.split)
    assert all(len(splits) == 1 for splits in by_source.values())  # a file's questions never straddle the split
    assert {s for splits in by_source.values() for s in splits} == {
        datasets.TUNE,
        datasets.HELD_OUT,
        datasets.FRESH,
        datasets.FRESH2,
        datasets.FRESH3,
        datasets.FRESH4,
        datasets.DOCS_DEV,
    }
    assert all(q.items for q in questions) and len(questions) >= 15
    kept = [s for s in by_source if s.startswith(datasets.BENCH)]  # documents kept in bench/answers/documents/
    assert kept and all(datasets.source_path(s).is_file() for s in kept)


def test_sampling_is_seeded_and_per_split():
    pool = [
        Question(f"q{n}", "?", datasets.TUNE if n % 3 else datasets.HELD_OUT, frozenset({f"P{n}"})) for n in range(30)
    ]
    first = datasets.sample_per_split(pool, 5, seed=1)
    assert first == datasets.sample_per_split(list(reversed(pool)), 5, seed=1)  # order of the pool does not matter
    assert sum(q.split == datasets.TUNE for q in first) == 5 and sum(q.split == datasets.HELD_OUT for q in first) == 5
    assert first != datasets.sample_per_split(pool, 5, seed=2)


def test_cmrc_questions_carry_their_passage_and_gold(tmp_path):
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nDEV_2_QUERY_0\tDEV_2\t1\nDEV_0_QUERY_0\tDEV_0\t1\n"
    )
    rows = [
        {"_id": "DEV_2_QUERY_0", "text": "谁开发的？", "metadata": {"answers": ["光荣", " "]}},
        {"_id": "DEV_0_QUERY_0", "text": "哪一年？", "metadata": {"answers": ["2011年"]}},
        {"_id": "DEV_9_QUERY_0", "text": "没有判断", "metadata": {"answers": ["x"]}},
    ]
    (tmp_path / "queries.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    questions = {q.qid: q for q in datasets.cmrc_questions(tmp_path)}
    assert set(questions) == {"DEV_2_QUERY_0", "DEV_0_QUERY_0"}  # a question without a judged passage is left out
    assert questions["DEV_2_QUERY_0"].gold == ("光荣",) and questions["DEV_2_QUERY_0"].relevant == {"DEV_2"}
    assert questions["DEV_2_QUERY_0"].split == datasets.TUNE and questions["DEV_0_QUERY_0"].split == datasets.HELD_OUT


def test_the_unanswerable_collection_leaves_out_exactly_the_questions_own_passages():
    questions = [
        Question("a", "?", datasets.TUNE, frozenset({"P1"})),
        Question("b", "?", datasets.HELD_OUT, frozenset({"P2", "P3"})),
    ]
    assert datasets.removed_for(questions) == {"P1", "P2", "P3"}


def test_bm25_neighbours_are_the_topical_documents():
    docs = {
        "1": "vitamin d deficiency and bone fractures in older adults",
        "2": "bone fractures after falls",
        "3": "graphene transistors at room temperature",
        "4": "vitamin d receptor polymorphism",
    }
    assert datasets.bm25_neighbours(docs, ["vitamin d deficiency fractures"], k=1) == {"1"}
    assert "3" not in datasets.bm25_neighbours(docs, ["vitamin d deficiency fractures"], k=3)
    assert datasets.bm25_neighbours(docs, ["vitamin d deficiency fractures", "graphene"], k=1) == {"1", "3"}


def test_the_scifact_subset_keeps_relevant_and_neighbours_and_stays_in_corpus_order():
    docs = {str(n): f"topic{n % 5} filler words number {n}" for n in range(40)}
    docs["17"] = "aspirin heart attack risk reduction"
    docs["3"] = "aspirin and heart attack in diabetes"
    claim = Question("c", "aspirin reduces heart attack risk", datasets.TUNE, frozenset({"17"}))
    subset = datasets.scifact_subset(docs, [claim], size=10, neighbours=2, seed=4)
    assert len(subset) == 10 and {"17", "3"} <= set(subset)
    assert subset == [d for d in docs if d in set(subset)]
    assert subset == datasets.scifact_subset(docs, [claim], size=10, neighbours=2, seed=4)


def test_the_combined_table_puts_baseline_beside_current():
    run = {"set": "cmrc", "split": "tune", "depth": "quick", "composer": "extractive"}
    combined = {
        "date": "2026-12-02",
        "machine": "test",
        "baseline": {"code_commit": "4f616b4", "runs": [{**run, "summary": {"questions": 4, "abstained": 0.0}}]},
        "current": {
            "code_commit": "abc",
            "runs": [{**run, "summary": {"questions": 4, "abstained": 0.75, "p50_seconds": 0.5}}],
        },
    }
    table = judging.markdown(combined)
    assert "| cmrc | tune | quick | extractive | 4 |" in table
    assert "0% → 75%" in table and "– → 0.5 |" in table  # shares as percentages, seconds as seconds


def test_answers_the_fallback_composer_wrote_are_counted_apart():
    good = judging.judge(
        _result([{"text": "事故共造成10人死亡。 [1]", "citations": [1]}], [_citation(1, 8)]), QUESTION, {8: "P1"}
    )
    fallback = _result([{"text": "无关的句子在这里出现了。 [1]", "citations": [1]}], [_citation(1, 9)])
    fallback["diagnostics"]["composer_fallback"] = "llm unavailable (timeout); answered from the evidence instead"
    rows = [{**good, "seconds": 1.0}, {**judging.judge(fallback, QUESTION, {9: "P9"}), "seconds": 1.0}]
    summary = judging.summarise(rows, answerable=True)
    assert summary["questions"] == 1 and summary["composer_fallbacks"] == 1
    assert summary["first_claim_gold"] == 1.0


def test_the_factoid_figure_counts_only_questions_classify_reads_as_factoid_kinds():
    # The issue's goal is on answerable factoid questions: each row carries classify()'s kind, and the factoid
    # share is the first-claim share over those rows alone (a "what does it look like" question is not one).
    factoid = Question("q1", "这次事故造成多少人死亡？", datasets.TUNE, frozenset({"P1"}), gold=("10人",))
    other = Question("q2", "这次事故的情况怎么样？", datasets.TUNE, frozenset({"P1"}), gold=("翻车",))
    answer = _result([{"text": "事故共造成10人死亡，另有多人受伤。 [1]", "citations": [1]}], [_citation(1, 8)])
    rows = [
        {**judging.judge(answer, factoid, {8: "P1"}), "seconds": 1.0},
        {**judging.judge(answer, other, {8: "P1"}), "seconds": 1.0},
    ]
    assert [(r["kind"], r["factoid"]) for r in rows] == [("number", True), ("how", False)]
    summary = judging.summarise(rows, answerable=True)
    assert summary["first_claim_gold"] == 0.5
    assert summary["first_claim_gold_factoid"] == 1.0 and summary["factoid_questions"] == 1


def test_a_side_without_kinds_takes_them_from_the_other_side():
    # The baseline tree has no classify(): its rows get the current side's kinds, so both count the same questions.
    row = {"id": "q1", "split": datasets.TUNE, "kind": None, "factoid": None}
    sides = {
        "baseline": {"questions": [{"set": "cmrc", "rows": [dict(row)]}]},
        "current": {"questions": [{"set": "cmrc", "rows": [{**row, "kind": "date", "factoid": True}]}]},
    }
    judging.share_kinds(sides)
    assert sides["baseline"]["questions"][0]["rows"][0]["kind"] == "date"
    assert sides["baseline"]["questions"][0]["rows"][0]["factoid"] is True
