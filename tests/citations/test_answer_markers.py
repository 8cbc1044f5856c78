"""Citation markers in generated answers, and the citation object's pieces (ids, quotes). No database."""

from __future__ import annotations

import pytest

from apps.citations.answers.citation import best_quote, citation_id, from_hit
from apps.citations.answers.markers import clean_markers, markers_in
from apps.documents.parsing.passage_text import sentences
from tests.citations.hit_factory import make_hit as _hit


@pytest.mark.parametrize(
    "raw,valid,expected,order",
    [
        ("Lions moved south [2]. They spread [1].", {1, 2}, "Lions moved south [1]. They spread [2].", [2, 1]),
        ("A [1, 2] and B [2-3].", {1, 2, 3}, "A [1][2] and B [2][3].", [1, 2, 3]),
        ("A [citation:2] and B 【1】 and C [^2].", {1, 2}, "A [1] and B [2] and C [1].", [2, 1]),
        ("Made up [7]. Real [1].", {1, 2}, "Made up. Real [1].", [1]),
        ("Twice [1][1] and [1] [1].", {1}, "Twice [1] and [1].", [1]),
        ("Not markers: [sic], [a], [1-300], [x1].", {1}, "Not markers: [sic], [a], [1-300], [x1].", []),
        ("中文句子【2】。另一句[1]。", {1, 2}, "中文句子[1]。另一句[2]。", [2, 1]),
        ("Mixed [2, 9].", {2}, "Mixed [1].", [2]),
    ],
)
def test_markers_are_normalised_validated_and_renumbered(raw, valid, expected, order):
    cleaned = clean_markers(raw, valid)
    assert cleaned.text == expected
    assert cleaned.order == order


def test_removed_markers_are_reported():
    cleaned = clean_markers("A [4]. B [1, 5].", {1})
    assert cleaned.removed == ["[4]", "[1, 5]"]
    assert cleaned.text == "A. B [1]."


def test_cleaning_removes_a_space_a_marker_left_before_punctuation_but_not_one_that_is_text():
    assert clean_markers("India [3] . Next [9] , and more [2] .", {2}).text == "India. Next, and more [1]."
    # A quoted sentence must stay verbatim: the space before "./img/" or ".5" is the source's own.
    quoted = "你可以把你的图放到如下子目录下(./image/, ./img/, ./figure/) [2]。"
    assert clean_markers(quoted, {2}).text == quoted.replace("[2]", "[1]")
    assert clean_markers("A value of .5 was used [2].", {2}).text == "A value of .5 was used [1]."


def test_chunk_id_references_map_to_their_evidence_number():
    cleaned = clean_markers("From the paper [ref:9001] and [ref:42].", {1, 2}, chunk_numbers={9001: 2, 7: 1})
    assert cleaned.text == "From the paper [1] and."
    assert cleaned.order == [2] and cleaned.removed == ["[ref:42]"]


def test_markers_in_clean_text():
    assert markers_in("a [1] b [2][1] c") == [1, 2, 1]


def test_citation_ids_are_short_stable_and_distinct():
    first = citation_id(3, 17, 0)
    assert first == citation_id(3, 17, 0) and len(first) == 6 and first.isalnum() and first.islower()
    assert len({citation_id(3, 17, k) for k in range(50)} | {citation_id(4, 17, 0)}) == 51


def test_sentences_split_english_and_chinese():
    assert sentences("One. Two? 3.5 stays. 第一句。第二句！") == ["One.", "Two?", "3.5 stays.", "第一句。", "第二句！"]


def test_the_quote_is_the_sentence_that_supports_the_claim():
    text = "Lions lived across Eurasia. Ancient DNA shows a southern origin of modern lions. The study used 52 samples."
    quote = best_quote(text, "where did modern lions originate according to ancient DNA")
    assert "Ancient DNA shows a southern origin of modern lions." in quote
    assert "52 samples" not in quote  # a neighbour joins only when it shares terms with the claim
    assert best_quote(text, "nothing in common here", max_chars=40) == "Lions lived across Eurasia."
    assert len(best_quote(text * 20, "lions", max_chars=60)) <= 60


def test_a_citation_from_a_hit_has_the_design_fields():
    data = from_hit(_hit(), n=1, quote="Full text.").as_dict()
    for key in (
        "n",
        "citation_id",
        "chunk_id",
        "chunk_index",
        "document_id",
        "collection",
        "title",
        "authors",
        "year",
        "journal",
        "doi",
        "source",
        "doc_type",
        "section",
        "heading_path",
        "quote",
        "content",
        "chunk_type",
        "locator_precision",
        "locator_degraded",
        "page",
        "page_end",
        "rects",
        "page_size",
        "para_start",
        "para_end",
        "score",
        "score_source",
        "viewer_url",
        "citations_out",
    ):
        assert key in data, key
    assert data["page"] == 4 and data["content"] == "c" and data["citation_id"] == citation_id(9, 5, 0)
    docx = from_hit(_hit(doc_type="docx", page=None, page_end=None, locator_precision="paragraph"), 2, "q")
    assert docx.page is None and docx.n == 2


def test_copied_evidence_wrapping_is_not_left_in_the_answer():
    raw = "[kb 1 begin]\nLions live in Gir [1].\ncite as [2]\n[kb 1 end] 【kb 2 end】"
    assert clean_markers(raw, {1, 2}).text == "Lions live in Gir [1]."


def test_a_quote_leaves_out_the_heading_glued_to_the_chunks_first_sentence():
    hit = _hit(section="Conclusions", heading_path=["Conclusions"], text="Conclusion Ancient DNA shows lions moved.")
    assert from_hit(hit, 1, quote="Conclusion Ancient DNA shows lions moved.").quote == "Ancient DNA shows lions moved."
    assert from_hit(hit, 1, quote="Ancient DNA shows lions moved.").quote == "Ancient DNA shows lions moved."
