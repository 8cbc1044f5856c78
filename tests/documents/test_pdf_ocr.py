"""OCR of PDF pages without a text layer: rasterised pages of known text come back as located, flagged passages.

The pages are made at run time (tests/documents/scanned_pages.py): text set in MuPDF's built-in fonts, rasterised
at 200 dpi into image-only PDFs; the text layer they were made from says what and where the words really are.
"""

from __future__ import annotations

import dataclasses
import re

import pymupdf
import pytest

from apps.documents.ocr_places import ocr_quote_rects
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.formats import pdf_ocr
from apps.documents.parsing.formats.pdf import PARSER
from apps.documents.parsing.progress import reporting_to
from apps.documents.quote_places import quote_pieces
from apps.documents.services.staging import chunk_fields
from apps.evaluation.ocr_quality import boxes_hold_their_text, cer, edit_distance, ocr_cer, page_texts, rasterise
from tests.documents.scanned_pages import CHINESE, ENGLISH, scanned

CJK_SPACE = re.compile(r"[\u4e00-\u9fff]\s+[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def english():
    scan, original = scanned(ENGLISH, "helv")
    return parse_document(scan, "scan.pdf"), original


@pytest.fixture(scope="module")
def chinese():
    scan, original = scanned(CHINESE, "china-s")
    return parse_document(scan, "scan.pdf"), original


def test_a_scanned_english_page_is_read_with_its_lines_in_place(english):
    parsed, original = english
    # the page is read: nothing left for OCR, every block recognised and flagged
    assert parsed.needs_ocr_pages == []
    assert parsed.blocks and all(b.ocr and b.page == 1 for b in parsed.blocks)
    text = "\n".join(b.text for b in parsed.blocks)
    assert cer("\n".join(ENGLISH), text)["cer"] <= 0.05, text
    # every recognised line lies on the page, on the words it holds: its box overlaps where the original page
    # printed its first words
    width, height = parsed.page_sizes[1]
    with pymupdf.open(stream=original, filetype="pdf") as doc:
        page = doc[0]
        checked = 0
        for block in parsed.blocks:
            for text_of_line, rect in block.ocr_lines:
                assert 0 <= rect.x0 < rect.x1 <= width and 0 <= rect.y0 < rect.y1 <= height
                words = " ".join(text_of_line.split()[:3])
                hits = page.search_for(words) if len(words) >= 10 else []
                if hits:
                    checked += 1
                    assert any(pymupdf.Rect(rect.x0, rect.y0, rect.x1, rect.y1).intersects(hit) for hit in hits)
        assert checked >= 5


def test_a_scanned_chinese_page_is_joined_without_spaces_and_sentences_survive_line_ends(chinese):
    parsed, _ = chinese
    text = "\n".join(b.text for b in parsed.blocks)
    assert cer("\n".join(CHINESE), text)["cer"] <= 0.05, text
    assert not [b.text for b in parsed.blocks if CJK_SPACE.search(b.text)]
    # the two-line paragraph is one block: its sentence is not cut at the line end
    long_para = next(b for b in parsed.blocks if "每个测站" in b.text)
    assert len(long_para.ocr_lines) >= 2 and "以便比较" in long_para.text


def test_chunks_of_a_scanned_page_are_located_flagged_and_keep_their_lines(english):
    parsed, _ = english
    drafts = chunk_document(parsed)
    assert drafts and all(d.ocr and d.locator_precision == "bbox" and not d.locator_degraded for d in drafts)
    fields = chunk_fields(drafts[0], parsed.page_sizes)
    assert fields["locator"]["ocr"] is True
    lines = fields["locator"]["ocr_lines"]
    assert lines and all(set(line) == {"text", "page", "x0", "y0", "x1", "y1"} for line in lines)
    assert all(line["text"] in drafts[0].text for line in lines), (lines, drafts[0].text)


def test_a_quote_on_a_scanned_page_gets_boxes_on_its_own_lines(english):
    parsed, original = english
    draft = next(d for d in chunk_document(parsed) if "mill" in d.text)
    lines = [{"text": text, **rect.as_dict()} for text, rect in draft.ocr_lines]
    sentence = next(s for s in re.split(r"(?<=\.)\s+", draft.text) if "mill" in s)
    boxes = ocr_quote_rects(lines, quote_pieces(sentence))
    assert boxes
    # the boxes cover where the sentence really is on the page, and not the first paragraph's lines
    with pymupdf.open(stream=original, filetype="pdf") as doc:
        truth = doc[0].search_for("Stations below the old mill")
        other = doc[0].search_for("The survey team measured")
    assert truth and other
    first = pymupdf.Rect(boxes[0]["x0"], boxes[0]["y0"], boxes[0]["x1"], boxes[0]["y1"])
    assert first.intersects(truth[0])
    assert not any(pymupdf.Rect(b["x0"], b["y0"], b["x1"], b["y1"]).intersects(other[0]) for b in boxes)
    assert all(b["page"] == 1 for b in boxes)


def test_a_quote_not_in_the_lines_gets_no_boxes():
    lines = [{"text": "Alpha beta gamma delta.", "page": 1, "x0": 10, "y0": 10, "x1": 200, "y1": 22}]
    assert ocr_quote_rects(lines, ["Nothing of the sort is said here at all."]) == []
    assert ocr_quote_rects([{"text": "broken"}], ["broken"]) == []  # a locator without boxes: none, no error


def test_ocr_reports_its_pages_and_leaves_pages_it_did_not_reach_unread(monkeypatch):
    scan, _ = scanned(ENGLISH[:1], "helv")
    news = []
    with reporting_to(lambda *report: news.append(report)):
        parsed = parse_document(scan, "scan.pdf")
    assert news == [("ocr", 0, 1), ("ocr", 1, 1)]
    assert parsed.needs_ocr_pages == []
    # when the reading's CPU budget is spent, OCR stops: the page stays listed as unread, with nothing made up
    monkeypatch.setattr(pdf_ocr, "_cpu_budget", lambda: 0.0)
    parsed = parse_document(scan, "scan.pdf")
    assert parsed.needs_ocr_pages == [1] and parsed.blocks == []


def test_character_error_rate():
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == 3
    assert cer("The  cat\nsat.", "The cat sat.")["cer"] == 0.0  # whitespace is normalised
    assert cer("河流调查", "河 流 调 查")["cer"] == 0.0  # Chinese: spaces ignored
    assert cer("河流调查", "河流調查")["errors"] == 1


def test_ocr_cer_of_a_rasterised_chinese_page_is_within_five_percent():
    from apps.evaluation.ocr_quality import text_pdf

    data = text_pdf(CHINESE * 2)
    result = ocr_cer(data, [1])
    assert result["chars"] > 150 and result["unread_pages"] == []
    assert result["cer"] <= 0.05, result
    # Every OCR'd block's rectangles hold the words it shows (what a citation of it draws) ...
    assert result["blocks"] >= 2 and result["blocks_boxed"] == result["blocks"], result
    # ... and the measure sees a box that is off: the same blocks moved down by half the page hold other words.
    scanned = PARSER.parse(rasterise(data, [1]), "scan.pdf")
    scanned.blocks = [
        dataclasses.replace(b, rects=tuple(dataclasses.replace(r, y0=r.y0 + 421, y1=r.y1 + 421) for r in b.rects))
        for b in scanned.blocks
    ]
    assert boxes_hold_their_text(data, scanned)["blocks_boxed"] == 0


def test_page_texts_follow_the_blocks(english):
    parsed, _ = english
    assert page_texts(parsed)[1].startswith("Field notes")
