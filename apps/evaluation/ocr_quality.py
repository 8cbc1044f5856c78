"""Character error rate of OCR on clean scans made from PDFs whose text is known.

A page of a PDF with a text layer is rasterised into an image-only PDF (what a scanner gives), which the PDF parser
reads through OCR; both the original and the scan go through the same parser, so reading order, dropped running
lines and paragraph joining are the same on both sides and what differs is what OCR got wrong.

CER = edit distance / reference length, after whitespace normalisation: runs of whitespace count as one space, and
for Chinese (a reference mostly of CJK characters) spaces are ignored altogether, since Chinese is written without
them. Used by the tests and by `manage.py evaluate_reading` (ocr_cer).
"""

from __future__ import annotations

import numpy as np
import pymupdf

from apps.documents.parsing.blocks import ParsedDocument
from apps.documents.parsing.formats.pdf import PARSER
from apps.documents.parsing.sentences import cjk_count

SCAN_DPI = 200


def rasterise(pdf_bytes: bytes, pages: list[int], dpi: int = SCAN_DPI) -> bytes:
    """An image-only PDF of `pages` (1-based) of the PDF, each page a greyscale picture at `dpi`, same page size."""
    out = pymupdf.open()
    with pymupdf.open(stream=pdf_bytes, filetype="pdf") as src:
        for pno in pages:
            page = src[pno - 1]
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
            scan = out.new_page(width=page.rect.width, height=page.rect.height)
            scan.insert_image(scan.rect, stream=pix.tobytes("png"))
    data = out.tobytes(garbage=3, deflate=True)
    out.close()
    return data


def subset(pdf_bytes: bytes, pages: list[int]) -> bytes:
    """The same pages with their text layer, as a PDF of their own (the reference side)."""
    with pymupdf.open(stream=pdf_bytes, filetype="pdf") as src:
        out = pymupdf.open()
        for pno in pages:
            out.insert_pdf(src, from_page=pno - 1, to_page=pno - 1)
        data = out.tobytes()
        out.close()
    return data


def page_texts(parsed: ParsedDocument) -> dict[int, str]:
    """The parsed text of each page, blocks in reading order, one per line."""
    out: dict[int, list[str]] = {}
    for block in parsed.blocks:
        out.setdefault(block.page or 0, []).append(block.text)
    return {page: "\n".join(texts) for page, texts in out.items()}


def normalise(text: str, chinese: bool) -> str:
    return "".join(text.split()) if chinese else " ".join(text.split())


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance, one numpy row at a time (a few hundred ms for two 5,000-character pages)."""
    if not a or not b:
        return max(len(a), len(b))
    bb = np.frombuffer(b.encode("utf-32-le"), dtype=np.uint32)
    index = np.arange(len(b) + 1)
    row = index.copy()
    for i, ch in enumerate(a, start=1):
        cost = (bb != ord(ch)).astype(np.int64)
        # Without insertions first (deletion from above, substitution from the diagonal) ...
        best = np.empty_like(row)
        best[0] = i
        best[1:] = np.minimum(row[1:] + 1, row[:-1] + cost)
        # ... then insertions along the row: new[j] = min over k <= j of best[k] + (j - k).
        row = np.minimum.accumulate(best - index) + index
    return int(row[-1])


def cer(reference: str, hypothesis: str) -> dict:
    """{"cer", "chars", "errors", "chinese"} for one pair of texts (module docstring for the normalisation)."""
    chinese = cjk_count(reference) > 0.3 * len("".join(reference.split()) or "x")
    ref, hyp = normalise(reference, chinese), normalise(hypothesis, chinese)
    errors = edit_distance(ref, hyp)
    return {"cer": round(errors / max(1, len(ref)), 4), "chars": len(ref), "errors": errors, "chinese": chinese}


def ocr_cer(pdf_bytes: bytes, pages: list[int], dpi: int = SCAN_DPI) -> dict:
    """OCR the rasterised `pages` of a PDF with a text layer and compare with that text layer, page by page:
    {"cer": total errors / total reference characters, "chars", "errors", "pages": {page: cer of that page}}."""
    reference_pdf = subset(pdf_bytes, pages)
    reference = page_texts(PARSER.parse(reference_pdf, "reference.pdf"))
    scanned = PARSER.parse(rasterise(pdf_bytes, pages, dpi), "scan.pdf")
    recognised = page_texts(scanned)
    per_page, errors, chars = {}, 0, 0
    for n, pno in enumerate(pages, start=1):
        result = cer(reference.get(n, ""), recognised.get(n, ""))
        per_page[pno] = result["cer"]
        errors, chars = errors + result["errors"], chars + result["chars"]
    return {
        "cer": round(errors / max(1, chars), 4),
        "chars": chars,
        "errors": errors,
        "pages": per_page,
        "unread_pages": [pages[p - 1] for p in scanned.needs_ocr_pages],
        **boxes_hold_their_text(reference_pdf, scanned),
    }


# A box that holds its block's text differs from it by OCR's errors only (a few percent); a box a line or a column
# off holds other words (an error rate near 1). Between the two, a quarter.
BOXED_CER = 0.25


def boxes_hold_their_text(reference_pdf: bytes, scanned: ParsedDocument) -> dict:
    """Whether each OCR'd block's rectangles hold the text it shows: the text layer's words whose centres lie in
    the block's rectangles on the same page of the original, compared with the block's recognised text
    ({"blocks", "blocks_boxed"}; a citation of an OCR'd passage draws exactly these rectangles)."""
    boxed = total = 0
    with pymupdf.open(stream=reference_pdf, filetype="pdf") as doc:
        words = {pno: doc[pno - 1].get_text("words", sort=True) for pno in range(1, doc.page_count + 1)}
    for block in scanned.blocks:
        if not block.rects or not block.text.strip():
            continue
        total += 1
        inside = [
            w[4]
            for w in words.get(block.rects[0].page, [])
            if any(r.x0 <= (w[0] + w[2]) / 2 <= r.x1 and r.y0 <= (w[1] + w[3]) / 2 <= r.y1 for r in block.rects)
        ]
        boxed += cer(" ".join(inside), block.text)["cer"] <= BOXED_CER
    return {"blocks": total, "blocks_boxed": boxed}


def text_pdf(paragraphs: list[str], *, fontname: str = "china-s", fontsize: float = 10.5) -> bytes:
    """A one-column A4 PDF of `paragraphs` set in one of MuPDF's built-in fonts ("china-s": its CJK font), as
    many pages as they need: Chinese pages with a known text layer, to be rasterised for ocr_cer."""
    doc = pymupdf.open()
    margin = 72
    todo = list(paragraphs)
    while todo:
        page = doc.new_page(width=595, height=842)
        box = pymupdf.Rect(margin, margin, page.rect.width - margin, page.rect.height - margin)
        while todo:
            height = _height_of(todo[0], box.width, fontname, fontsize)
            if box.y0 + height > box.y1 and box.y0 > margin:
                break  # the next paragraph goes on a new page
            page.insert_textbox(
                pymupdf.Rect(box.x0, box.y0, box.x1, box.y0 + height),
                todo.pop(0),
                fontname=fontname,
                fontsize=fontsize,
                lineheight=1.5,
            )
            box.y0 += height + fontsize
    data = doc.tobytes()
    doc.close()
    return data


def _height_of(text: str, width: float, fontname: str, fontsize: float) -> float:
    """The height insert_textbox needs for `text`: found by trying, since it wraps CJK by character."""
    probe = pymupdf.open()
    page = probe.new_page(width=width + 10, height=5000)
    left = page.insert_textbox(
        pymupdf.Rect(0, 0, width, 5000), text, fontname=fontname, fontsize=fontsize, lineheight=1.5
    )
    probe.close()
    return 5000 - left + 2
