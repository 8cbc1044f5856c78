"""Lists that run across chunks and pages of real PDFs (issue 15), read through the PDF parser and the chunker the
worker uses: items after a page break with a footnote between them, a list item MuPDF put inside the paragraph
above it, an inline enumeration whose lead-in is not a sentence, an untitled list named by its section heading, and
a lead-in that a question of another kind chose. The files are in the shared corpus
(lncs_aitkaci_pl_design_architecture.pdf is in no benchmark; acl2020_s2orc.pdf is a TUNE file of lists.json)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from apps.citations.answers import support
from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.lists import find_lists
from apps.citations.answers.question import classify
from apps.citations.answers.types import ComposeRequest, Evidence
from apps.documents.parsing.chunking import ChunkDraft, chunk_document
from apps.documents.parsing.formats.pdf import PdfParser
from tests.citations.hit_factory import make_hit

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "pdf-varied"


@cache
def _chunks(name: str) -> tuple[ChunkDraft, ...]:
    path = CORPUS / name
    return tuple(chunk_document(PdfParser().parse(path.read_bytes(), name)))


def _evidence(chunks: list[ChunkDraft]) -> list[Evidence]:
    return [
        Evidence(
            n,
            make_hit(
                text=c.text,
                chunk_index=c.chunk_index,
                chunk_id=1000 + c.chunk_index,
                section=c.section,
                heading_path=list(c.heading_path),
                page=c.page,
                page_end=c.page_end,
            ),
        )
        for n, c in enumerate(chunks, start=1)
    ]


def _with(name: str, text: str, after: int = 0) -> list[ChunkDraft]:
    """The chunk of `name` holding `text` and the `after` chunks that follow it."""
    chunks = _chunks(name)
    i = next(i for i, c in enumerate(chunks) if text in c.text)
    return list(chunks[i : i + 1 + after])


def test_a_numbered_list_goes_on_after_a_page_break_and_a_footnote_in_the_next_chunk():
    # Page 12 ends with items 1-2 and a footnote ("11 This does not mean …"); items 3-5 open page 13's chunk.
    chunks = _with("lncs_aitkaci_pl_design_architecture.pdf", "“name-sanitized”", after=1)
    assert [(c.page, c.page_end) for c in chunks] == [(12, 12), (13, 13)]
    assert "11 This does not mean" in chunks[0].text  # the footnote stands between item 2 and item 3
    blocks = [b for b in find_lists(_evidence(chunks)) if any("sanitized" in t for _, t in b.items)]
    assert len(blocks) == 1, blocks
    heads = [(n, t.split("—")[0]) for n, t in blocks[0].items]
    assert heads == [
        (1, "1. “name-sanitized”"),
        (1, "2. type-checked"),
        (2, "3. “sort-sanitized”"),
        (2, "4. compiled"),
        (2, "5. executed"),
    ]


def test_a_list_item_is_not_read_inside_the_paragraph_above_it():
    # MuPDF gives "• Size: …" in the block of the paragraph before it (same type): the item opens a paragraph.
    text = "\n\n".join(c.text for c in _chunks("acl2020_s2orc.pdf"))
    assert "\n\n• Size: The resulting" in text
    assert "symbols). • Size" not in text
    chunks = _with("acl2020_s2orc.pdf", "key differences in its pretraining corpus", after=2)
    (block,) = [b for b in find_lists(_evidence(chunks)) if "key differences" in b.lead]
    assert [t.split(":")[0] for _, t in block.items] == ["• Domain", "• Preprocessing", "• Size", "• Vocab"]


def test_a_lead_in_that_is_not_a_sentence_is_answered_with_its_whole_sentence():
    chunks = _with("acl2020_s2orc.pdf", "Prior to running GROBID")
    answer = ExtractiveComposer(use_embeddings=False).list_answer(
        classify("Which PDFs are filtered out before running GROBID?"), _evidence(chunks)
    )
    # One claim, the sentence as written: lead-in and items (i)-(iv), its marker before the full stop.
    assert answer.count("\n") == 0, answer
    assert answer.startswith("Prior to running GROBID, we filter out PDFs that (i) produce an error")
    assert "(ii) have greater than 50 pages" in answer and "(iii) have page widths" in answer
    assert answer.endswith("used by GROBID [1].")


def test_an_untitled_list_is_named_by_its_section_heading():
    section = "常见问题FAQ"
    text = "\n\n".join(
        [section, "1). 如何删除版本信息？", "导言区不写版本命令即可。", "2). 如何删除日期？", "注释日期命令即可。"]
    )
    evidence = [Evidence(1, make_hit(text=text, section=section, heading_path=[section]))]
    answer = ExtractiveComposer(use_embeddings=False).list_answer(classify("ElegantPaper 的常见问题有哪些？"), evidence)
    assert answer.split("\n") == ["1). 如何删除版本信息 [1]？", "2). 如何删除日期 [1]？"]
    # The support check reads each line as one claim: "1)." is the item's number, not a sentence of its own.
    assert support.split_sentences(answer) == answer.split("\n")


def test_a_lead_in_chosen_for_a_question_of_another_kind_brings_its_items():
    lead = (
        "Different stakeholders can be involved in the development of a core outcome set. For this COS, the "
        "Steering Committee decided to focus on four groups of stakeholders:"
    )
    items = (
        "1. Healthcare researchers: professionals working in clinical research. 2. Healthcare providers: "
        "professionals with clinical experience. 3. Patients: people who have had the condition. 4. Payers: "
        "insurers who fund the care."
    )
    question = "Which four groups of stakeholders did the Steering Committee decide to focus on?"
    assert classify(question).kind != "list"  # it asks "which …", not for a list, in the classifier's reading
    evidence = [
        Evidence(1, make_hit(text=lead, chunk_index=20, chunk_id=1)),
        Evidence(2, make_hit(text=items, chunk_index=21, chunk_id=2)),
    ]
    answer = "".join(
        part
        for part in ExtractiveComposer(use_embeddings=False).stream(ComposeRequest(question, evidence))
        if isinstance(part, str)
    )
    lines = answer.split("\n")
    assert lines[0] == "For this COS, the Steering Committee decided to focus on four groups of stakeholders: [1]"
    assert [line.split(":")[0] for line in lines[1:]] == [
        "1. Healthcare researchers",
        "2. Healthcare providers",
        "3. Patients",
        "4. Payers",
    ]
    assert all(line.endswith("[2].") for line in lines[1:])
