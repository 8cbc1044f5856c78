"""Offline metadata from a paper's first page: the year is right whenever one is given."""

from __future__ import annotations

import re
from pathlib import Path

from apps.documents.parsing import parse_document
from apps.documents.parsing.formats.pdf_identifiers import first_page_arxiv_id, first_page_year

PAPERS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "sci-pdf-jats" / "papers"


def _xml_year(xml: Path) -> int:
    text = xml.read_text(encoding="utf-8", errors="ignore")
    match = re.search(r"<pub-date[^>]*>.*?<year>(\d{4})</year>", text, re.S) or re.search(r"<pubdate>(\d{4})", text)
    return int(match.group(1))


def test_years_found_on_first_pages_match_the_publisher_xml():
    found = 0
    papers = sorted(PAPERS.glob("*/paper.pdf"))
    assert len(papers) == 11
    for pdf in papers:
        year = parse_document(pdf.read_bytes(), "paper.pdf").metadata.get("year")
        if year is not None:
            found += 1
            assert year == _xml_year(pdf.with_name("paper.xml")), pdf.parent.name
    assert found >= 8


def test_year_patterns_prefer_the_publication_date():
    text = "Received: 3 March 2013 Accepted: 9 May 2014 Published: 18 November 2014 © 2015 The Authors"
    assert first_page_year(text) == 2014
    assert first_page_year("Copyright © 2016 Jane Doe et al.") == 2016
    assert first_page_year("Table 2012 rows") is None


def test_arxiv_ids_are_recognised():
    assert first_page_arxiv_id("arXiv:2401.01234v2 [cs.CL] 3 Jan 2024") == "2401.01234"
    assert first_page_arxiv_id("no identifier here") is None


def test_journals_found_on_first_pages_match_the_publisher_xml():
    found = 0
    for pdf in sorted(PAPERS.glob("*/paper.pdf")):
        journal = parse_document(pdf.read_bytes(), "paper.pdf").metadata.get("journal")
        text = pdf.with_name("paper.xml").read_text(encoding="utf-8", errors="ignore")
        expected = re.search(r"<journal-title>(.*?)</journal-title>|<jtl>(.*?)</jtl>", text, re.S)
        if journal is not None:
            found += 1
            if expected:  # BMC's art XML names the journal elsewhere; the JATS ones must agree exactly
                assert journal.lower() == (expected.group(1) or expected.group(2)).strip().lower(), pdf.parent.name
    assert found >= 7
