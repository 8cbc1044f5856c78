"""Authors read from a paper's first-page byline when the PDF's own author field names nobody."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pymupdf
import pytest

from apps.documents.parsing import parse_document
from apps.documents.parsing.formats.pdf_byline import is_placeholder_author, parse_name_list


def _paper(shared_corpus: Path, name: str) -> Path:
    return shared_corpus / "sci-pdf-jats" / "papers" / name / "paper.pdf"


def _metadata(data: bytes) -> dict:
    return parse_document(data, "paper.pdf").metadata


def _with_pdf_author(path: Path, author: str) -> bytes:
    doc = pymupdf.open(path)
    doc.set_metadata({**doc.metadata, "author": author})
    return doc.tobytes()


def _xml_surnames(xml: Path) -> list[str]:
    """The article's own authors in order: JATS <contrib> in <article-meta>, or BMC's <aug>/<au>. Cited
    authors and referees (F1000 sub-articles) are outside those elements."""
    text = xml.read_text(encoding="utf-8", errors="ignore")
    front = re.search(r"<article-meta>.*?</article-meta>|<aug>.*?</aug>", text, re.S).group(0)
    if "<aug>" in front:
        return [html.unescape(s) for s in re.findall(r"<snm>(.*?)</snm>", front)]
    contribs = re.findall(r'<contrib[^>]*contrib-type="author"[^>]*>(.*?)</contrib>', front, re.S)
    return [html.unescape(re.search(r"<surname>(.*?)</surname>", c).group(1)) for c in contribs]


# --- real papers -------------------------------------------------------------------------------------


def test_bmc_evolutionary_biology_authors_come_from_the_byline(shared_corpus):
    meta = _metadata(_paper(shared_corpus, "bmc-evolbiol-14-70").read_bytes())
    assert meta["authors"][:3] == ["Ross Barnett", "Nobuyuki Yamaguchi", "Beth Shapiro"]
    assert len(meta["authors"]) == 9
    assert meta["authors"][3] == "Simon YW Ho" and meta["authors"][-1] == "Greger Larson"
    assert meta["authors_guessed"] is True


def test_bmc_trials_authors_keep_initials_and_particles(shared_corpus):
    meta = _metadata(_paper(shared_corpus, "bmc-trials-15-1-511").read_bytes())
    assert meta["authors"][:3] == ["Alessandro Chiarotto", "Caroline B Terwee", "Richard A Deyo"]
    assert len(meta["authors"]) == 19
    assert "Leonardo OP Costa" in meta["authors"] and "Maurits W van Tulder" in meta["authors"]
    assert meta["authors_guessed"] is True


def test_authors_in_the_pdf_metadata_are_kept_and_not_marked_guessed(shared_corpus):
    meta = _metadata(_paper(shared_corpus, "mdpi-metabolites-04-00932").read_bytes())
    assert meta["authors"][:3] == ["Barbara Laddomada", "Laura Del Coco", "Miriana Durante"]
    assert len(meta["authors"]) == 7
    assert "authors_guessed" not in meta
    frontiers = _metadata(_paper(shared_corpus, "frontiers-fpsyg-05-01582").read_bytes())
    assert frontiers["authors"] == ["Friederike Range", "Zsófia Virányi"]
    assert "authors_guessed" not in frontiers


def test_the_mdpi_byline_gives_the_same_names_as_its_metadata(shared_corpus):
    # The journal's 36 pt logo is the largest type on the page; the byline is found after the real title.
    path = _paper(shared_corpus, "mdpi-metabolites-04-00932")
    from_metadata = _metadata(path.read_bytes())["authors"]
    from_page = _metadata(_with_pdf_author(path, ""))
    assert from_page["authors"] == from_metadata
    assert from_page["authors"][-2:] == ["Francesco P. Fanizzi", "Antonio F. Logrieco"]
    assert from_page["authors_guessed"] is True


def test_a_placeholder_in_the_author_field_gives_way_to_the_byline(shared_corpus):
    meta = _metadata(_with_pdf_author(_paper(shared_corpus, "bmc-evolbiol-14-70"), "Administrator"))
    assert meta["authors"][:2] == ["Ross Barnett", "Nobuyuki Yamaguchi"]
    assert meta["authors_guessed"] is True


def test_guessed_authors_match_the_publisher_xml_name_for_name(shared_corpus):
    papers = sorted((shared_corpus / "sci-pdf-jats" / "papers").glob("*/paper.pdf"))
    assert len(papers) == 11
    guessed = 0
    for pdf in papers:
        meta = _metadata(pdf.read_bytes())
        if not meta.get("authors_guessed"):
            continue
        guessed += 1
        surnames = _xml_surnames(pdf.with_name("paper.xml"))
        assert len(meta["authors"]) == len(surnames), pdf.parent.name
        for name, surname in zip(meta["authors"], surnames, strict=True):
            assert name.endswith(surname), (pdf.parent.name, name, surname)
    # 8 papers have an empty author field and a readable byline; F1000 3:305 has no usable text layer.
    assert guessed >= 8


def test_no_byline_or_label_is_guessed_from_a_page_read_by_ocr(shared_corpus):
    """F1000 3:305's page 1 has a text layer of garbage glyphs, so it is OCR'd (issue 16). Recognised text has no
    span types to tell names from affiliation marks, and its side panel reads "Referee Status:" in the largest
    boxes and "Invited Referees" under it: neither is the paper's title or its authors (CI, 2026-12-04)."""
    meta = _metadata(_paper(shared_corpus, "f1000research-3-305").read_bytes())
    assert "authors" not in meta
    assert not meta.get("title", "").endswith(":")


# --- marks set as superscripts ---------------------------------------------------------------------


def _synthetic_paper(byline_html: str, author: str = "") -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_htmlbox(pymupdf.Rect(50, 50, 550, 120), "<p style='font-size:20px'><b>Marks in bylines</b></p>")
    page.insert_htmlbox(pymupdf.Rect(50, 130, 550, 160), f"<p style='font-size:11px'>{byline_html}</p>")
    affiliation = "<sup>a</sup>Department of Biology, Example University"
    page.insert_htmlbox(pymupdf.Rect(50, 170, 550, 200), f"<p style='font-size:8px'>{affiliation}</p>")
    body = "<p style='font-size:10px'>Abstract</p>" + "<p style='font-size:10px'>We study marks.</p>" * 3
    page.insert_htmlbox(pymupdf.Rect(50, 210, 550, 400), body)
    doc.set_metadata({"author": author})
    return doc.tobytes()


def test_letter_marks_set_as_superscripts_are_dropped_by_their_type():
    byline = "Jane Doe<sup>a,b</sup>, John Smith<sup>c</sup> and Ann Lee<sup>a</sup>"
    meta = _metadata(_synthetic_paper(byline))
    assert meta["authors"] == ["Jane Doe", "John Smith", "Ann Lee"]
    # The same line as flat text is refused: "Doea", "b" and "Leea" are not names.
    assert parse_name_list("Jane Doea,b, John Smithc and Ann Leea") is None


def test_a_sentence_after_the_title_gives_no_authors():
    meta = _metadata(_synthetic_paper("We thank Jane Doe for the samples"))
    assert "authors" not in meta and "authors_guessed" not in meta


def test_a_real_author_field_wins_over_the_byline():
    meta = _metadata(_synthetic_paper("Jane Doe, John Smith", author="Ann Lee"))
    assert meta["authors"] == ["Ann Lee"]
    assert "authors_guessed" not in meta


# --- the name-list parser --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "names"),
    [
        (
            "Ross Barnett1,9*, Nobuyuki Yamaguchi2, Simon YW Ho4, Jacques Cuisin8 and Greger Larson1",
            ["Ross Barnett", "Nobuyuki Yamaguchi", "Simon YW Ho", "Jacques Cuisin", "Greger Larson"],
        ),
        (
            "Barbara Laddomada 1, Laura Del Coco 2, Francesco P. Fanizzi 2,* and Antonio F. Logrieco 4,*",
            ["Barbara Laddomada", "Laura Del Coco", "Francesco P. Fanizzi", "Antonio F. Logrieco"],
        ),
        (
            "R. A. Deyo, Leonardo OP Costa & Maurits W van Tulder",
            ["R. A. Deyo", "Leonardo OP Costa", "Maurits W van Tulder"],
        ),
        ("Jean-Pierre Dupont†, Zsófia Virányi‡§", ["Jean-Pierre Dupont", "Zsófia Virányi"]),
        ("Xin’ai Wu,1,2 Jianbo Li,2 and Ki-Nam Shim3", ["Xin’ai Wu", "Jianbo Li", "Ki-Nam Shim"]),
        (
            "Andreas Gal∗+, Mohammad R. Haghighat$, Edwin Smith#",
            ["Andreas Gal", "Mohammad R. Haghighat", "Edwin Smith"],
        ),
        ("Djoko T. Iskandar [1], Jimmy A. McGuire [3]", ["Djoko T. Iskandar", "Jimmy A. McGuire"]),
        ("By John Smith, MD, PhD and Jane Doe", ["John Smith", "Jane Doe"]),
        ("William B. Driggers, Jr. · Glenn F. Ulrich", ["William B. Driggers Jr.", "Glenn F. Ulrich"]),
        ("Ludwig van der Waals", ["Ludwig van der Waals"]),
    ],
)
def test_bylines_are_read_as_name_lists(line, names):
    assert parse_name_list(line) == names


@pytest.mark.parametrize(
    "line",
    [
        "1 Department of Archaeology, Durham University, Durham DH1 3LE, UK",
        "Comparative Cognition, Messerli Research Institute, University of Veterinary Medicine, Vienna",
        "2 Wolf Science Centre, Ernstbrunn, Austria",
        "Abstract",
        "Abstract Background",
        "Background: Understanding the demographic history of a population is critical",
        "Keywords: Barbary lion, Panthera leo, Extinction",
        "Received 3 June 2015; Revised 30 July 2015; Accepted 2 August 2015",
        "Correspondence should be addressed to Xuemei Wang",
        "* Correspondence: drrossbarnett@gmail.com",
        "Jane Doe, jane.doe@example.org",
        "We studied the landscape of the village and its laws",
        "Academic Editor: Xiao-Feng Li",
        "ISSN 2218-1989",
        "RESEARCH ARTICLE",
        "Open Access",
        "Deep Learning Methods",
        "John Smith et al.",
        "Madonna",
        "",
    ],
)
def test_lines_that_are_not_bylines_are_refused(line):
    assert parse_name_list(line) is None


def test_placeholder_author_fields_are_recognised():
    assert is_placeholder_author("") and is_placeholder_author("Administrator")
    assert is_placeholder_author("Microsoft Office User")
    assert not is_placeholder_author("Friederike Range and Zsófia Virányi")
