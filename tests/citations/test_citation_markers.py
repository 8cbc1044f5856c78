"""In-text citation markers: synthetic forms, superscripts from the PDF parser, and link quality on the corpus.

No Django, no database. Run: python -m pytest tests/citations/test_citation_markers.py -q
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from apps.citations.refparse.markers import detect_style, find_mentions, parse_numbers
from apps.citations.refparse.types import ReferenceEntry
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.formats.pdf_layout import line_text
from apps.evaluation.reference_links import evaluate_links, expected_links, gt_entries, score

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
JATS = CORPUS / "sci-pdf-jats"
TRACEMONKEY = CORPUS / "sci-pdf-other" / "pdfjs_tracemonkey.pdf"
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it


def numbered(n: int) -> list[ReferenceEntry]:
    return [ReferenceEntry(index=i, number=i + 1, text=f"Author{i + 1} A. Title {i + 1}. 2001.") for i in range(n)]


def linked(text: str, entries: list[ReferenceEntry], style: str | None = None) -> list[tuple[str, list[int]]]:
    return [(text[m.start : m.end], m.numbers) for m in find_mentions([(0, text)], entries, style)]


# --- numeric -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("as shown before [3].", [("[3]", [3])]),
        ("several studies [2\u20134] agree", [("[2\u20134]", [2, 3, 4])]),
        ("several studies [2-4] agree", [("[2-4]", [2, 3, 4])]),
        ("see [1, 5, 7].", [("[1, 5, 7]", [1, 5, 7])]),
        ("mixed [1,3\u20135,9] list", [("[1,3\u20135,9]", [1, 3, 4, 5, 9])]),
        ("semicolons [6; 8]", [("[6; 8]", [6, 8])]),
        ("glued superscript graphene[12].", [("[12]", [12])]),
        ("twice [1] and [2]", [("[1]", [1]), ("[2]", [2])]),
        ("adapted from [5]", [("[5]", [5])]),
    ],
)
def test_bracket_forms(text: str, expected: list) -> None:
    assert linked(text, numbered(20)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "a number past the list [21]",
        "the unit interval [0, 1]",
        "values in the range [1, 10]",
        "a year [2010]",
        "components t[1] and t[2] of the PCA",
        "a reversed range [5\u20132]",
        "v3 := ld v0[4] // load class word; x := y[2] // again; z == 1",
    ],
)
def test_bracket_non_citations(text: str) -> None:
    assert linked(text, numbered(20)) == []


def test_a_number_without_an_entry_is_not_linked() -> None:
    entries = [e for e in numbered(10) if e.number != 4]  # entry 4 was not found in the list
    assert linked("as in [3\u20135]", entries) == [("[3\u20135]", [3, 5])]
    [mention] = find_mentions([(7, "x [4, 5]")], entries)
    assert mention.chunk_index == 7 and mention.entry_indices == [4] and (mention.start, mention.end) == (2, 8)


def test_parse_numbers() -> None:
    assert parse_numbers("1,3\u20135, 9") == [1, 3, 4, 5, 9]
    assert parse_numbers("0") is None and parse_numbers("1-100") is None


def test_parenthesised_numbers_need_document_evidence() -> None:
    entries = numbered(19)
    cites = [(0, "a compiler (10). Psyco (16) is one; SpiderMonkey (4) is another."), (1, "Dynamo (7) was first.")]
    found = [m.numbers for m in find_mentions(cites, entries)]
    assert found == [[10], [16], [4], [7]]
    # One parenthesised number alone is not evidence that the document cites that way.
    assert find_mentions([(0, "as in the compiler (10).")], entries) == []
    # Bracket-citing documents use "(n)" for other things.
    assert [m.numbers for m in find_mentions([(0, "x [1], y [2], z [3] and (4) (5) (6)")], entries)] == [[1], [2], [3]]


@pytest.mark.parametrize(
    "text",
    [
        "(Fig. 2) (Figure 3) (Table 4) (Eq. 5)",
        "(n = 12) (p < 0.05) (r = 3)",
        "mov edx, ebx(748) mov edi(0), edx mov esi, ebx(7) mov edi(8), esi",
        "we included: (1) one change, (2) another change, (3) a third",
        "values (12.5) and (3 mM) and (2010)",
    ],
)
def test_parenthesised_non_citations(text: str) -> None:
    chunks = [(0, text), (1, "cited (11), (12) and later (13).")]
    assert {n for m in find_mentions(chunks, numbered(19)) for n in m.numbers} == {11, 12, 13}


# --- author-year ---------------------------------------------------------------------------------


def ay(index: int, authors: list[str], year: int, suffix: str = "") -> ReferenceEntry:
    text = f"{', '.join(authors)} ({year}{suffix}). A title. J. Things 1, 2-3."
    return ReferenceEntry(index=index, number=None, text=text, year=year, first_author=authors[0], authors=authors)


AY = [
    ay(0, ["Smith", "Brown", "Green"], 2010),
    ay(1, ["Smith", "Jones"], 2010),
    ay(2, ["Lee"], 2011),
    ay(3, ["Lee", "Park"], 2011),
    ay(4, ["Miklósi", "Topál"], 2005, "a"),
    ay(5, ["Miklósi", "Topál"], 2005, "b"),
    ay(6, ["van der Berg"], 1999),
    ay(7, ["Kim"], 2003),
    ay(8, ["Kim"], 2003),
    ay(9, ["Miklósi", "Topál"], 2006),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("as found (Smith et al., 2010).", [("Smith et al., 2010", [0])]),
        ("(Smith and Jones 2010; Lee 2011)", [("Smith and Jones 2010", [1]), ("Lee 2011", [2])]),
        ("Lee and Park (2011) showed", [("Lee and Park (2011)", [3])]),
        ("Lee (2011) showed", [("Lee (2011)", [2])]),
        ("Lee’s (2011) scale", [("Lee’s (2011)", [2])]),
        ("(Miklosi and Topal, 2005b)", [("Miklosi and Topal, 2005b", [5])]),  # accents folded on both sides
        ("(Miklósi and Topál, 2005a,b)", [("Miklósi and Topál, 2005a", [4]), ("b", [5])]),
        ("(Miklósi and Topál, 2005a,b, 2006)", [("Miklósi and Topál, 2005a", [4]), ("b", [5]), ("2006", [9])]),
        ("(Miklósi and Topál, 2005)", []),  # two entries share surnames and year; no suffix: no guess
        ("(Kim, 2003)", []),  # two identical keys: ambiguous
        ("(van der Berg, 1999)", [("van der Berg, 1999", [6])]),
        ("(Smith et al., 2010, 2011)", [("Smith et al., 2010", [0])]),
        ("In 2010, the Smith lab moved", []),
        ("(Jones et al., 2010)", []),  # Jones is not a first author
    ],
)
def test_author_year_forms(text: str, expected: list) -> None:
    got = [(text[m.start : m.end], m.entry_indices) for m in find_mentions([(0, text)], AY)]
    assert got == expected
    assert all(m.style == "author-year" for m in find_mentions([(0, text)], AY))


def test_style_detection() -> None:
    assert detect_style(numbered(3)) == "numeric" and detect_style(AY) == "author-year"
    assert find_mentions([(0, "Lee (2011) and [2]")], AY, style="bracket-numeric") == []
    assert find_mentions([(0, "anything [1]")], []) == []


# --- superscripts (PDF parser) -------------------------------------------------------------------


def span(text: str, size: float = 9.0, raise_by: float = 0.0) -> dict:
    return {"text": text, "size": size, "origin": (0.0, 100.0 - raise_by), "flags": 0}


@pytest.mark.parametrize(
    ("spans", "expected"),
    [
        ([span("graphene"), span("12", 5.2, 3), span(" is")], "graphene[12] is"),
        ([span("shown"), span("1", 5.2, 3), span("\u2013", 5.2, 3), span("3", 5.2, 3)], "shown[1\u20133]"),
        ([span("shown"), span("9,11", 5.2, 3), span(", and")], "shown[9,11], and"),
        ([span("AaegOBP1"), span("31", 5.2, 3)], "AaegOBP1[31]"),
        ([span("about 10"), span("12", 5.2, 3), span(" cells")], "about 1012 cells"),  # exponent
        ([span("area in cm"), span("2", 5.2, 3)], "area in cm2"),  # unit
        ([span("fit R"), span("2", 5.2, 3), span(" = 0.9")], "fit R2 = 0.9"),  # a symbol's power
        ([span("Smith"), span("a", 5.2, 3), span(", Lee"), span("*", 5.2, 3)], "Smitha, Lee*"),  # not numbers
        ([span("Nederland. "), span("3", 5.2, 3), span("Department")], "Nederland. 3Department"),  # affiliation
        ([span("word"), span("12", 8.8, 3)], "word12"),  # not smaller: no superscript
        ([span("word"), span("12", 5.2, 0.5)], "word12"),  # not raised: a subscript or small caps
    ],
)
def test_superscript_rewrite(spans: list[dict], expected: str) -> None:
    assert line_text(spans, 9.0) == expected


def test_superscripts_in_front_matter_and_footnotes_are_left() -> None:
    authors = [span("Ann Lee"), span("1", 5.2, 3), span(", Bo Kim"), span("2", 5.2, 3)]
    assert line_text(authors, 9.0, front_matter=True) == "Ann Lee1, Bo Kim2"
    assert line_text(authors, 9.0) == "Ann Lee[1], Bo Kim[2]"
    assert line_text([span("double."), span("1", 5.2, 3)], 9.0, labels=frozenset({"1"})) == "double.1"


@functools.cache
def _chunks(path: Path) -> list:
    return chunk_document(parse_document(path.read_bytes(), path.name))


@needs_corpus
def test_superscript_paper_is_rewritten_and_linked() -> None:
    folder = JATS / "papers" / "f1000research-3-305"
    chunks = _chunks(folder / "paper.pdf")
    text = "\n".join(c.text for c in chunks)
    for marker in ("melanogaster[1\u20133]", "odorants[9,11]", "OBPs[17\u201321]", "(MOP)[37]", "AaegOBP1[38]"):
        assert marker in text
    entries = gt_entries(folder / "paper.xml")
    mentions = find_mentions([(c.chunk_index, c.text) for c in chunks if c.section_key != "References"], entries)
    numbers = [n for m in mentions for n in m.numbers]
    assert numbers[:6] == [1, 2, 3, 4, 5, 6] and len(numbers) >= 55


@needs_corpus
def test_tracemonkey_parenthesised_citations() -> None:
    chunks = [c for c in _chunks(TRACEMONKEY) if c.section_key != "References"]
    mentions = find_mentions([(c.chunk_index, c.text) for c in chunks], numbered(19))
    by_chunk = {c.chunk_index: c.text for c in chunks}
    code = {c.chunk_index for c in chunks if "(748)" in c.text or "[748]" in c.text}
    assert code and not any(m.chunk_index in code for m in mentions)
    assert {n for m in mentions for n in m.numbers} == set(range(1, 20))  # every entry is cited somewhere
    twelve = [m for m in mentions if m.numbers == [12]]
    assert twelve and all(by_chunk[m.chunk_index][m.start : m.end] == "(12)" for m in twelve)
    assert twelve[0].entry_indices == [11]
    assert not [m for m in mentions if "(81)" in by_chunk[m.chunk_index][m.start : m.end]]


# --- link quality on the corpus ------------------------------------------------------------------

FLOORS = {"bracket-numeric": (0.98, 0.95), "superscript-numeric": (0.98, 0.9), "author-year": (0.98, 0.95)}


def test_score_is_multiset_based() -> None:
    assert score(["a", "a", "b", None], ["a", "b", "b"]) == {
        "links": 4,
        "expected": 3,
        "matched": 2,
        "precision": 0.5,
        "recall": 2 / 3,
    }


@needs_corpus
def test_expected_links_expand_ranges() -> None:
    ids = expected_links(JATS / "papers" / "hindawi-PMC4736012" / "paper.xml")
    assert len(ids) == 94  # 60 in the body (ranges "[6–13]" expanded) plus those in its tables (<floats-group>)
    assert ids.count("B7") >= 2 and "B9" in ids  # "[6–13]" in a table caption yields 7 to 12 as well


@needs_corpus
def test_link_quality_floors() -> None:
    """Markers against the XML's anchors, with the XML's own reference list (list detection is measured by
    evaluate_entries; this isolates the marker finder)."""
    truth = json.loads((JATS / "ground_truth.json").read_text())
    totals: dict[str, list[int]] = {}
    report = []
    for folder in sorted((JATS / "papers").iterdir()):
        result = evaluate_links(folder / "paper.pdf", folder / "paper.xml", xml_entries=True)
        style = truth[folder.name]["pdf_citation_style"]
        row = totals.setdefault(style, [0, 0, 0])
        row[0] += result["links"]
        row[1] += result["expected"]
        row[2] += result["matched"]
        report.append(f"{folder.name}: P={result['precision']:.3f} R={result['recall']:.3f}")
    print("\n" + "\n".join(report))
    for style, (links, expected, matched) in totals.items():
        precision, recall = matched / links, matched / expected
        print(f"{style}: links={links} expected={expected} P={precision:.3f} R={recall:.3f}")
        assert precision >= FLOORS[style][0] and recall >= FLOORS[style][1], style
    links, expected, matched = (sum(r[i] for r in totals.values()) for i in range(3))
    assert matched / links >= 0.98 and matched / expected >= 0.95
