"""PDF parser (PyMuPDF): text blocks with their line boxes, in reading order."""

from __future__ import annotations

import re

import pymupdf

from ..blocks import Block, ParsedDocument, Rect
from ..errors import ParseError
from ..hyphenation import document_vocabulary
from ..placeholders import clean_guessed_title, is_generic_title, is_placeholder_title
from ..textutil import clean_inline
from . import pdf_layout as layout  # superscript citations: body_size, footnote_labels, line_text
from . import pdf_ocr
from .pdf_byline import first_page_authors, is_placeholder_author
from .pdf_furniture import mark_furniture
from .pdf_heading_levels import find_headings
from .pdf_identifiers import first_page_arxiv_id, first_page_journal, first_page_year
from .pdf_layout import RawBlock, RawLine, drop_running_lines, reading_order, split_side_by_side
from .pdf_letter_spacing import join_baseline_pieces
from .pdf_line_numbers import drop_diagonal_lines, drop_line_numbers
from .pdf_list_markers import attach_list_markers
from .pdf_paragraphs import join_document_lines
from .pdf_tables import TableRaw, around_tables, lift_tables, table_block

# PyMuPDF prints an advertisement for its layout add-on to stdout on first use of the table finder: it would land
# inside `evaluate_reading --json` and the worker's log. The add-on is not installed here.
pymupdf.no_recommend_layout()

# Ligatures are spelled out by MuPDF itself (no TEXT_PRESERVE_LIGATURES); images are not needed.
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
_CAPTION_RE = re.compile(r"^(Fig\.|Figure|Table|Scheme|Supplementary (Figure|Table))\s*S?\d+\b")
_MIN_TEXT_CHARS = 10  # fewer visible characters than this on a page with images => scanned page
_TITLE_SIZES = 3  # type sizes tried for a title on page 1, largest first, past generic words ("MASTER THESIS")
# The label of a cover's title field ("论文题目：", "中文题目", "Title:").
_TITLE_LABEL_RE = re.compile(r"^(?:论文|中文|设计|课题)?(?:题目|名称)[:：]?$|^title[:：]?$", re.I)
_FRONT_MATTER = 0.4  # top share of page 1 where superscripts mark authors and affiliations
# A file name, a job id, "untitled", or an identifier (Elsevier's publisher PDFs put "doi:10.1016/…" there).
_JUNK_TITLE_RE = re.compile(
    r"(\.(dvi|pdf|docx?|tex|indd|qxd)$)|(\d+\.\.\d+$)|^untitled$|^(doi:\s*|https?://(dx\.)?doi\.org/)?10\.\d{4,9}/\S+$",
    re.IGNORECASE,
)


class PdfParser:
    name = "pdf"
    doc_type = "pdf"
    extensions = (".pdf",)
    label = "PDF"

    def score(self, filename: str, head: bytes) -> float:
        if head.startswith(b"%PDF-"):
            return 1.0
        # The spec tolerates junk before the header; only trust that when the name agrees.
        if b"%PDF-" in head[:1024]:
            return 0.8 if filename.lower().endswith(".pdf") else 0.3
        # Named .pdf but not one: still ours, so the person hears "not a valid PDF".
        return 0.1 if filename.lower().endswith(".pdf") else 0.0

    def parse(self, data: bytes, filename: str) -> ParsedDocument:
        doc = _open(data)
        try:
            return _parse_open(doc)
        finally:
            doc.close()


def _open(data: bytes) -> pymupdf.Document:
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # FileDataError, RuntimeError, ValueError depending on the damage
        raise ParseError("The file is not a valid PDF (it may be damaged or truncated).", detail=repr(exc)) from exc
    if doc.needs_pass:
        doc.close()
        raise ParseError("The PDF is password-protected; remove the password and upload it again.")
    if doc.page_count == 0:
        doc.close()
        raise ParseError("The file is not a valid PDF (it may be damaged or truncated).")
    return doc


def _parse_open(doc: pymupdf.Document) -> ParsedDocument:
    pages: list[list[RawBlock]] = []
    sizes: dict[int, tuple[float, float]] = {}
    needs_ocr: list[int] = []
    tables: list[list[TableRaw]] = []
    for pno, page in enumerate(doc, start=1):
        sizes[pno] = (float(page.rect.width), float(page.rect.height))
        raw = _page_blocks(page)
        if _needs_ocr(page, raw):
            needs_ocr.append(pno)
            raw = []  # a stray folio on a scanned page is not worth keeping; OCR will redo the page
        # pdf_tables.py: a table's lines leave the text blocks; the table comes back as one block after the margins
        raw, found = lift_tables(page, raw) if raw else (raw, [])
        tables.append(found)
        pages.append(raw)
    ocr_lines = pdf_ocr.page_lines(pages, pdf_ocr.recognise_pages(doc, pages, needs_ocr))  # scans: OCR
    drop_running_lines(pages, [sizes[p][1] for p in range(1, len(pages) + 1)], [len(found) for found in tables])
    pages = [raw + found for raw, found in zip(pages, tables, strict=True)]
    ordered = [reading_order(raw, sizes[pno][0]) for pno, raw in enumerate(pages, start=1)]
    # Lines MuPDF returned as blocks of their own are joined back into their paragraphs (CJK PDFs especially).
    ordered = around_tables(join_document_lines, ordered)  # pdf_tables.py: tables are not joined to text
    blocks = pdf_ocr.flag_blocks(_to_blocks(ordered, _outline(doc)), ocr_lines)
    blocks = mark_furniture(blocks)  # contents, front matter: low weight
    return ParsedDocument(
        blocks=blocks,
        metadata=_metadata(doc, ordered, first_page_recognised=1 in ocr_lines),
        page_count=doc.page_count,
        page_sizes=sizes,
        needs_ocr_pages=needs_ocr,
        doc_type="pdf",
    )


def _page_blocks(page: pymupdf.Page) -> list[RawBlock]:
    out = []
    blocks = [b for b in page.get_text("dict", flags=_TEXT_FLAGS)["blocks"] if b.get("type") == 0]
    drop_diagonal_lines(blocks)  # a watermark across the page ("ACCEPTED MANUSCRIPT")
    drop_line_numbers(blocks)  # a review copy's line numbers, before MuPDF's pieces of a line are glued
    attach_list_markers(blocks)  # "•" / "2." set in a box of its own, left of its item's text
    labels = frozenset(layout.footnote_labels([ln for b in blocks for ln in b["lines"]]))
    for b in blocks:
        current: list[RawLine] = []
        style = None
        size = layout.body_size([span for ln in b["lines"] for span in ln["spans"]])
        for ln in join_baseline_pieces(b["lines"]):  # one printed line MuPDF cut into pieces ("r e f", "e r e n")
            front = page.number == 0 and ln["bbox"][3] <= _FRONT_MATTER * page.rect.height
            text = layout.line_text(ln["spans"], size, front, labels)  # superscript citations as "[12]"
            if not text.strip():
                continue
            line_style = _line_style(ln["spans"])
            # MuPDF often glues a heading line to the paragraph under it; a change of type size or
            # weight between lines is where one block really ends and the next begins.
            if current and line_style != style:
                out += split_side_by_side(RawBlock(lines=current, max_size=style[0], bold=style[1]))
                current = []
            style = line_style
            current.append(RawLine(text=text, bbox=tuple(ln["bbox"]), caps_size=layout.small_caps_size(ln["spans"])))
        if current:
            out += split_side_by_side(RawBlock(lines=current, max_size=style[0], bold=style[1]))
    return out


# Bold by the font's name where the file does not flag it (Type 1 fonts from dvips and pdfTeX rarely do): the
# weight words, URW's "-Medi" (the bold of the Times and Palatino clones), and TeX's bold shapes by their names
# ("CMBX12", "CMSSBX10", "CMB10", "ECBX1200", "SFSX1000", "CMBSY10"), behind a subset prefix ("ABCDEF+").
_BOLD_FONT_RE = re.compile(
    r"bold|black|heavy|demi|-medi(?:um)?\b|(?:^|\+)(?:cm|ec|tc|sf|eu)(?:ss|tt|r)?(?:bx|sx|b(?=\d|sy|mi))",
    re.IGNORECASE,
)


def _line_style(spans: list[dict]) -> tuple[float, bool]:
    """(size, bold) of the characters that dominate the line, so a bold word inside body text or a
    superscript does not count as a style change."""
    weight: dict[tuple[float, bool], int] = {}
    for span in spans:
        n = len(span["text"].strip())
        if n:
            bold = bool(span["flags"] & pymupdf.TEXT_FONT_BOLD) or bool(_BOLD_FONT_RE.search(span["font"]))
            key = (round(span["size"], 1), bold)
            weight[key] = weight.get(key, 0) + n
    # Half bold is a heading with a word in another face ("3. AMSMATH Package": "AMSMATH" in typewriter): bold.
    return max(weight, key=lambda key: (weight[key], key[1])) if weight else (0.0, False)


def _needs_ocr(page: pymupdf.Page, raw: list[RawBlock]) -> bool:
    text = "".join(ln.text for b in raw for ln in b.lines)
    visible = sum(1 for ch in text if not ch.isspace())
    if visible < _MIN_TEXT_CHARS:
        return bool(page.get_images(full=False))
    # Fonts without a Unicode map come out as U+FFFD: the text layer is there but unusable.
    return text.count("\ufffd") > 0.3 * visible


def _outline(doc: pymupdf.Document) -> list[list]:
    """The outline as [level, title, page, top]: `top` is where the entry's destination lies on its page, in the
    parser's coordinates (None when it names no point), so that an entry is matched to the heading it points at,
    not to its own line in a printed contents list on the same page (LaTeX News: "Introduction" twice on page 1)."""
    out = []
    matrices: dict[int, pymupdf.Matrix] = {}  # a book's outline points at each page many times
    for level, title, page, *rest in doc.get_toc(simple=False):
        dest = rest[0] if rest else {}
        top = None
        pointed = isinstance(dest, dict) and dest.get("kind") in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED)
        to = dest.get("to") if pointed else None
        if to is not None and 1 <= page <= doc.page_count:
            # Outline points are in PDF space (origin bottom left): into the page's top-left coordinates.
            if page not in matrices:
                matrices[page] = doc[page - 1].transformation_matrix
            top = (pymupdf.Point(to) * matrices[page]).y
        out.append([level, title, page, top])
    return out


def _to_blocks(pages: list[list[RawBlock]], toc: list) -> list[Block]:
    pages, levels = find_headings(pages, toc)  # outline, section numbering or type style (pdf_heading_levels)
    # The document's own spelling decides whether a line-end hyphen splits a word or joins a compound.
    vocabulary = document_vocabulary(ln.text for raw_blocks in pages for raw in raw_blocks for ln in raw.lines)
    path: list[tuple[int, str]] = []  # (level, heading text) stack
    blocks: list[Block] = []
    for pno, raw_blocks in enumerate(pages, start=1):
        for raw in raw_blocks:
            if isinstance(raw, TableRaw):
                blocks.append(table_block(raw, pno, tuple(t for _, t in path), len(blocks)))
                continue
            text = raw.joined(vocabulary)
            if not text:
                continue
            kind = "paragraph"
            level = levels.get(id(raw))
            if level is not None:
                kind = "heading"
                path = [(lv, t) for lv, t in path if lv < level] + [(level, text)]
            elif _CAPTION_RE.match(text):
                kind = "caption"
            rects = tuple(Rect(pno, *(round(v, 2) for v in box)) for box in _merge_line_boxes(raw.lines))
            blocks.append(
                Block(
                    kind=kind,
                    text=text,
                    heading_path=tuple(t for _, t in path),
                    para_no=len(blocks),
                    page=pno,
                    rects=rects,
                )
            )
    return blocks


def _merge_line_boxes(lines: list[RawLine]) -> list[tuple[float, float, float, float]]:
    """Line boxes of one block, with runs of consecutive lines that share both edges (justified
    text) merged into one box: the same area to highlight, a third of the rectangles to store."""
    boxes: list[list[float]] = []
    for ln in lines:
        x0, y0, x1, y1 = ln.bbox
        if boxes:
            last = boxes[-1]
            height = y1 - y0
            same_edges = abs(last[0] - x0) <= 1.5 and abs(last[2] - x1) <= 1.5
            if same_edges and -0.5 * height <= y0 - last[3] <= 0.6 * height:
                last[0], last[2] = min(last[0], x0), max(last[2], x1)
                last[3] = max(last[3], y1)
                continue
        boxes.append([x0, y0, x1, y1])
    return [tuple(b) for b in boxes]


def _metadata(doc: pymupdf.Document, pages: list[list[RawBlock]], *, first_page_recognised: bool = False) -> dict:
    """The PDF's own fields where they name something, else what page 1 prints (marked as guessed). A byline is
    not read off a page that was OCR'd: telling names from affiliation marks needs the spans' type, which
    recognised text has not, and rather no authors than "Invited Referees" (F1000's side panel)."""
    meta = doc.metadata or {}
    out: dict = {}
    first_page = pages[0] if pages else []
    title = clean_inline(meta.get("title") or "")
    # Producers often put a file name or a job id here ("8763205.dvi"), templates their own name ("elegantpaper",
    # "…LaTeX模板"); none is a title, nor is a title printed nowhere on the first pages.
    opening = "".join(doc[i].get_text() for i in range(min(2, doc.page_count)))
    if title and not _JUNK_TITLE_RE.search(title) and not is_placeholder_title(title, opening):
        out["title"] = title
    else:
        guess = _first_page_title(first_page)
        if guess:
            out["title"] = guess
            out["title_guessed"] = True
    author = clean_inline(meta.get("author") or "")
    if not is_placeholder_author(author):
        out["authors"] = _split_authors(author)
    elif not first_page_recognised and (
        byline := first_page_authors(first_page[_title_run(first_page)[1] :], doc[0], _TEXT_FLAGS)
    ):
        out["authors"] = byline  # BMC and others leave the field empty; the page names them
        out["authors_guessed"] = True
    doi = _first_page_doi(doc[0])
    if doi:
        out["doi"] = doi
    first_text = doc[0].get_text() if doc.page_count else ""
    if year := first_page_year(first_text):
        out["year"] = year
    if journal := first_page_journal(first_text):
        out["journal"] = journal
    if arxiv := first_page_arxiv_id(first_text):
        out["arxiv"] = arxiv
        out.setdefault("doi", f"10.48550/arXiv.{arxiv}")  # arXiv's own DOI for the preprint
    for key in ("subject", "keywords"):
        if clean_inline(meta.get(key) or ""):
            out[key] = clean_inline(meta[key])
    return out


_DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)


def _first_page_doi(page: pymupdf.Page) -> str | None:
    """The article's DOI as printed on page 1 (raw text, so running footers still count). DOIs cut
    at a line end ("journal.pone." + newline) are ignored; among the rest the most frequent wins,
    then the last one (F1000 prints "first published" before "latest published")."""
    found = [m.group(1).rstrip(",;)]") for m in _DOI_RE.finditer(page.get_text())]
    whole = [d for d in found if not d.endswith(".") and re.search(r"\d", d.split("/", 1)[1])]
    if not whole:
        return None
    return max(reversed(whole), key=whole.count)


def _split_authors(author: str) -> list[str]:
    if ";" in author:
        return [a.strip() for a in author.split(";") if a.strip()]
    parts = [a.strip() for a in re.split(r",| and ", author) if a.strip()]
    # "Smith, John" is one person; "John Smith, Jane Doe" is two.
    return parts if all(" " in p for p in parts) else [author]


def _first_page_title(blocks: list[RawBlock]) -> str | None:
    """The title printed on page 1: the field a cover labels "论文题目" / "Title", else the text set in the largest
    type (consecutive blocks joined) that reads like a title and is not only generic words ("MASTER THESIS"; then
    the next largest type is tried). Used only when the PDF's own title field is missing or a placeholder."""
    if not blocks:
        return None
    if labelled := _labelled_title(blocks):
        return labelled
    body = sorted(b.max_size for b in blocks)[len(blocks) // 2]
    tried: set[float] = set()
    for _ in range(_TITLE_SIZES):
        start, end = _title_run(blocks, skip=tried)
        if end <= start:
            return None
        size = blocks[start].max_size
        tried.add(size)
        text = clean_guessed_title(" ".join(block.text for block in blocks[start:end]))
        if size < 1.3 * body:
            return None
        if (
            10 <= len(text) <= 300
            and not _CAPTION_RE.match(text)
            and not is_generic_title(text)
            and not _is_label(text)
        ):
            return text
    return None


def _is_label(text: str) -> bool:
    """A field's label ("Referee Status:", "Title:"), which ends where its value should follow; not a title."""
    return text.rstrip().endswith((":", "："))


def _labelled_title(blocks: list[RawBlock]) -> str | None:
    """The value beside a cover's title label ("论文题目 | 基于…的研究", "Title: …"), on the same line to its right."""
    for label in blocks:
        if not _TITLE_LABEL_RE.match(re.sub(r"\s+", "", label.text)):
            continue
        _, y0, x1, y1 = label.bbox
        beside = [b for b in blocks if b.bbox[0] >= x1 and b.bbox[1] < y1 and b.bbox[3] > y0 and b is not label]
        if beside:
            text = clean_guessed_title(min(beside, key=lambda b: b.bbox[0]).text)
            if not is_placeholder_title(text):
                return text
    return None


def _title_run(blocks: list[RawBlock], skip: set[float] | None = None) -> tuple[int, int]:
    """[start, end) of the consecutive blocks set in page 1's largest type (other than the sizes in `skip`): the
    title, or a journal logo above it. The byline is looked for after it."""
    skip = skip or set()
    upright = [i for i, block in enumerate(blocks) if not _set_vertically(block) and block.max_size not in skip]
    if not upright:
        return 0, 0
    start = max(upright, key=lambda i: blocks[i].max_size)
    end = start + 1
    while end < len(blocks) and abs(blocks[end].max_size - blocks[start].max_size) <= 0.5:
        end += 1
    return start, end


def _set_vertically(block: RawBlock) -> bool:
    """Text running up the margin, like arXiv's "arXiv:2004.04906v3 [cs.CL] 30 Sep 2020" stamp in 20 pt: its
    lines are taller than they are wide, which no line of a title or a byline is."""
    x0, y0, x1, y1 = block.bbox
    return (x1 - x0) < (y1 - y0) / len(block.lines)


PARSER = PdfParser()
