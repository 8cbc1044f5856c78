"""Page furniture stays out of answerable passages (issue 16): running heads found by repetition across pages
(also a little below the top 10% band, and a thesis chapter's own running head), tables of contents and their dotted
leaders, and the front matter of an article (affiliations, correspondence, e-mail, received/accepted dates,
copyright) — the last two still viewable, in chunks of low weight, and no body text lost."""

from __future__ import annotations

import re

import pytest

from apps.documents.parsing import ParsedDocument, chunk_document, parse_document
from apps.documents.parsing.roles import ROLE_WEIGHTS

LOW = ROLE_WEIGHTS["front_matter"]
LEADER = re.compile(r"(?:\.\s){4,}\.|\.{7,}|…{3,}|·{4,}")  # ". . . . ." or "......." (not an ellipsis, "...")


@pytest.fixture(scope="module")
def chunks_of(request):
    cache: dict[str, list] = {}
    corpus = request.getfixturevalue("shared_corpus")

    def chunks(*parts: str) -> list:
        key = "/".join(parts)
        if key not in cache:
            path = corpus.joinpath(*parts)
            cache[key] = chunk_document(parse_document(path.read_bytes(), path.name))
        return cache[key]

    return chunks


def test_a_running_head_set_just_below_the_top_band_is_in_no_chunk(chunks_of):
    """Elsevier's "P.N.J. Lane et al. / Journal of Hydrology 310 (2005) 253–265" sits at 10.5% of the page height,
    on every page but the first, at the same height: before, it was read into the first paragraph of 11 pages."""
    chunks = chunks_of("pdf-varied", "elsevier_jhydrol2005_flow_duration.pdf")
    assert not [c.page for c in chunks if "Lane et al. / Journal of Hydrology" in c.text]
    # the body text under it is all there: the sentence that goes on over the page break from p. 2 to p. 3
    assert any("ﬁt a model" in c.text or "fit a model" in c.text for c in chunks)


def test_a_chapter_running_head_beside_the_thesis_title_is_dropped(chunks_of):
    """The thesis prints its title on the left of every page head and the chapter's title on the right, on the
    chapter's pages only (too few to count as repeated on their own): both are furniture, the chapter heading
    itself stays."""
    chunks = chunks_of("pdf-varied", "zh_thesis_dlnu_master_template.pdf")
    body = [c for c in chunks if c.weight > 0]
    head = re.compile(r"(?:^|\n)大连民族大学硕士学位论文(?:\n|$)")  # the running head as a line of its own
    assert not [c.page for c in body if head.search(c.text)]
    heads = [c for c in body if "第一章latex 模板介绍" in c.text]
    assert len(heads) == 1 and heads[0].text.startswith("第一章latex 模板介绍\n\n")  # the chapter heading, once


@pytest.mark.parametrize(
    ("name", "entry"),
    [
        ("word_nist_sp800-223_hpc_security.pdf", "2.1.3. Parallel File System"),
        ("zh_thesis_dlnu_master_template.pdf", "1.1 编译方式设置"),
    ],
)
def test_a_table_of_contents_and_its_leaders_are_out_of_answerable_passages(chunks_of, name, entry):
    chunks = chunks_of("pdf-varied", name)
    contents = [c for c in chunks if entry in c.text and LEADER.search(c.text)]
    assert contents and all(c.weight == 0 for c in contents)  # still there to view, never retrieved
    assert not [c.text[:80] for c in chunks if c.weight > 0 and LEADER.search(c.text)]
    assert any(c.weight >= 1 and c.text.startswith(entry) for c in chunks)  # the heading itself, with its text


def test_leader_dots_of_a_form_go_and_its_lines_stay(chunks_of):
    """A form's leader lines ("Wages, salaries, tips, etc. . . . . 8") name no later heading: not contents. The
    dots go, the line stays answerable."""
    chunks = chunks_of("pdf-varied", "odd_form_irs_f1040nr.pdf")
    assert all(c.weight > 0 for c in chunks)
    assert not [c.text[:80] for c in chunks if LEADER.search(c.text)]
    assert any("Rental real estate, royalties, partnerships, trusts, etc." in c.text for c in chunks)


@pytest.mark.parametrize(
    ("parts", "line"),
    [
        (("pdf-varied", "elsevier_jhydrol2005_flow_duration.pdf"), "Received 1 October 2003; revised 22 December 2004"),
        (("pdf-varied", "elsevier_jhydrol2005_flow_duration.pdf"), "aSchool of Forest and Ecosystem Studies"),
        (("sci-pdf-jats", "papers", "hindawi-PMC4736012", "paper.pdf"), "Correspondence should be addressed to"),
        (("sci-pdf-jats", "papers", "hindawi-PMC4736012", "paper.pdf"), "1Department of Internal Medicine, Jeju"),
        (("sci-pdf-jats", "papers", "bmc-trials-15-1-511", "paper.pdf"), "* Correspondence: a.chiarotto@vu.nl"),
        (("sci-pdf-jats", "papers", "mdpi-metabolites-04-00932", "paper.pdf"), "Received: 1 August 2014"),
        (("pdf-varied", "acm_chi2023_citesee_arxiv2302.07302.pdf"), "jbragg@allenai.org Allen Institute for AI"),
    ],
)
def test_front_matter_lines_are_in_chunks_of_low_weight(chunks_of, parts, line):
    chunks = chunks_of(*parts)
    holding = [c for c in chunks if line in c.text]
    assert holding, "the line is still in the document, viewable"
    assert all(c.weight <= LOW for c in holding)


@pytest.mark.parametrize(
    ("parts", "sentence"),
    [
        (("pdf-varied", "elsevier_jhydrol2005_flow_duration.pdf"), "The hydrologic effect of replacing pasture"),
        (("sci-pdf-jats", "papers", "hindawi-PMC4736012", "paper.pdf"), "During video capsule endoscopy (VCE)"),
        (("sci-pdf-jats", "papers", "bmc-trials-15-1-511", "paper.pdf"), "Low back pain (LBP) is one of the most"),
    ],
)
def test_the_abstract_and_body_on_the_first_page_keep_their_weight(chunks_of, parts, sentence):
    chunks = chunks_of(*parts)
    assert any(sentence in c.text and c.weight >= 1 for c in chunks)


def test_a_table_of_contents_without_leaders_is_out_of_answerable_passages(chunks_of):
    """amsart prints its contents on page 1 as a block of numbered entries and a block of page numbers under the
    title "Contents" (a trap for heading and reference-section detection): all three are contents."""
    chunks = chunks_of("pdf-varied", "arxiv1504.06236_influential_nodes_1col.pdf")
    listed = [c for c in chunks if "2. Structural measures 2.1. High-degree centrality" in c.text]
    assert listed and all(c.weight == 0 for c in listed)
    assert not [c.text[:60] for c in chunks if c.weight > 0 and c.text.startswith("Contents")]
    assert any(c.weight >= 1 and c.text.startswith("Abstract. Recently") for c in chunks)


def _pages_of(lines_per_page: list[list[str]]) -> bytes:
    import pymupdf

    pdf = pymupdf.open()
    for lines in lines_per_page:
        page = pdf.new_page()
        for number, line in enumerate(lines):
            page.insert_text((72, 90 + 40 * number), line, fontsize=12)
    return pdf.tobytes()


def test_a_repeated_line_that_is_all_a_page_holds_is_the_content_not_a_running_head():
    """A two-page note whose pages each hold one sentence at the top ("Page 1: Asiatic lions …", "Page 2: …", the
    same once digits are folded away) was read as a running head on every page and failed as "no text" (CI,
    2026-12-04): a running head frames other text, so a line alone on each page it repeats on is kept."""
    line = "Page {}: Asiatic lions live in the Gir forest of Gujarat."
    parsed = parse_document(_pages_of([[line.format(1)], [line.format(2)]]), "lions.pdf")
    text = "\n".join(block.text for block in parsed.blocks)
    assert "Page 1: Asiatic lions" in text and "Page 2: Asiatic lions" in text


def test_the_same_line_above_other_text_on_every_page_is_still_a_running_head():
    head = "Journal of Lion Studies 12 (2026)"
    body = ["Lions rest in the shade at noon.", "Prides hunt at dusk near water.", "Cubs stay hidden for weeks."]
    parsed = parse_document(_pages_of([[head, sentence] for sentence in body]), "lions.pdf")
    text = "\n".join(block.text for block in parsed.blocks)
    assert "Journal of Lion Studies" not in text
    assert all(sentence in text for sentence in body)


def test_what_a_contents_heading_heads_is_the_contents_and_names_no_section():
    """A thesis's contents page with its entries and page numbers as blocks of their own and no leader dots
    (BIThesis): under the heading "目录" everything is contents, and its "Abstract" entry does not put the
    passages after it under "Abstract"."""
    from apps.documents.parsing.blocks import Block
    from apps.documents.parsing.formats.pdf_furniture import mark_furniture

    def block(kind: str, text: str, path: tuple[str, ...], n: int) -> Block:
        return Block(kind=kind, text=text, heading_path=path, para_no=n, page=5 if n < 4 else 6)

    toc, chapter = ("目录",), ("第1 章 绪论",)
    blocks = mark_furniture(
        [
            block("heading", "目录", toc, 0),
            block("paragraph", "Abstract", toc, 1),
            block("paragraph", "II", toc, 2),
            block("paragraph", "第1 章 绪论", toc, 3),
            block("heading", "第1 章 绪论", chapter, 4),
            block("paragraph", "本章介绍研究背景。" * 5, chapter, 5),
        ]
    )
    assert [b.role for b in blocks] == ["contents"] * 4 + ["", ""]
    chunks = chunk_document(ParsedDocument(blocks=blocks, doc_type="pdf"))
    assert all(c.section != "Abstract" for c in chunks), [(c.section, c.text[:20]) for c in chunks]
    assert [c.weight for c in chunks if "研究背景" in c.text] == [1.0]
