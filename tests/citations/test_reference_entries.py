"""Reference lists: detection (three levels), splitting, entry parsing, and the JATS/BMC ground truth.

No database: everything here is pure Python over the shared corpus and synthetic block lists.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.citations.refparse.entries import find_reference_entries
from apps.citations.refparse.entries_fields import parse_doi, parse_entry, parse_year
from apps.citations.refparse.jats import expected_citations, expected_entries
from apps.documents.parsing import Block, ParsedDocument, chunk_document
from apps.evaluation.reference_entries import evaluate_corpus, find_entries_in_pdf, overlap

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
JATS = CORPUS / "sci-pdf-jats"
TRACEMONKEY = CORPUS / "sci-pdf-other" / "pdfjs_tracemonkey.pdf"
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it
PAPERS = sorted(p.name for p in (JATS / "papers").iterdir()) if JATS.exists() else []

# Measured when written: every paper 100% found and text-matched (527/527); the floors leave room for parser changes.
FOUND_FLOOR, MATCHED_FLOOR = 0.95, 0.92
TOTAL_FOUND_FLOOR, TOTAL_MATCHED_FLOOR = 0.97, 0.95


# ---- corpus ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_result() -> dict:
    return evaluate_corpus(JATS)


@needs_corpus
@pytest.mark.parametrize("paper", PAPERS)
def test_each_paper_reaches_its_floor(corpus_result: dict, paper: str) -> None:
    r = corpus_result["papers"][paper]
    assert r["entries_found"] <= r["entries_expected"], "more entries than the list has: something was split wrong"
    assert r["entries_found"] >= FOUND_FLOOR * r["entries_expected"], r
    assert r["entries_text_matched"] >= MATCHED_FLOOR * r["entries_expected"], r


@needs_corpus
def test_corpus_totals(corpus_result: dict) -> None:
    total = corpus_result["total"]
    assert total["entries_expected"] == 527
    assert total["entries_found_ratio"] >= TOTAL_FOUND_FLOOR, total
    assert total["entries_text_matched"] >= TOTAL_MATCHED_FLOOR * total["entries_expected"], total


@needs_corpus
def test_tracemonkey_has_exactly_nineteen_numbered_entries() -> None:
    entries = find_entries_in_pdf(TRACEMONKEY)
    assert [e.number for e in entries] == list(range(1, 20))
    assert [e.index for e in entries] == list(range(19))
    assert all(e.page == 14 and e.chunk_indices for e in entries)
    aho = entries[5]
    assert (aho.first_author, aho.year) == ("Aho", 2006)
    assert aho.authors == ["Aho", "Sethi", "Ullman", "Lam"]
    assert entries[18].text.startswith("M. Zaleski, A. D. Brown, and K. Stoodley. YETI")


@needs_corpus
def test_entries_spanning_columns_and_a_displaced_block_are_reassembled() -> None:
    # F1000 3-305: labels in their own column, the list split by a band of body text in the other column.
    entries = find_entries_in_pdf(JATS / "papers/f1000research-3-305/paper.pdf")
    sixth = entries[5]
    assert sixth.number == 6 and sixth.text.endswith("Nature. 1981; 293(5828): 161–3")
    assert "PubMed" not in sixth.text and "Acknowledgements" not in sixth.text
    assert entries[-1].number == 43 and entries[-1].text.startswith("Leal GM, Leal SW: Dataset 1")


# ---- ground truth from the XML -------------------------------------------------------------------------------


@needs_corpus
@pytest.mark.parametrize("paper", PAPERS)
def test_xml_ground_truth_agrees_with_the_collectors_summary(paper: str) -> None:
    truth = json.loads((JATS / "ground_truth.json").read_text())[paper]
    xml = JATS / "papers" / paper / "paper.xml"
    entries = expected_entries(xml)
    assert len(entries) == truth["ref_count"]
    assert [e["id"] for e in entries] == [r["id"] for r in truth["references"]]
    cited = expected_citations(xml)
    assert len(set(cited)) == truth["distinct_refs_cited"]
    assert len(cited) >= truth["intext_citation_elements_in_body"]


def test_citation_ranges_are_expanded(tmp_path: Path) -> None:
    jats = tmp_path / "jats.xml"
    jats.write_text(
        '<article><body><p>As shown <xref ref-type="bibr" rid="B1">1</xref>, '
        '<xref ref-type="bibr" rid="B3">3</xref>\u2013<xref ref-type="bibr" rid="B5">5</xref> and '
        '<xref ref-type="fig" rid="F1">1</xref>.</p></body><back><ref-list>'
        + "".join(
            f'<ref id="B{n}"><label>{n}</label><mixed-citation>Ref {n}</mixed-citation></ref>' for n in range(1, 6)
        )
        + "</ref-list></back></article>"
    )
    assert expected_citations(jats) == ["B1", "B3", "B4", "B5"]
    assert expected_entries(jats)[3] == {"id": "B4", "number": 4, "label": "4", "text": "Ref 4"}
    bmc = tmp_path / "bmc.xml"
    bmc.write_text(
        '<art><bdy><p>Seen <abbr bid="B2">2</abbr>-<abbr bid="B4">4</abbr>, <abbr bid="B1">1</abbr></p></bdy>'
        "<bm><refgrp>"
        + "".join(f'<bibl id="B{n}"><title><p>T{n}</p></title></bibl>' for n in range(1, 5))
        + "</refgrp></bm></art>"
    )
    assert expected_citations(bmc) == ["B2", "B3", "B4", "B1"]
    assert [e["number"] for e in expected_entries(bmc)] == [1, 2, 3, 4]


# ---- synthetic documents: the three detection levels ---------------------------------------------------------

REFS = [
    "Smith J, Jones K. Tumour growth in mice. J Biol Chem. 2010;285(3):123-9.",
    "Brown A, et al. Cell cycle control. Nature. 2012;480:55-60. doi:10.1038/nature1234",
    "Lee C. Methods in imaging. Proc Natl Acad Sci USA. 2015;112:10-15.",
    "Garcia M, Chen L. A second look at growth. Cell. 2018;172(4):800-812.",
    "Ito T. Long-read sequencing. Genome Res. 2019;29:1-9.",
    "Novak P, Horak J. Statistics for biologists. J Stat Softw. 2020;95:1-20.",
]
BODY = "We measured the growth of the cells over three days and report the results in the tables below."


def _doc(items: list[tuple[str, str, tuple[str, ...]]]) -> ParsedDocument:
    blocks = [Block(kind=k, text=t, heading_path=path, para_no=i) for i, (k, t, path) in enumerate(items)]
    return ParsedDocument(blocks=blocks, doc_type="md")


def _find(parsed: ParsedDocument):
    return find_reference_entries(parsed, chunk_document(parsed))


def test_level1_heading_and_numbered_entries_stop_at_acknowledgements() -> None:
    items = [("heading", "Introduction", ("Introduction",)), ("paragraph", BODY, ("Introduction",))]
    items += [("heading", "References", ("References",))]
    items += [("paragraph", f"{n}. {ref}", ("References",)) for n, ref in enumerate(REFS[:4], start=1)]
    items += [("heading", "Acknowledgements", ("Acknowledgements",)), ("paragraph", BODY, ("Acknowledgements",))]
    parsed = _doc(items)
    drafts = chunk_document(parsed)
    entries = find_reference_entries(parsed, drafts)
    assert [(e.number, e.text) for e in entries] == [(n, ref) for n, ref in enumerate(REFS[:4], start=1)]
    for entry in entries:
        assert entry.chunk_indices
        assert all(drafts[i].section_key == "References" for i in entry.chunk_indices)
    assert entries[1].doi == "10.1038/nature1234"


def test_level1_bracket_entries_run_together_in_one_block_are_split() -> None:
    run = " ".join(f"[{n}] {ref}" for n, ref in enumerate(REFS[:3], start=1))
    parsed = _doc([("heading", "Bibliography", ("Bibliography",)), ("paragraph", run, ("Bibliography",))])
    assert [e.text for e in _find(parsed)] == REFS[:3]


def test_level1_author_year_entries() -> None:
    refs = [
        "Baron-Cohen, S. (1995). Mindblindness: An Essay on Autism. Cambridge, MA: MIT Press.",
        "Boitani, L., and Ciucci, P. (1995). Comparative social ecology of feral dogs. Ethol. Ecol. Evol. 7, 49-72.",
        "Call, J., and Tomasello, M. (2008). Does the chimpanzee have a theory of mind? Trends Cogn. Sci. 12, 187.",
    ]
    items = [("paragraph", BODY, ()), ("heading", "参考文献", ("参考文献",))]
    items += [("paragraph", ref, ("参考文献",)) for ref in refs]
    entries = _find(_doc(items))
    assert [e.text for e in entries] == refs
    assert [e.number for e in entries] == [None, None, None]
    assert [e.first_author for e in entries] == ["Baron-Cohen", "Boitani", "Call"]
    assert entries[1].authors == ["Boitani", "Ciucci"] and entries[1].year == 1995


def test_level2_numbered_list_without_heading_at_the_end() -> None:
    steps = ["1. Mix the buffer with water.", "2. Spin for ten minutes.", "3. Pour off the liquid."]
    items = [("paragraph", BODY, ())] + [("list_item", s, ()) for s in steps] + [("paragraph", BODY, ())]
    items += [("paragraph", f"{n}. {ref}", ()) for n, ref in enumerate(REFS[:5], start=1)]
    entries = _find(_doc(items))
    assert [e.number for e in entries] == [1, 2, 3, 4, 5]
    assert entries[0].text == REFS[0] and entries[0].first_author == "Smith" and entries[0].year == 2010


def test_level2_takes_no_steps_axes_or_table_numbers() -> None:
    steps = ["1. Mix the buffer with water.", "2. Spin for ten minutes.", "3. Pour off the liquid.", "4. Dry it."]
    axis = ["1.", "2.", "3.", "4.", "5."]
    items = [("paragraph", BODY, ())] + [("list_item", s, ()) for s in steps] + [("paragraph", a, ()) for a in axis]
    assert _find(_doc(items)) == []


@pytest.mark.parametrize("headings", [False, True])
def test_level3_chain_resumes_after_methods_like_a_nature_paper(headings: bool) -> None:
    # Without headings the chain is found by level 2; with them from "References" on. Either way it resumes.
    items = [("heading", "References", ("References",))] if headings else [("paragraph", BODY, ())] * 3
    items += [("paragraph", f"{n}. {ref}", ()) for n, ref in enumerate(REFS[:3], start=1)]
    items += [("heading", "Methods", ("Methods",))] + [("paragraph", BODY, ("Methods",))] * 45
    items += [("heading", "Methods references", ("Methods references",))] if headings else []
    items += [("paragraph", f"{n}. {ref}", ("Methods",)) for n, ref in enumerate(REFS[3:], start=4)]
    entries = _find(_doc(items))
    assert [e.number for e in entries] == [1, 2, 3, 4, 5, 6]
    assert entries[2].text == REFS[2], "the Methods text is not part of entry 3"
    assert entries[3].text == REFS[3]


def test_a_later_numbered_list_is_not_taken_for_the_chains_continuation() -> None:
    items = [("heading", "References", ("References",))]
    items += [("paragraph", f"{n}. {ref}", ("References",)) for n, ref in enumerate(REFS[:3], start=1)]
    items += [("heading", "Appendix", ("Appendix",)), ("list_item", "4. Add the reagent slowly.", ("Appendix",))]
    items += [("list_item", "5. Wait.", ("Appendix",))]
    entries = _find(_doc(items))
    assert [e.number for e in entries] == [1, 2, 3]
    assert "reagent" not in entries[-1].text


# ---- parsing one entry ---------------------------------------------------------------------------------------


def _case(text: str, authors: list[str], year: int, title: str, venue: str) -> tuple[str, dict]:
    return text, {"authors": authors, "first_author": authors[0], "year": year, "title": title, "venue": venue}


STYLES = [
    _case(
        "Feeny D, Berkes F, McCay BJ, Acheson JM. The tragedy of the commons: twenty-two years later. "
        "Hum Ecol. 1990;18(1):1–19.",
        ["Feeny", "Berkes", "McCay", "Acheson"],
        1990,
        "The tragedy of the commons: twenty-two years later",
        "Hum Ecol",
    ),
    _case(
        "Crandall KA, Bininda-Emonds ORP, Mace GM, Wayne RK: Considering evolutionary processes in conservation "
        "biology. Trends Ecol Evol 2000, 15(7):290–295.",
        ["Crandall", "Bininda-Emonds", "Mace", "Wayne"],
        2000,
        "Considering evolutionary processes in conservation biology",
        "Trends Ecol Evol",
    ),
    _case(
        "Langseth, W.; Bernhost, A.; Rundberget, T. Mycotoxin production and cytotoxicity of Fusarium strains. "
        "Mycopathologia 1998, 144, 103–113.",
        ["Langseth", "Bernhost", "Rundberget"],
        1998,
        "Mycotoxin production and cytotoxicity of Fusarium strains",
        "Mycopathologia",
    ),
    _case(
        "T. Rokkas, K. Papaxoinis, and S. D. Ladas, “Does purgative preparation influence the diagnostic yield "
        "(2009),” American Journal of Gastroenterology, vol. 104, no. 1, pp. 219–227, 2009.",
        ["Rokkas", "Papaxoinis", "Ladas"],
        2009,
        "Does purgative preparation influence the diagnostic yield (2009)",
        "American Journal of Gastroenterology",
    ),
    _case(
        "Hare, B., and Tomasello, M. (2005). Human-like social skills in dogs? Trends Cogn. Sci. 9, 439–444. "
        "doi: 10.1016/j.tics.2005.07.003",
        ["Hare", "Tomasello"],
        2005,
        "Human-like social skills in dogs?",
        "Trends Cogn. Sci",
    ),
    _case(
        "S. A. C. van Tuyl, H. den Ouden, and E. J. Kuipers, “Optimal preparation for video capsule endoscopy,” "
        "Endoscopy, vol. 39, no. 12, pp. 1037–1040, 2007.",
        ["van Tuyl", "den Ouden", "Kuipers"],
        2007,
        "Optimal preparation for video capsule endoscopy",
        "Endoscopy",
    ),
]


@pytest.mark.parametrize(("text", "expected"), STYLES)
def test_parse_entry_styles(text: str, expected: dict) -> None:
    fields = parse_entry(text)
    assert {key: fields[key] for key in expected} == expected


def test_parse_doi_and_year_edge_cases() -> None:
    assert (
        parse_doi("Behav. Processes 28, 173–179. doi: 10.1016/0376- 6357(93)90090-E") == "10.1016/0376-6357(93)90090-E"
    )
    assert parse_doi("(doi:10.1186/1471-2148-14-70).") == "10.1186/1471-2148-14-70"
    assert parse_doi("No identifier here, 2010.") == ""
    assert (
        parse_year("Vos T: Years lived with disability for 1160 sequelae 1990–2010. Lancet 2012, 380:2163–2196.")
        == 2012
    )
    assert parse_year("Kaczensky P (2005). Wildl. Biol. 11, 101. doi: 10.2981/0909-6396(2004)11") == 2005
    assert parse_year("B. McCloskey. Personal communication.") is None
    assert parse_entry("UNESCO report on everything.")["first_author"] == ""


def test_token_overlap_rejects_merged_and_halved_entries() -> None:
    one, two = REFS[0], REFS[2]
    assert min(overlap(one, one)) == 1.0
    assert overlap(one, f"{one} {two}")[1] < 0.6  # merged with the next entry
    assert overlap(one, one[: len(one) // 3])[0] < 0.6  # cut short
