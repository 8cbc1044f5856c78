"""The cited quote inside its passage: cut into pieces, found on real PDF pages by PyMuPDF within the chunk's own
rectangles (also on turned and cropped pages, across hyphenated line ends and citation marks), and given to the
viewer only by the citation it was opened at, escaped, to the conversation's owner only."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pymupdf
import pytest
from django.core.files.base import ContentFile

from apps.citations.answers.store import text_hash
from apps.documents.extensions import PanelQuote
from apps.documents.locators import viewer_url
from apps.documents.models import Chunk, Document, DocumentStatus
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.passage_text import sentences
from apps.documents.quote_places import GROW, cited_quote, quote_pieces, quote_rects
from tests.citations.test_ask_pages import _stored_message
from tests.test_browser_viewer_pdf import _turned_and_cropped

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
TRACEMONKEY = CORPUS / "sci-pdf-other" / "pdfjs_tracemonkey.pdf"
HINDAWI = CORPUS / "sci-pdf-jats" / "papers" / "hindawi-PMC4736773" / "paper.pdf"
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it


def _norm(text: str) -> str:
    """Letters and digits only: line breaks, hyphens and spaces differ between chunk text and page text."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).lower()


def _words(text: str) -> list[str]:
    """The quote's words worth checking: citation marks out, four letters or more."""
    return [w for w in (_norm(w) for w in re.sub(r"\[[^\]]*\]", " ", text).split()) if len(w) >= 4]


def _chunks(path: Path) -> list:
    return [c for c in chunk_document(parse_document(path.read_bytes(), path.name)) if c.locator_precision == "bbox"]


def _rects(chunk) -> list[dict]:
    return [rect.as_dict() for rect in chunk.rects]


def _text_under(path: Path, boxes: list[dict]) -> str:
    with pymupdf.open(path) as doc:
        return "".join(
            doc[b["page"] - 1].get_text("text", clip=pymupdf.Rect(b["x0"], b["y0"], b["x1"], b["y1"])) for b in boxes
        )


def _inside_the_chunk(box: dict, rects: list[dict]) -> bool:
    x, y = (box["x0"] + box["x1"]) / 2, (box["y0"] + box["y1"]) / 2
    return any(
        r["page"] == box["page"] and r["x0"] - GROW <= x <= r["x1"] + GROW and r["y0"] - GROW <= y <= r["y1"] + GROW
        for r in rects
    )


def _assert_boxes_hold_the_quote(path: Path, boxes: list[dict], rects: list[dict], quote: str) -> None:
    assert boxes, quote
    assert all(_inside_the_chunk(box, rects) for box in boxes), (boxes, rects)
    held = _norm(_text_under(path, boxes))
    missing = [w for w in _words(quote) if w not in held]
    assert not missing, (missing, held)
    # and the boxes hold the quote, not the passage's other sentences
    stray = [w for w in _words(_text_under(path, boxes)) if w not in _norm(quote)]
    assert len(stray) <= 1, stray


def _prose(chunk) -> list[str]:
    """The chunk's sentences that read as prose (a table row of numbers is no quote)."""
    return [s for s in sentences(chunk.text) if len(s.split()) >= 8 and sum(ch.isalpha() for ch in s) > 0.7 * len(s)]


# ---- the pieces a quote is looked for by ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("quote", "pieces"),
    [
        ("Cave lions lived across Europe.", ["Cave lions lived across Europe."]),
        # a superscript citation on the page: cut there, and the comma left behind goes too ("Earlier work" is too
        # short to stand alone)
        (
            "Earlier work [12], as reviewed in (ref 3) by many groups, found the same trend.",
            ["as reviewed in", "by many groups, found the same trend."],
        ),
        # sentence ends, a cut quote's "…", a list's bullet and number
        (
            "The first result holds. The second result was cut short here …",
            ["The first result holds.", "The second result was cut short here"],
        ),
        ("Samples were dated • 2. Bones from twelve caves", ["Samples were dated", "Bones from twelve caves"]),
        # too short to say anything alone, unless it is the whole quote
        ("Yes [3]. We also counted birds.", ["We also counted birds."]),
        ("11 August", ["11 August"]),
        ("", []),
    ],
)
def test_a_quote_is_cut_where_chunk_and_page_text_differ(quote, pieces):
    assert quote_pieces(quote) == pieces


def test_the_pieces_are_bounded():
    quote = " ".join(f"Sentence number {n} says something." for n in range(30))
    assert len(quote_pieces(quote)) == 10


@pytest.mark.parametrize(("chunk_index", "shown"), [(4, True), (5, False)])
def test_only_the_quoted_chunk_gets_its_quote(chunk_index, shown):
    asked = PanelQuote(chunk_index, " The birds sang. ")
    assert cited_quote(asked, {"chunk_index": 4}) == ("The birds sang." if shown else "")
    assert cited_quote(None, {"chunk_index": 4}) == cited_quote(asked, None) == ""


# ---- PyMuPDF on real papers -----------------------------------------------------------------------------------------
@needs_corpus
def test_the_quote_is_found_inside_its_chunk_on_a_real_paper():
    chunks = _chunks(TRACEMONKEY)
    chunk = next(c for c in chunks if c.page >= 5 and c.page == c.page_end and len(_prose(c)) >= 3)
    quote = _prose(chunk)[len(_prose(chunk)) // 2]
    boxes = quote_rects(str(TRACEMONKEY), _rects(chunk), quote)
    _assert_boxes_hold_the_quote(TRACEMONKEY, boxes, _rects(chunk), quote)
    assert {box["page"] for box in boxes} == {chunk.page}

    # a quote cut short with "…" still finds what it has
    cut = quote[:60].rsplit(" ", 1)[0] + "…"
    _assert_boxes_hold_the_quote(TRACEMONKEY, quote_rects(str(TRACEMONKEY), _rects(chunk), cut), _rects(chunk), cut)

    # a sentence of the next passage on the same page is not in this one, although the page has it
    neighbour = next(c for c in chunks if c.page == chunk.page and c.chunk_index > chunk.chunk_index and _prose(c))
    elsewhere = _prose(neighbour)[0]
    assert quote_rects(str(TRACEMONKEY), _rects(neighbour), elsewhere)
    assert quote_rects(str(TRACEMONKEY), _rects(chunk), elsewhere) == []
    assert quote_rects(str(TRACEMONKEY), _rects(chunk), "Reed warblers were counted along the shore.") == []


def _bounds(rects: list) -> pymupdf.Rect:
    return pymupdf.Rect(
        min(r.x0 for r in rects), min(r.y0 for r in rects), max(r.x1 for r in rects), max(r.y1 for r in rects)
    )


def _foot_to_top(chunk, page: int) -> bool:
    """The chunk ends the left column of the page and begins the right one (a two-column paper, 612 pt wide)."""
    left = [r for r in chunk.rects if r.page == page and r.x1 < 300]
    right = [r for r in chunk.rects if r.page == page and r.x0 > 310]
    return bool(left and right) and min(r.y0 for r in left) > max(r.y1 for r in right)


@needs_corpus
def test_a_passage_that_goes_on_in_the_next_column_does_not_take_in_the_text_between():
    # given a passage that ends one column and starts the next on the same page: the box around its rectangles
    # also covers other passages (the rest of both columns)
    chunks = _chunks(TRACEMONKEY)
    chunk, page = next((c, p) for c in chunks for p in sorted({r.page for r in c.rects}) if _foot_to_top(c, p))
    around = _bounds([r for r in chunk.rects if r.page == page])
    covered = (
        (sentence, [r.as_dict() for r in o.rects if r.page == page and pymupdf.Rect(r.x0, r.y0, r.x1, r.y1) in around])
        for o in chunks
        if o is not chunk
        for sentence in _prose(o)
    )
    # then a sentence of another passage, there in that box, is not taken for one of this passage's
    sentence = next(s for s, rects in covered if rects and quote_rects(str(TRACEMONKEY), rects, s))
    assert quote_rects(str(TRACEMONKEY), _rects(chunk), sentence) == []


@needs_corpus
def test_citation_marks_and_words_hyphenated_at_a_line_end_do_not_hide_the_quote():
    # the chunk says "… according to the WHO guidelines [9]."; the page breaks "guide-" / "lines" across two lines
    chunk = next(c for c in _chunks(HINDAWI) if "according to the WHO guidelines [9]." in c.text)
    quote = next(s for s in sentences(chunk.text) if s.endswith("WHO guidelines [9]."))
    boxes = quote_rects(str(HINDAWI), _rects(chunk), quote)
    _assert_boxes_hold_the_quote(HINDAWI, boxes, _rects(chunk), quote)
    assert "whoguidelines" in _norm(_text_under(HINDAWI, boxes))


@needs_corpus
def test_the_boxes_are_in_the_chunk_rectangles_coordinates_on_turned_and_cropped_pages(tmp_path):
    path = tmp_path / "turned.pdf"
    path.write_bytes(_turned_and_cropped(HINDAWI))
    chunks = _chunks(path)
    for number in (2, 4):  # a quarter turn clockwise and anticlockwise, both cropped
        chunk = max((c for c in chunks if {r.page for r in c.rects} == {number}), key=lambda c: len(_prose(c)))
        quote = _prose(chunk)[-1]
        _assert_boxes_hold_the_quote(path, quote_rects(str(path), _rects(chunk), quote), _rects(chunk), quote)


@needs_corpus
def test_no_file_a_damaged_file_or_a_page_past_the_end_gives_no_boxes(tmp_path):
    chunk = next(c for c in _chunks(HINDAWI) if _prose(c))
    quote = _prose(chunk)[0]
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(HINDAWI.read_bytes()[:2000])
    assert quote_rects(str(tmp_path / "gone.pdf"), _rects(chunk), quote) == []
    assert quote_rects(str(damaged), _rects(chunk), quote) == []
    assert quote_rects("", _rects(chunk), quote) == []
    assert quote_rects(str(HINDAWI), [{**r, "page": 99} for r in _rects(chunk)], quote) == []


# ---- the viewer: the quote in the head and the target, for the owner of the answer only ------------------------------
def _target(response) -> dict:
    assert response.status_code == 200
    return json.loads(
        re.search(r'id="viewer-target" type="application/json">(.*?)</script>', response.content.decode())[1]
    )


@pytest.mark.django_db
def test_the_viewer_shows_the_cited_quote_escaped_to_the_owner_only(page_client_for, personas, document):
    message = _stored_message(personas["viewer"], document)  # quotes "hello <script>alert(1)</script> world"
    url = viewer_url(document.pk, 0, message.pk, 1)
    response = page_client_for("viewer").get(url)
    body = response.content.decode()
    assert (
        'Cited for: “<span class="cited-quote-text">hello &lt;script&gt;alert(1)&lt;/script&gt; world</span>”' in body
    )
    assert "<script>alert(1)" not in body
    target = _target(response)
    assert target["quote"] == "hello <script>alert(1)</script> world"
    assert target["quote_pieces"] == ["hello <script>alert(1)</script> world"]
    assert "quote_rects" not in target  # not a PDF

    # opened without the answer, or by someone else (a member who may read the document), there is no quote
    for persona, link in (("viewer", viewer_url(document.pk, 0)), ("manager", url)):
        response = page_client_for(persona).get(link)
        assert "Cited for" not in response.content.decode()
        assert "quote" not in _target(response)


@pytest.mark.django_db
def test_a_citation_whose_passage_changed_gives_no_quote(page_client_for, personas, document):
    message = _stored_message(personas["viewer"], document)
    message.result["citations"][0]["chunk_hash"] = text_hash("what the passage said before")
    message.save()
    response = page_client_for("viewer").get(viewer_url(document.pk, 0, message.pk, 1))
    assert "quote" not in _target(response) and "Cited for" not in response.content.decode()


def _pdf_document(collection, text_lines: list[str]) -> Document:
    """A one-page PDF with a chunk over its lines, rectangles as the parser makes them (line boxes)."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    for n, line in enumerate(text_lines):
        page.insert_text((72, 100 + 16 * n), line, fontsize=11)
    data = pdf.tobytes()
    lines = [ln for b in page.get_text("dict")["blocks"] for ln in b.get("lines", [])]
    rects = [{"page": 1, **dict(zip(("x0", "y0", "x1", "y1"), ln["bbox"], strict=True))} for ln in lines]
    document = Document(
        collection=collection,
        original_name="birds.pdf",
        doc_type="pdf",
        size=len(data),
        sha256="c" * 64,
        status=DocumentStatus.READY,
        chunk_count=1,
    )
    document.file.save("birds.pdf", ContentFile(data), save=False)
    document.save()
    Chunk.objects.create(
        document=document,
        chunk_index=0,
        text=" ".join(text_lines),
        locator_precision="bbox",
        page=1,
        page_end=1,
        locator={"rects": rects},
    )
    return document


@pytest.mark.django_db
def test_a_pdf_citation_brings_its_quote_boxes_and_a_missing_file_only_loses_them(
    page_client_for, personas, collection
):
    lines = ["Reed warblers were counted at dawn.", "The northern transect had twelve birds", "on every second day."]
    document = _pdf_document(collection, lines)
    quote = "The northern transect had twelve birds on every second day."
    message = _stored_message(personas["viewer"], document)
    message.result["citations"][0]["quote"] = quote
    message.save()
    url = viewer_url(document.pk, 0, message.pk, 1)

    target = _target(page_client_for("viewer").get(url))
    boxes = target["quote_rects"]
    assert [box["page"] for box in boxes] == [1, 1]  # two lines, the first one left out
    assert all(_inside_the_chunk(box, target["rects"]) for box in boxes)
    assert min(box["y0"] for box in boxes) > target["rects"][0]["y1"] - GROW

    Path(document.file.path).unlink()
    target = _target(page_client_for("viewer").get(url))
    assert target["quote"] == quote and target["quote_rects"] == []
