"""Text of PDF pages that have no text layer (scans), recognised by OCR, as the same raw lines the text path reads.

The engine is RapidOCR (rapidocr_onnxruntime, Apache-2.0): PP-OCRv4 detection and recognition models for Chinese
and English that ship inside the wheel and run on ONNX Runtime's CPU provider, so nothing is fetched at run time.
It is loaded once per reading process, and only when a page needs it (pdf.py asks only for pages `_needs_ocr`
found without usable text). A page is rendered in grey at OCR_DPI, its text lines are found and recognised, and
each line's pixel box is scaled back to PDF points, so a recognised line is a RawLine like any other: reading
order, paragraph joining, headings, chunking and the chunk's rectangles work unchanged, and the citation of a
scanned passage lands on its page with the passage boxed.

Lines are grouped into blocks by geometry (the next line right below, overlapping it, in the same type height);
pdf_paragraphs joins what is left apart. The type size of a block is estimated from its line heights, so the
style-based heading finder can still tell a larger heading from body text.

OCR costs seconds of CPU per page (measured: 10-15 s for a dense page on this 2-core machine), while the reading
process has a CPU limit (sandbox.py sets RLIMIT_CPU from PORTAL_PARSE_TIMEOUT_S). OCR stops when it has used
OCR_SHARE of that limit; the pages it did not reach stay in ParsedDocument.needs_ocr_pages, as do pages where
nothing was recognised, so that list keeps meaning "pages whose text could not be read".
"""

from __future__ import annotations

import ctypes
import logging
import os
import re
import resource
import statistics
from dataclasses import replace

import numpy as np
import pymupdf

from .. import progress
from ..blocks import Block, Rect
from ..sentences import cjk_count
from .pdf_layout import RawBlock, RawLine
from .pdf_ocr_spaces import restore_spaces

log = logging.getLogger(__name__)

OCR_DPI = 200  # 150 dpi loses thin strokes of small CJK characters; more costs detection time for nothing
MIN_SCORE = 0.5  # recognised lines the engine itself doubts more than this are noise (stains, figure marks)
OCR_SHARE = 0.6  # of the reading process's CPU limit: the rest is for chunking, references, and slack
THREADS = 2  # ONNX Runtime threads: the machine's cores; the worker runs one reading at a time
# A recognised line box is the glyphs' height plus the detector's margin (unclip ratio 1.6); the type size is
# about this share of it (measured on rasterised 9-12 pt text, see tests/documents/test_pdf_ocr.py).
SIZE_PER_HEIGHT = 0.75
# Lines of one block: the next starts within this many line heights below, in a height within SAME_HEIGHT.
LINE_GAP = 0.9
SAME_HEIGHT = 0.25
DET_SIDE = 1600  # pixels: the text detector sees the page at most this large (its memory grows with the area)
MMAP_THRESHOLD = 8 * 1024 * 1024  # bytes, see _fit_memory: at 32 MB the heap grew past the budget on the 2nd page
_M_ARENA_MAX, _M_MMAP_THRESHOLD = -8, -3  # glibc mallopt parameters (malloc.h)
STAGE = "ocr"  # progress.report stage name; ingest shows it as JobStage.OCR

_CJK = r"\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_SPACE_IN_CJK = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])")
# ASCII punctuation the recogniser writes for the full-width marks of Chinese text, after a CJK character.
_FULL_WIDTH = {",": "\uff0c", ";": "\uff1b", ":": "\uff1a", "?": "\uff1f", "!": "\uff01", "(": "\uff08", ")": "\uff09"}
_HALF_AFTER_CJK = re.compile(rf"(?<=[{_CJK}])\s*([,;:?!()])\s*")

_engine = None


def engine():
    """The OCR engine of this process, loaded on first use (about a second; its models are in the wheel)."""
    global _engine
    if _engine is None:
        _fit_memory()
        from rapidocr_onnxruntime import RapidOCR  # heavy import: only in a process that has a page to read

        _engine = RapidOCR(
            intra_op_num_threads=THREADS,
            inter_op_num_threads=1,
            text_score=MIN_SCORE,
            # The line-angle classifier turned whole upright lines upside down (measured: one line of six on a
            # clean page came back as noise); a page's own /Rotate is undone by rendering it, so lines are upright.
            use_cls=False,
            det_limit_type="max",
            det_limit_side_len=DET_SIDE,
        )
    return _engine


def _fit_memory() -> None:
    """Keep OCR's address space inside the reading process's RLIMIT_AS budget (sandbox.py; measured on a dense
    A4 page at 200 dpi: about 1.1-1.5 GB more without these, about 0.85 GB with them, against 1 GB allowed):
    - OpenCV's bundled OpenBLAS starts a thread per core with large buffers when loaded: one thread is enough;
    - glibc gives every thread its own 64 MB heap arena, and after a large block is freed it raises its mmap
      threshold, so the next large tensors come from the heap and stay mapped after use: one arena, and blocks
      of MMAP_THRESHOLD or more always mapped on their own (unmapped when freed)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_ARENA_MAX, 1)
        libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    except (OSError, AttributeError):  # not glibc: its allocator has its own ways
        log.debug("malloc options not set", exc_info=True)


def recognise_pages(doc: pymupdf.Document, pages: list[list[RawBlock]], needs_ocr: list[int]) -> set[int]:
    """OCR the pages listed in `needs_ocr` (1-based): each page read is put into `pages` and taken off
    `needs_ocr`. Returns the pages read. Reports ("ocr", done, total) progress after each page."""
    todo = list(needs_ocr)
    done: set[int] = set()
    if not todo:
        return done
    budget = _cpu_budget()
    progress.report(STAGE, 0, len(todo))
    for n, pno in enumerate(todo, start=1):
        if budget is not None and _cpu_used() > budget:
            log.info("OCR stopped after %d of %d pages: the reading's time budget is spent", n - 1, len(todo))
            break
        try:
            blocks = page_blocks(doc[pno - 1])
        except MemoryError:
            raise
        except Exception:  # one page the engine cannot handle must not cost the rest of the document
            log.warning("OCR of page %d failed", pno, exc_info=True)
            blocks = []
        if blocks:
            pages[pno - 1] = blocks
            done.add(pno)
        progress.report(STAGE, n, len(todo))
    needs_ocr[:] = [pno for pno in needs_ocr if pno not in done]
    return done


def page_blocks(page: pymupdf.Page) -> list[RawBlock]:
    """The page's recognised text as raw blocks, in PDF points of the page's own (unrotated) coordinates."""
    pix = page.get_pixmap(dpi=OCR_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width)
    result, _ = engine()(image)
    # Pixels -> points of the page as shown, then undo the page's /Rotate like the text layer's coordinates.
    to_page = pymupdf.Matrix(page.rect.width / pix.width, page.rect.height / pix.height) * page.derotation_matrix
    lines = []
    for box, text, score in result or []:
        text = clean_line(text)
        if not text or float(score) < MIN_SCORE:
            continue
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        rect = pymupdf.Rect(min(xs), min(ys), max(xs), max(ys)) * to_page
        if not page.rotation:
            rect &= page.rect  # the detector's margin may reach past the page edge
        if rect.is_empty:
            continue
        lines.append(RawLine(text=text, bbox=(rect.x0, rect.y0, rect.x1, rect.y1)))
    return group_lines(lines)


def clean_line(text: str) -> str:
    """One recognised line: spaces collapsed; in Chinese no space between two characters and full-width marks;
    English words the recogniser glued together spaced again (pdf_ocr_spaces.py)."""
    text = " ".join(text.split())
    if cjk_count(text):
        text = _SPACE_IN_CJK.sub("", text)
        text = _HALF_AFTER_CJK.sub(lambda m: _FULL_WIDTH[m.group(1)], text)
    return restore_spaces(text)  # English words the recogniser glued together


def group_lines(lines: list[RawLine]) -> list[RawBlock]:
    """Lines top to bottom into blocks: a line joins the open block whose last line is right above it, overlaps it
    horizontally and has about its height; otherwise it opens a block. Side-by-side columns stay apart."""
    blocks: list[list[RawLine]] = []
    for line in sorted(lines, key=lambda ln: (ln.bbox[1], ln.bbox[0])):
        home = next((b for b in reversed(blocks) if _continues(b, line)), None)
        if home is None:
            blocks.append([line])
        else:
            home.append(line)
    return [RawBlock(lines=b, max_size=_type_size(b)) for b in blocks]


def _continues(block: list[RawLine], line: RawLine) -> bool:
    """Whether `line` goes on `block`: right under its last line, and about the height of the block's lines so far
    (their median, not only the last line's: boxes drift a little from line to line, so comparing neighbours alone
    let a 16 pt title run on into the 10 pt byline and affiliations under it, F1000 3:305)."""
    ax0, _, ax1, ay1 = block[-1].bbox
    x0, y0, x1, y1 = line.bbox
    h_block, h = statistics.median(ln.bbox[3] - ln.bbox[1] for ln in block), y1 - y0
    if abs(h - h_block) > SAME_HEIGHT * max(h, h_block):
        return False
    overlap = min(ax1, x1) - max(ax0, x0)
    return overlap > 0.3 * min(ax1 - ax0, x1 - x0) and -0.5 * h <= y0 - ay1 <= LINE_GAP * h


def _type_size(lines: list[RawLine]) -> float:
    return round(SIZE_PER_HEIGHT * statistics.median(ln.bbox[3] - ln.bbox[1] for ln in lines), 1)


def flag_blocks(blocks: list[Block], pages: dict[int, list[RawLine]] | set[int]) -> list[Block]:
    """Blocks of OCR'd pages marked as recognised text, each with the recognised lines inside its rectangles
    (text and box), which is how the viewer boxes a quote on a page that has no text layer to search."""
    if not pages:
        return blocks
    out = []
    for block in blocks:
        if block.page not in pages:
            out.append(block)
            continue
        lines = tuple(
            (ln.text, Rect(block.page, *(round(v, 2) for v in ln.bbox)))
            for ln in pages[block.page]
            if any(_inside(ln.bbox, rect) for rect in block.rects)
        )
        out.append(replace(block, ocr=True, ocr_lines=lines))
    return out


def _inside(bbox: tuple[float, float, float, float], rect: Rect) -> bool:
    cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
    return rect.x0 - 1 <= cx <= rect.x1 + 1 and rect.y0 - 1 <= cy <= rect.y1 + 1


def page_lines(pages: list[list[RawBlock]], read: set[int]) -> dict[int, list[RawLine]]:
    """The recognised lines of each OCR'd page (1-based), for flag_blocks."""
    return {pno: [ln for block in pages[pno - 1] for ln in block.lines] for pno in sorted(read)}


def _cpu_budget() -> float | None:
    soft, _ = resource.getrlimit(resource.RLIMIT_CPU)
    if soft == resource.RLIM_INFINITY:
        return None  # reading in-process (tests, the evaluation commands): no limit to stay under
    return OCR_SHARE * soft


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
