"""Where a citation's quote lies inside the passage the viewer highlights.

An answer cites a chunk and quotes the sentence(s) of it that back the claim (apps/citations/answers/citation.py).
The viewer highlights the whole chunk; opened from that answer, it also emphasises the quote. This module gives it
what that takes: the quote a viewer panel asks for (a PanelQuote of apps/documents/extensions.py: citations' quote
of the citation the viewer was opened from, while it still points at the chunk on screen), the quote cut into
pieces that can be found in the rendered document, and for a PDF the boxes of those pieces on the page, found by
PyMuPDF in the very coordinates of the chunk's own rectangles.

Chunk text and page text part ways in known places, so the quote is cut there and each piece is looked for on its
own: a superscript citation is "[12]" in the chunk and a raised "12" on the page, a quote cut short ends in "…",
a list's bullet or number is drawn by the list, and a word hyphenated at a line end is whole in the chunk.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING

import pymupdf

from apps.documents.ocr_places import ocr_quote_rects
from apps.documents.parsing.passage_text import sentences
from apps.documents.parsing.sentences import cjk_count
from apps.documents.quote_table_places import is_table_quote, table_quote_rects

if TYPE_CHECKING:
    from apps.documents.extensions import PanelQuote
    from apps.documents.models import Document

log = logging.getLogger(__name__)

MIN_WORDS = 3  # a shorter piece ("et al", "p < 0.05") says little and is found in too many places
MIN_CJK = 6  # the same for Chinese, in characters
MAX_PIECES = 10  # bounds the work of one request; a quote is one or two sentences
GROW = 2.0  # points: glyph boxes stick out of the line boxes the chunk's rectangles were made from
# In-text citations as the chunk writes them ("[12]", "[3, 5–7]", "(ref 3)", "(refs. 2, 4)"), the cut mark, and a
# list's bullet that whitespace collapsing left inside the quote.
_CUT = re.compile(r"\[\d[\d,;\s\u2013-]*\]|\(refs?\.?\s*\d[\d,;\s\u2013-]*\)|…|(?:^|\s)[•▪◦➢✓](?=\s)", re.I)
# A list item's or heading's number at the start of a piece ("3.", "2.1", "a)", "iv."): drawn apart, if at all.
_LEAD = re.compile(r"^\(?(?:\d+(?:\.\d+)*|[a-z]|[ivx]+)[.)]\s+")
_EDGE_PUNCTUATION = " ,;:"
_LINE_END_HYPHEN = re.compile(r"(\w[\w-]*)-\n(\w+)")
_WORD = re.compile(r"\w[\w-]*\w|\w")
MAX_BROKEN = 3  # words of one piece tried both whole and broken as on the page: at most 2**3 spellings
MAX_SEARCHES = 80  # per page: a few milliseconds each (measured), so a citation never holds up the page
# Pages searched per request: a chunk spans two pages at most, so its rectangles never name more; a forged or
# broken locator naming hundreds of pages must not make one view open each of them.
MAX_PAGES = 3
# The parser's own text flags (formats/pdf.py), so the page text spells ligatures out as the chunk does. MuPDF's
# dehyphenation is asked for where this PyMuPDF has it, but in 1.28 its search still wants "guide- lines" for a
# word broken at a line end, hence _hyphenated_words.
_SEARCH_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP | getattr(pymupdf, "TEXT_DEHYPHENATE", 0)


def add_quote(target: dict | None, asked: PanelQuote | None, document: Document) -> None:
    """Give the viewer's target (views.viewer.locator) the quote a viewer panel asked for, its pieces and, for a
    PDF passage with rectangles, the quote's own boxes; nothing when the viewer does not show the quoted chunk."""
    quote = cited_quote(asked, target)
    if not quote or target is None:
        return
    target["quote"] = quote
    target["quote_pieces"] = quote_pieces(quote)
    if document.doc_type == "pdf" and target.get("locator_precision") == "bbox":
        if target.get("ocr"):  # a scanned page: no text layer to search, but the recognised lines
            target["quote_rects"] = ocr_quote_rects(_ocr_lines(document, target), target["quote_pieces"])
        else:
            target["quote_rects"] = quote_rects(_local_path(document), target.get("rects") or [], quote)


def _ocr_lines(document: Document, target: dict) -> list[dict]:
    """The recognised lines of the chunk shown (Chunk.locator["ocr_lines"]), with their text and boxes."""
    from apps.documents.models import Chunk

    locator = Chunk.objects.filter(document=document, chunk_index=target["chunk_index"]).values_list(
        "locator", flat=True
    )
    return list((locator.first() or {}).get("ocr_lines") or [])


def _local_path(document: Document) -> str:
    """The stored file's path; "" where the storage has none (S3), which quote_rects takes as not found."""
    try:
        return document.file.path
    except (NotImplementedError, ValueError) as exc:
        log.debug("quote not placed in document %s: no local file (%r)", document.pk, exc)
        return ""


def cited_quote(asked: PanelQuote | None, target: dict | None) -> str:
    """The quote asked for, when its chunk is the one shown; "" otherwise, e.g. after the reader went to another
    chunk."""
    if asked is None or not target or asked.chunk_index != target.get("chunk_index"):
        return ""
    return asked.text.strip()


def quote_pieces(quote: str) -> list[str]:
    """The quote cut where chunk text and rendered text may differ (module docstring), at most MAX_PIECES pieces
    of at least MIN_WORDS words each; a quote shorter than that is its own single piece."""
    pieces = []
    for part in _CUT.split(quote):
        for sentence in sentences(part):
            piece = _LEAD.sub("", sentence.strip(_EDGE_PUNCTUATION)).strip(_EDGE_PUNCTUATION)
            if len(piece.split()) >= MIN_WORDS:
                pieces.append(piece)
    if not pieces and quote.strip():
        whole = quote.strip(" …" + _EDGE_PUNCTUATION)
        pieces = [whole] if whole else []
    return pieces[:MAX_PIECES]


def quote_rects(path: str, rects: list[dict], quote: str) -> list[dict]:
    """Boxes of the quote's words on the chunk's pages, each inside one of the chunk's rectangles, in the chunk
    rectangles' coordinates ({page, x0, y0, x1, y1}, points from the top-left of the unrotated crop box), in the
    quote's order. Nothing when the file cannot be read or the quote is not found; never raises."""
    pieces = quote_pieces(quote)
    if not pieces or not rects or not path:
        return []
    try:
        with pymupdf.open(path) as doc:
            if is_table_quote(quote):  # a table row's cells ("Beijing | 1,234 | 5.6%"): quote_table_places.py
                return table_quote_rects(doc, rects, quote) or _boxes(doc, rects, pieces)
            return _boxes(doc, rects, pieces)
    except Exception as exc:  # a missing or damaged file, or any MuPDF error: the chunk highlight is enough
        log.debug("quote not placed in %s: %r", path, exc)
        return []


def _boxes(doc: pymupdf.Document, rects: list[dict], pieces: list[str]) -> list[dict]:
    """Page by page, the boxes of each piece not already found whole on an earlier page (a sentence that ends
    on page 3 must not have its words looked for among page 4's)."""
    out, done = [], set()
    pages = sorted({rect["page"] for rect in rects if 1 <= rect["page"] <= doc.page_count})
    for number in pages[:MAX_PAGES]:
        search = _PageSearch(doc[number - 1], [_grown(rect) for rect in rects if rect["page"] == number])
        for piece in pieces:
            if piece in done:
                continue
            hits = search.whole(piece)
            if hits:
                done.add(piece)
            for hit in hits or search.parts(piece):
                out.append({"page": number, **{k: round(getattr(hit, k), 2) for k in ("x0", "y0", "x1", "y1")}})
    return out


def _grown(rect: dict) -> pymupdf.Rect:
    return pymupdf.Rect(rect["x0"] - GROW, rect["y0"] - GROW, rect["x1"] + GROW, rect["y1"] + GROW)


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


class _PageSearch:
    """MuPDF's search over the union of the chunk's rectangles on one page, keeping only the hits that lie inside
    one of them (the union of a chunk that goes on in the next column also covers the other column's foot)."""

    def __init__(self, page: pymupdf.Page, own: list[pymupdf.Rect]) -> None:
        clip = pymupdf.Rect(own[0])
        for rect in own[1:]:
            clip |= rect
        self.page, self.own, self.searches = page, own, 0
        self.textpage = page.get_textpage(clip=clip, flags=_SEARCH_FLAGS)
        text = self.textpage.extractText()
        self.hyphenated = _hyphenated_words(text)
        self.flat = _flat(text)

    def whole(self, piece: str, *, unique: bool = False) -> list[pymupdf.Rect]:
        """The piece's boxes, under the first of its spellings that is found; with `unique`, only if the words
        occur once in the clip (a few words cut from a sentence may also stand elsewhere in the passage)."""
        for spelling in _spellings(piece, self.hyphenated):
            if self.searches >= MAX_SEARCHES:
                return []
            self.searches += 1
            hits = [hit for hit in self.page.search_for(spelling, textpage=self.textpage) if self._inside(hit)]
            if hits:
                return hits if not unique or self.flat.count(_flat(spelling)) == 1 else []
        return []

    def parts(self, piece: str) -> list[pymupdf.Rect]:
        """A piece not found whole (an odd character, a page break inside it, a Chinese line break): its halves, and
        their halves, down to MIN_WORDS words (MIN_CJK characters), so one difference costs a few words, not all."""
        words, joiner, least = piece.split(" "), " ", MIN_WORDS
        if len(words) < 2 * MIN_WORDS and cjk_count(piece) >= 2 * MIN_CJK:
            # Chinese has no spaces, and MuPDF's search does not cross its line breaks: halves by characters.
            words, joiner, least = list(piece), "", MIN_CJK
        if len(words) < 2 * least:
            return []
        out = []
        for half in (joiner.join(words[: len(words) // 2]), joiner.join(words[len(words) // 2 :])):
            out += self.whole(half, unique=True) or self.parts(half)
        return out

    def _inside(self, hit: pymupdf.Rect) -> bool:
        centre = (hit.tl + hit.br) / 2
        return any(centre in rect for rect in self.own)


def _hyphenated_words(page_text: str) -> dict[str, str]:
    """Words broken at a line end on the page, as the chunk may have them ("guidelines", the parser's repair, or
    "state-of-the-art") -> as MuPDF's search must be given them ("guide- lines")."""
    out = {}
    for head, tail in _LINE_END_HYPHEN.findall(page_text):
        out[head + tail] = out[f"{head}-{tail}"] = f"{head}- {tail}"
    return out


def _spellings(piece: str, hyphenated: dict[str, str]) -> Iterator[str]:
    """The piece as written, then with some of its words broken as the page breaks them somewhere: the same
    word may be broken in one line and whole in another, so every choice of (a few of) them is tried."""
    broken = [word for word in dict.fromkeys(_WORD.findall(piece)) if word in hyphenated][:MAX_BROKEN]
    for size in range(len(broken) + 1):
        for chosen in combinations(broken, size):
            yield _as_on_page(piece, {word: hyphenated[word] for word in chosen}) if chosen else piece


def _as_on_page(piece: str, spelled: dict[str, str]) -> str:
    words = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, spelled)) + r")(?![\w-])")
    return words.sub(lambda match: spelled[match.group()], piece)
