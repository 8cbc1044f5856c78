"""Visual lines for reference-list detection.

Parser blocks are joined paragraphs: a block may hold the tail of one reference and the head of the next, and
in BMC/MDPI layouts the labels ("1. 2. 3.") sit in a block of their own beside the text. Splitting entries
needs the printed lines, so for PDFs the lines are re-read with PyMuPDF and attached to the parser block that
holds them (which keeps the parser's reading order and its running-head removal). Without the PDF bytes, or
for other formats, a block's text lines stand in for visual lines (no geometry, no type size).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.documents.parsing import ParsedDocument
from apps.documents.parsing.formats.pdf_layout import body_size
from apps.documents.parsing.formats.pdf_line_numbers import page_line_numbers
from apps.documents.parsing.section_map import map_sections
from apps.documents.parsing.textutil import clean_inline

from .entries_raised import line_text

REFERENCES = "References"
# "[12]", "12.", "12" and the alphabetic labels of alpha/amsalpha styles ("[Cop87]", "[KMN+02]", "[hut]").
_LABEL_START_RE = re.compile(r"^\s*(?:\[\d{1,4}\]|\d{1,4}\.)\s+\S")
_LABEL_ONLY_RE = re.compile(r"^\s*(\[\d{1,4}\]|\d{1,4}\.?|\[[A-Za-z][A-Za-z+\-]{0,9}\d{0,4}[a-z]?\])\s*$")


@dataclass
class RefLine:
    text: str
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    size: float = 0.0  # dominant type size; 0 when unknown
    block: int = -1  # index of the parser block holding the line
    heading: bool = False  # the block is a heading, or nothing but a section name
    in_references: bool = False  # the block lies in the canonical "References" section
    ref_heading: bool = False  # the block is a References/Bibliography heading
    text_box: tuple[float, float, float, float] | None = None  # a merged label line: the box of its text part
    table: bool = False  # the block is a table: a list never runs on into one (a vignette's tables after its list)


_FULL_WIDTH_BRACKETS = str.maketrans({"\uff3b": "[", "\uff3d": "]"})


def document_lines(parsed: ParsedDocument, data: bytes | None = None) -> list[RefLine]:
    info = map_sections(parsed.blocks)
    flags = []
    for block, section in zip(parsed.blocks, info, strict=True):
        heading = block.kind == "heading" or section.marker
        in_refs = section.canonical and section.name == REFERENCES
        flags.append((heading, in_refs, heading and in_refs))
    lines = _pdf_lines(parsed, data, flags) if parsed.doc_type == "pdf" and data else []
    lines = _drop_running_heads(lines)
    if not lines:
        lines = _block_lines(parsed, flags)
    own_doi = (parsed.metadata.get("doi") or "").lower()
    for line in lines:
        # Chinese theses set labels and type codes in full-width brackets ("［1］ 任春珍. …［J］"): the same marks.
        line.text = line.text.translate(_FULL_WIDTH_BRACKETS)
        # The article's own DOI ("doi:10.1186/… Cite this article as") is a footer under the list, never part
        # of an entry: marked like a heading, so it ends the list.
        if own_doi and own_doi in line.text.lower():
            line.heading = True
    return lines


def _drop_running_heads(lines: list[RefLine]) -> list[RefLine]:
    """Running heads and feet the parser kept ("P.N.J. Lane et al. / Journal of Hydrology 310 (2005) 253–265"):
    the top or bottom line of a page whose text, numbers aside, is the top or bottom line of two other pages.
    Inside a reference list such a line would start an entry of its own or run into one."""
    edges: dict[int, tuple[float, float]] = {}
    for line in lines:
        if line.bbox and line.page is not None:
            top, bottom = edges.get(line.page, (line.bbox[1], line.bbox[3]))
            edges[line.page] = (min(top, line.bbox[1]), max(bottom, line.bbox[3]))

    def edge_key(line: RefLine) -> str | None:
        if not line.bbox or line.page not in edges:
            return None
        top, bottom = edges[line.page]
        if line.bbox[1] > top + 2 and line.bbox[3] < bottom - 2:
            return None
        return re.sub(r"\d+", "#", line.text.lower()).strip()

    pages: dict[str, set[int]] = {}
    for line in lines:
        if (key := edge_key(line)) is not None:
            pages.setdefault(key, set()).add(line.page)
    return [line for line in lines if len(pages.get(edge_key(line) or "", ())) < 3 or edge_key(line) is None]


def _block_lines(parsed: ParsedDocument, flags: list[tuple[bool, bool, bool]]) -> list[RefLine]:
    out = []
    for i, block in enumerate(parsed.blocks):
        for raw in block.text.split("\n"):
            text = clean_inline(raw)
            if text:
                out.append(
                    RefLine(
                        text,
                        page=block.page,
                        block=i,
                        heading=flags[i][0],
                        in_references=flags[i][1],
                        ref_heading=flags[i][2],
                        table=block.kind == "table",
                    )
                )
    return out


def _pdf_lines(parsed: ParsedDocument, data: bytes, flags: list[tuple[bool, bool, bool]]) -> list[RefLine]:
    import pymupdf  # imported here so non-PDF callers do not pay for it

    by_page: dict[int, list[tuple[int, object]]] = {}
    for i, block in enumerate(parsed.blocks):
        for rect in block.rects:
            by_page.setdefault(rect.page, []).append((i, rect))
    per_block: dict[int, list[RefLine]] = {}
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception:  # a damaged file was already reported by the parser; fall back to block text
        return []
    try:
        printed: dict[int, list[RefLine]] = {}
        for pno in sorted(by_page):
            if pno > doc.page_count:
                continue
            page_lines = printed.setdefault(pno, [])
            for b in doc[pno - 1].get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)["blocks"]:
                for ln in b.get("lines", []):
                    text = clean_inline(line_text(ln["spans"]))
                    if text:
                        page_lines.append(RefLine(text, page=pno, bbox=tuple(ln["bbox"]), size=_line_size(ln["spans"])))
        for pno, page_lines in printed.items():
            numbering = page_line_numbers(page_lines, box=lambda ln: ln.bbox, text=lambda ln: ln.text)
            page_lines = [ln for ln in page_lines if id(ln) not in numbering]  # a review copy's line numbers
            tables = [r for i, r in by_page[pno] if parsed.blocks[i].kind == "table"]
            for line in _merge_labels(page_lines, tables):
                idx = _owner(line, by_page[pno])
                if idx is not None:
                    heading, in_refs, ref_heading = flags[idx]
                    line.block, line.heading, line.in_references, line.ref_heading = idx, heading, in_refs, ref_heading
                    line.table = parsed.blocks[idx].kind == "table"
                    per_block.setdefault(idx, []).append(line)
    finally:
        doc.close()
    # Pieces of one printed line are next to each other in reading order even when the parser put them in two
    # blocks; lines of two columns never are (a column is read to its end first).
    return _join_fragments([line for idx in sorted(per_block) for line in per_block[idx]])


def _line_size(spans: list[dict]) -> float:
    """The line's type size. Small capitals ("B" 9 pt + "ERRY" 7.2 pt in LNCS and old ACM author names) set
    most characters in the smaller size: the larger size counts when it carries a fifth of the characters."""
    size = body_size(spans)
    total = sum(len(s["text"].strip()) for s in spans)
    larger = [s for s in spans if round(s["size"], 1) > size and s["text"].strip()]
    if larger and total and sum(len(s["text"].strip()) for s in larger) >= 0.2 * total:
        return max(round(s["size"], 1) for s in larger)
    return size


def _join_fragments(lines: list[RefLine]) -> list[RefLine]:
    """One printed line that PyMuPDF cut in pieces at wide justified spaces ("Teufel. 2012." + "Context-") is
    glued back: the pieces share a baseline and follow each other in reading order. A piece left alone would
    look like a line of its own, with an indent that is neither the list's margin nor its hanging indent."""
    out: list[RefLine] = []
    for line in lines:
        prev = out[-1] if out else None
        # Within one parser block any justified gap; across two blocks at most two ems (a gutter is not glued).
        if prev is not None and _glue(prev, line, max_gap_em=4.0 if prev.block == line.block else 2.0):
            _absorb_pieces(out, prev)
            continue
        # An entry's label line that the parser set in a block of its own (small-capital author names) and read
        # after the rest of its line: it is glued to the piece on its baseline a few lines back.
        if _LABEL_START_RE.match(line.text) and (line.block != prev.block if prev else False):
            # Only across a word space: a column gutter (wider) must not glue lines of two columns.
            host = next(
                (o for o in reversed(out[-12:]) if o.bbox[0] > line.bbox[0] and _glue(o, line, max_gap_em=1.2)),
                None,
            )
            if host is not None:
                continue
        # A piece of a justified line read apart from its neighbours (the parser put the three pieces of "C.-M.
        # Kuan and K. Hornik. | The generalized … view. | Econometric" in three blocks): glued to the piece on its
        # baseline a few lines back, across no more than a word space.
        host = next((o for o in reversed(out[-_LOOK_BACK:]) if _glue(o, line, max_gap_em=_WORD_GAP_EM)), None)
        if host is not None:
            _absorb_pieces(out, host)
            continue
        out.append(line)
    return out


_LOOK_BACK = 12  # lines read before a piece of the same printed line that may still be glued to it
_WORD_GAP_EM = 1.0  # a justified word space, narrower than a column gutter (IEEE's is 1.2 em)


def _absorb_pieces(out: list[RefLine], host: RefLine) -> None:
    """Glue into `host` the pieces of its printed line read before it (and so already in `out`)."""
    while True:
        piece = next(
            (o for o in reversed(out[-_LOOK_BACK:]) if o is not host and _glue(host, o, max_gap_em=_WORD_GAP_EM)), None
        )
        if piece is None:
            return
        del out[next(i for i, o in enumerate(out) if o is piece)]  # identity: two lines may read the same


def _glue(prev: RefLine, line: RefLine, max_gap_em: float = 4.0) -> bool:
    """Glue `line` into `prev` when both are pieces of one printed line; whether it was glued."""
    if prev.page != line.page or not prev.bbox or not line.bbox or not same_baseline(prev, line):
        return False
    left, right = (prev, line) if prev.bbox[0] <= line.bbox[0] else (line, prev)  # pieces may come reversed
    if _LABEL_START_RE.match(right.text):
        return False  # an entry's label starts a line: "2013." of the left column's entry is not before "21. Terra"
    gap = right.bbox[0] - left.bbox[2]
    if not -1 <= gap <= max_gap_em * max(line.size, prev.size, 4.0):
        return False
    prev.text = f"{left.text} {right.text}"
    top, bottom = min(left.bbox[1], right.bbox[1]), max(left.bbox[3], right.bbox[3])
    prev.bbox = (left.bbox[0], top, right.bbox[2], bottom)
    prev.size = max(prev.size, line.size)
    return True


def same_baseline(a: RefLine, b: RefLine) -> bool:
    """Whether two lines with boxes share most of their height: pieces of one printed line."""
    height = min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1])
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return height > 0 and overlap >= 0.6 * height


def _owner(line: RefLine, rects: list[tuple[int, object]]) -> int | None:
    x0, y0, x1, y1 = line.text_box or line.bbox  # a label in the margin belongs to the block of its text
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    for idx, r in rects:
        if r.x0 - 1 <= cx <= r.x1 + 1 and r.y0 - 1 <= cy <= r.y1 + 1:
            return idx
    # A merged label line is wider than the text block's boxes: its text part decides.
    for idx, r in rects:
        if r.x0 - 1 <= x1 - 2 <= r.x1 + 1 and r.y0 - 1 <= cy <= r.y1 + 1:
            return idx
    return None


def _inside(line: RefLine, rects: list) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return any(r.x0 - 1 <= cx <= r.x1 + 1 and r.y0 - 1 <= cy <= r.y1 + 1 for r in rects)


def _merge_labels(lines: list[RefLine], tables: list | None = None) -> list[RefLine]:
    """A label printed in a column of its own ("12." left of the entry) is glued to the text line on its
    baseline, so each entry's first line starts with its number. Bare numbers get a dot, so they read as labels.
    A number inside a table is a cell ("83" in the last column of a table beside the reference list), never a
    label of the text across the gutter."""
    labels = [ln for ln in lines if _LABEL_ONLY_RE.match(ln.text) and not _inside(ln, tables or [])]
    if not labels:
        return lines
    used: set[int] = set()
    for label in labels:
        lx0, ly0, lx1, ly1 = label.bbox
        height = max(ly1 - ly0, 1.0)
        best, best_dx = None, 60.0  # labels sit at most a few ems left of their text
        for ln in lines:
            if ln is label or id(ln) in used or _LABEL_ONLY_RE.match(ln.text) or _LABEL_START_RE.match(ln.text):
                continue  # a line that has its label already takes no other ("2013." ending the column beside)
            x0, y0, _x1, y1 = ln.bbox
            dx = x0 - lx1
            if -2 <= dx < best_dx and abs((y0 + y1) / 2 - (ly0 + ly1) / 2) < 0.5 * height:
                best, best_dx = ln, dx
        if best is not None:
            text = label.text.strip()
            text = text if text.endswith((".", "]")) else text + "."
            best.text = f"{text} {best.text}"
            best.text_box = best.bbox
            best.bbox = (min(lx0, best.bbox[0]), min(ly0, best.bbox[1]), best.bbox[2], max(ly1, best.bbox[3]))
            used.add(id(best))
            used.add(id(label))
    return [ln for ln in lines if not (id(ln) in used and _LABEL_ONLY_RE.match(ln.text))]
