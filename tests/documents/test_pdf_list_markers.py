"""List markers a PDF sets in boxes of their own ("•", "2.", left of the item's text on its baseline) are read in
front of their items again, so each item is a line of its own that the list reader, the quote boxes and the answer
can use (issue 15: Scrapy's architecture overview gave "• • • • •" and the five items run together). Equation
numbers, initials and a dash inside a caption are not markers of the line beside them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from apps.citations.answers.lists import find_lists
from apps.citations.answers.types import Evidence
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.formats.pdf_list_markers import attach_list_markers
from tests.citations.hit_factory import make_hit

ROOT = Path(__file__).resolve().parents[2]
SCRAPY = ROOT / "bench" / "answers" / "documents" / "scrapy_2.11.2_architecture.pdf"
VARIED = ROOT.parent / "shared" / "corpus" / "pdf-varied"


@cache
def _blocks(path: Path) -> tuple[str, ...]:
    return tuple(b.text for b in parse_document(path.read_bytes(), path.name).blocks)


def test_bullets_set_apart_are_read_with_their_items_and_make_a_list():
    path = SCRAPY
    chunks = chunk_document(parse_document(path.read_bytes(), path.name))
    (chunk,) = [c for c in chunks if c.heading_path and c.heading_path[-1] == "Downloader middlewares"]
    assert "• • •" not in chunk.text
    evidence = [Evidence(1, make_hit(text=chunk.text, heading_path=list(chunk.heading_path)))]
    (block,) = find_lists(evidence)
    assert block.lead.endswith("if you need to do one of the following:")
    assert [t for _, t in block.items] == [
        "• process a request just before it is sent to the Downloader (i.e. right before Scrapy sends the request "
        "to the website);",
        "• change received response before passing it to a spider;",
        "• send a new Request instead of passing received response to a spider;",
        "• pass response to a spider without fetching a web page;",
        "• silently drop some requests.",
    ]
    # The numbered steps of its data flow: each number in front of its step.
    assert "1. The Engine <component-engine> gets the initial Requests to crawl from" in _blocks(path)


def test_files_nobody_developed_this_on_get_their_bullets_and_numbered_headings_back():
    # A Word export (LNCS) with a column of bullets beside three formulas' descriptions.
    blocks = _blocks(VARIED / "lncs_word_berardi_assoc_rules_biomed.pdf")
    assert not any(set(b.split()) == {"•"} for b in blocks)
    assert [b.split(" of X")[0] for b in blocks if b.startswith("• the ") and " of X" in b][:3] == [
        "• the Classical Dependency",
        "• the Novelty",
        "• the Satisfaction",
    ]
    # revtex's roman section numbers are set apart from their titles: "I. INTRODUCTION …" is one heading again.
    assert any(b.startswith("I. INTRODUCTION") for b in _blocks(VARIED / "revtex_aps_nakamoto_consensus_2col.pdf"))
    # An equation's number alone in its box at a column's right edge is no marker of the next column's text.
    blocks = _blocks(VARIED / "ieee_tcsvt1997_disk_storage_scalable_video.pdf")
    assert "(4)" in blocks and not any(b.startswith("(4) By comparing") for b in blocks)


def _line(text: str, x0: float, x1: float, y: float = 100.0) -> dict:
    return {"bbox": (x0, y, x1, y + 10), "spans": [{"text": text, "size": 10.0, "flags": 0, "font": "Times"}]}


def test_a_marker_joins_only_the_line_right_after_it_in_its_block():
    bullet, item = _line("•", 72, 76), _line("Tracing of every request", 90, 300)
    initial_m, initial_a = _line("M.", 72, 82, 150), _line("A.", 84, 94, 150)
    name = _line("Nielsen, Neural Networks", 96, 300, 150)
    figure, dash, caption = (
        _line("Fig.", 72, 90, 200),
        _line("–", 93, 99, 200),
        _line("Antineoplastic action", 102, 300, 200),
    )
    blocks = [{"lines": [bullet, item]}, {"lines": [initial_m, initial_a, name]}, {"lines": [figure, dash, caption]}]
    attach_list_markers(blocks)
    texts = [["".join(s["text"] for s in ln["spans"]) for ln in b["lines"]] for b in blocks]
    assert texts[0] == ["• Tracing of every request"] and item["bbox"][0] == 72
    # Initials and a dash inside a caption have text right before them: no marker opens a line there.
    assert texts[1] == ["M.", "A.", "Nielsen, Neural Networks"]
    assert texts[2] == ["Fig.", "–", "Antineoplastic action"]
    # A counter alone in a block of its own (an equation's number) joins nothing in another block.
    number, beside = _line("(4)", 282, 294), _line("By comparing (7) and (8), we see", 306, 540)
    blocks = [{"lines": [number]}, {"lines": [beside]}]
    attach_list_markers(blocks)
    assert [ln["spans"][0]["text"] for b in blocks for ln in b["lines"]] == ["(4)", "By comparing (7) and (8), we see"]
