"""Pack parsed blocks into retrieval chunks that keep an honest locator (design.md, "Locators")."""

from __future__ import annotations

from dataclasses import dataclass, field

from .blocks import Block, ParsedDocument, Rect
from .roles import role_weight
from .section_map import BlockSection, map_sections
from .sections import DECLARATION_WEIGHT, DEFAULT_WEIGHT, reads_as_references, section_weight
from .sentences import split_sentences
from .textutil import join_blocks

SENTENCE_CAP = 800  # chunk size cap for documents without any heading or recognised section
REFERENCES = "References"
PARAGRAPH_DOC_TYPES = ("docx", "md", "txt", "html", "xlsx")


@dataclass
class ChunkDraft:
    chunk_index: int
    text: str
    heading_path: tuple[str, ...] = ()
    # The section as printed ("V. EXPERIMENTS", "2 Methods", "前言"): the top-level heading over the passage, or the
    # section name printed where no heading block names it (section_map's module docstring). Shown to people.
    section: str = ""
    # The canonical section ("Methods", "References", "Introduction" for 前言) when recognised, else "": for
    # weights, filters and every rule about kinds of sections; never shown in place of `section`.
    section_key: str = ""
    chunk_type: str = "text"  # text | table | caption
    para_start: int | None = None  # None for reference-list chunks (design.md: "references excluded")
    para_end: int | None = None
    para_ids: list[str] = field(default_factory=list)
    page: int | None = None
    page_end: int | None = None
    rects: list[Rect] = field(default_factory=list)
    line_start: int | None = None
    line_end: int | None = None
    locator_precision: str = "file"  # bbox | paragraph | file
    locator_degraded: bool = False
    weight: float = DEFAULT_WEIGHT  # retrieval weight of the section: Abstract 1.05, back matter 0, else 1
    ocr: bool = False  # PDF text recognised by OCR (Block.ocr); its lines (text, Rect) place a quote's boxes
    ocr_lines: list[tuple[str, Rect]] = field(default_factory=list)
    # Not stored: which parsed blocks the chunk came from (and, for a piece of a long block, which piece), so the
    # viewer's pages (apps/documents/rendering/pages.py) can start a page exactly where a chunk starts.
    blocks: tuple[int, ...] = ()
    piece: int | None = None


def chunk_document(parsed: ParsedDocument, target_chars: int = 1000, max_chars: int = 1600) -> list[ChunkDraft]:
    """Consecutive blocks are packed up to about target_chars. A chunk never spans a heading or a section
    change (a heading, or a block that is only a section name, opens a new chunk and travels with the text
    under it); tables and captions are chunks of their own; a block longer than max_chars is cut at sentence
    ends, every piece keeping the whole block's locators. A document with no headings and no recognised
    sections is packed into smaller chunks (at most SENTENCE_CAP characters, cut at sentences)."""
    blocks = parsed.blocks
    info = map_sections(blocks)
    if not any(b.kind == "heading" for b in blocks) and not any(s.canonical for s in info):
        # Nothing to follow but sentences: short chunks keep one topic each, which retrieves better.
        target_chars, max_chars = min(target_chars, SENTENCE_CAP), min(max_chars, SENTENCE_CAP)
    groups: list[tuple[str, list[int], str | None, int | None]] = []  # (chunk_type, blocks, text override, piece)
    table_rows: dict[int, tuple[int, int]] = {}  # group -> [first, end) rows of its table block (PDF row boxes)
    current: list[int] = []

    def is_lead(i: int) -> bool:
        return blocks[i].kind == "heading" or info[i].marker

    def only_leads() -> bool:
        return bool(current) and all(is_lead(i) for i in current)

    def flush() -> None:
        if current:
            groups.append(("text", list(current), None, None))
            current.clear()

    def emit_pieces(kind: str, i: int) -> None:
        # Headings waiting for text go with the first piece, so no chunk is a bare heading.
        lead = list(current) if only_leads() else []
        if not lead:
            flush()
        current.clear()
        row = 0
        for n, piece in enumerate(_pieces(blocks[i].text, target_chars, max_chars, table=kind == "table")):
            if kind == "table":
                table_rows[len(groups)] = (row, row := row + piece.count("\n") + 1)
            if n == 0 and lead:
                groups.append((kind, [*lead, i], "\n\n".join([*(blocks[j].text for j in lead), piece]), n))
            else:
                groups.append((kind, [i], piece, n))

    for i, block in enumerate(blocks):
        if block.kind == "table" or info[i].caption:
            emit_pieces("table" if block.kind == "table" else "caption", i)
            continue
        if is_lead(i) and not only_leads():
            flush()
        elif current and not is_lead(i) and not only_leads() and _moved(blocks, info, current[-1], i):
            flush()  # a new section by a run-in heading, or a path change without a heading block
        if len(block.text) > max_chars:
            emit_pieces("text", i)
            continue
        size = sum(len(blocks[j].text) + 2 for j in current)
        if current and size + len(block.text) > target_chars and not only_leads():
            flush()
        current.append(i)
    flush()
    ordinals = paragraph_ordinals(info)
    ocr_pages = set(parsed.needs_ocr_pages)
    drafts = []
    for n, (kind, idx, text, piece) in enumerate(groups):
        numbered = [ordinals[i] for i in idx if ordinals[i] is not None]
        draft = _draft(n, kind, [blocks[i] for i in idx], text, parsed.doc_type, ocr_pages)
        draft.blocks, draft.piece = tuple(idx), piece
        if n in table_rows and draft.rects:
            draft.rects = _table_piece_rects([blocks[i] for i in idx], table_rows[n])
        draft.para_start, draft.para_end = (min(numbered), max(numbered)) if numbered else (None, None)
        section = info[idx[-1]]
        draft.section, draft.section_key = section.printed, section.key
        draft.weight = section_weight(section.name) if section.canonical else DEFAULT_WEIGHT
        draft.weight = role_weight(draft.weight, blocks[idx[-1]].role)  # contents, front matter (roles.py)
        drafts.append(draft)
    _hide_stray_references(drafts)
    return drafts


def _hide_stray_references(drafts: list) -> None:
    """Weight 0 for a declaration section's chunks from the first that reads as reference entries on: the rest of
    a reference list a two-column layout placed under "Acknowledgements" is still a reference list."""
    hidden_section = None
    for draft in drafts:
        if draft.weight != DECLARATION_WEIGHT:
            hidden_section = None
            continue
        if hidden_section != draft.section_key and reads_as_references(draft.text):
            hidden_section = draft.section_key
        if hidden_section == draft.section_key:
            draft.weight = 0.0


def _moved(blocks: list[Block], info: list[BlockSection], prev: int, i: int) -> bool:
    moved = blocks[prev].heading_path != blocks[i].heading_path or info[prev].name != info[i].name
    return moved or blocks[prev].role != blocks[i].role  # front matter or contents apart from the text


def paragraph_ordinals(info: list[BlockSection]) -> list[int | None]:
    """Paragraph ordinals across the document with the reference list left out (design.md, "Locators")."""
    out: list[int | None] = []
    n = 0
    for s in info:
        if s.canonical and s.name == REFERENCES:
            out.append(None)
        else:
            out.append(n)
            n += 1
    return out


def _draft(
    index: int, kind: str, blocks: list[Block], text: str | None, doc_type: str, ocr_pages: set[int]
) -> ChunkDraft:
    draft = ChunkDraft(
        chunk_index=index,
        text=text if text is not None else join_blocks([b.text for b in blocks]),
        heading_path=blocks[-1].heading_path,
        chunk_type=kind,
        para_ids=[b.para_id for b in blocks if b.para_id],
    )
    lines = [b for b in blocks if b.line_start is not None]
    if lines:
        draft.line_start = min(b.line_start for b in lines)
        draft.line_end = max(b.line_end or b.line_start for b in lines)
    pages = [b.page for b in blocks if b.page is not None]
    if pages:
        draft.page, draft.page_end = min(pages), max(pages)
    if doc_type == "pdf":
        has_geometry = all(b.rects for b in blocks) and not any(b.page in ocr_pages for b in blocks)
        if has_geometry:
            draft.locator_precision = "bbox"
            draft.rects = [r for b in blocks for r in b.rects]
            draft.ocr, draft.ocr_lines = any(b.ocr for b in blocks), [ln for b in blocks for ln in b.ocr_lines]
        else:
            # Text from a scanned/OCR page (or a block without boxes): page-level only, and said so.
            draft.locator_precision = "paragraph"
            draft.locator_degraded = True
    elif doc_type in PARAGRAPH_DOC_TYPES:
        draft.locator_precision = "paragraph"
    return draft


def _table_piece_rects(blocks: list[Block], rows: tuple[int, int]) -> list[Rect]:
    """A piece of a PDF table keeps the boxes of its own rows (a PDF table block has one box per row; the headings
    leading the first piece keep theirs)."""
    table = blocks[-1]
    own = list(table.rects[rows[0] : rows[1]]) if len(table.rects) == len(table.cells) else list(table.rects)
    return [r for b in blocks[:-1] for r in b.rects] + own


def _pieces(text: str, target: int, max_chars: int, table: bool = False) -> list[str]:
    """Split text longer than max_chars; tables by rows (only a row longer than max_chars is cut), prose by
    sentences. Short text: as is."""
    if len(text) <= max_chars:
        return [text]
    # The answers' own sentence splitter (sentences.py), so a piece never ends inside a sentence they quote.
    units = text.split("\n") if table else split_sentences(text)
    joiner = "\n" if table else " "
    pieces: list[str] = []
    buf = ""
    for unit in units:
        for part in _hard_split(unit, max_chars):
            if buf and len(buf) + len(joiner) + len(part) > target:
                pieces.append(buf)
                buf = part
            else:
                buf = f"{buf}{joiner}{part}" if buf else part
    if buf:
        pieces.append(buf)
    return pieces


def _hard_split(text: str, max_chars: int) -> list[str]:
    """A single 'sentence' over max_chars (a data dump, a URL list) is cut at the last space."""
    parts = []
    while len(text) > max_chars:
        cut = text.rfind(" ", 0, max_chars)
        cut = cut if cut > max_chars // 2 else max_chars
        parts.append(text[:cut].strip())
        text = text[cut:].strip()
    if text:
        parts.append(text)
    return parts
