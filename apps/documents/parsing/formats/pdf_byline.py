"""Authors from the byline on a paper's first page, for PDFs whose metadata names nobody.

Publishers such as BMC leave the PDF's author field empty, so a paper would show no authors at all.
The byline is looked for in the rows right after the title, before the abstract, and is accepted only
when every comma/"and"-separated part reads as a person's name: no authors is better than wrong ones.
"""

from __future__ import annotations

import re

import pymupdf

from ..placeholders import is_placeholder_author as placeholder_author
from ..textutil import clean_inline, join_lines
from .pdf_layout import RawBlock, RawLine

_MAX_ROWS = 6  # rows after the title that may hold the byline (MDPI puts a journal header between)
_MAX_NAMES = 60  # consortium-sized lists are not parsed from the page
_MARKER_SPAN_CHARS = 8  # a superscript span longer than this is text, not an affiliation mark
_SUP_SIZE = 0.9  # a marker span is set smaller than this share of its line's type
# Where the front matter ends: the byline is always above these.
_STOP_RE = re.compile(r"^(?:abstract|background|summary|keywords?|introduction|\d\.?\s+introduction)\b", re.I)
# Affiliation and footnote marks glued to or standing beside names: "Barnett1,9*", "Coco 2,*", "Gal∗+".
_SYMBOL_MARKS_RE = re.compile(r"[*∗⁎†‡§¶#$+✉✝♯‖\u00b9\u00b2\u00b3\u2070-\u209f\ue000-\uf8ff]")
_BRACKET_MARKS_RE = re.compile(r"\[\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*\]")  # line_text's "[1]" form
_DIGIT_MARKS_RE = re.compile(r"(?<![\d.])\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*(?![\d\w])")
_ORCID_RE = re.compile(r"\biD\b")  # the ORCID badge is sometimes drawn with a text "iD"
_SEPARATOR_RE = re.compile(r"\s*(?:[,;·•]|&|\band\b)\s*")  # Springer separates names with "·"
_BY_RE = re.compile(r"^by\s+", re.I)
_WORD_RE = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")  # "Chung-Wei", "O'Brien", "Xin’ai", "Virányi"
_INITIALS_RE = re.compile(r"(?:[^\W\d_]\.?-?){1,3}")  # "R.", "YW", "J.-P."


def _words(text: str) -> frozenset[str]:
    """A word list written as one string, so the lists below read as prose rather than 100 quoted items."""
    return frozenset(text.split())


_PARTICLES = _words("al bin da das de del della den der di do dos du el ibn la le ten ter van von y zu")
_SUFFIXES = frozenset({"Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV"})
# Words that never belong to a person's name but do fill affiliation, header and abstract lines.
_NOT_NAME_WORDS = _words(
    """abstract academy access accepted affiliation affiliations article association author authors background
    brief center central centre citation clinic college commons communication copyright corporation
    correspondence department dept e-mail editor edited email faculty foundation gmbh group hospital inc institut
    institute instituto introduction issn issue journal keywords lab laboratory letter licensee ltd nature note
    open original paper press protocol published publisher publishers publishing received report research
    review reviewed revised school society study summary supplementary universidad universidade
    università universität université university volume """
    # Title words, so a subtitle in Title Case ("Deep Learning Methods") is not taken for a name.
    """the of for in on with from via using toward towards through between among versus analysis approach
    effect effects evidence framework hypothesis impact method methods model models network networks
    results role system systems theory"""
)
# Degrees and titles printed with the names ("John Smith, MD, PhD", "Prof. Jane Doe"): dropped, not names.
_HONORIFICS = _words("BSc DPhil DVM Dr Dr. FRCP MBBS MD MPH MSc PhD Prof Prof. RN")


def is_placeholder_author(author: str) -> bool:
    """Whether the PDF's author field names nobody: empty, no letters, or an account name such as
    "Administrator" or "Microsoft Office User" (placeholders.is_placeholder_author)."""
    return placeholder_author(author)


def first_page_authors(after_title: list[RawBlock], page: pymupdf.Page | None, flags: int = 0) -> list[str]:
    """The names in page 1's byline, in printed order, or [] when no row after the title reads as one.

    `after_title` are page 1's blocks in reading order from the end of the title on; `page` and `flags`
    (those the blocks were read with) give the spans back, so superscript affiliation marks can be
    dropped by their type rather than guessed from the text ("Smitha,b" is otherwise a name)."""
    if not after_title:
        return []
    spans = _spans_by_line(page, flags) if page is not None else {}
    rows = _rows(after_title)[:_MAX_ROWS]
    for i, row in enumerate(rows):
        text = _row_text(row, spans)
        if _STOP_RE.match(text):
            break
        names = parse_name_list(text)
        if not names:
            continue
        # A long byline may continue on rows of its own in the same type (Hindawi sets one per line).
        style = _row_style(row)
        run = [text]
        for following in rows[i + 1 :]:
            following_text = _row_text(following, spans)
            if _row_style(following) != style or _STOP_RE.match(following_text):
                break
            run.append(following_text)
        if len(run) > 1:
            names = parse_name_list(" ".join(run)) or []  # all rows of the run are names, or none is
        return names
    return []


def parse_name_list(text: str) -> list[str] | None:
    """The person names in a byline ("Ross Barnett1,9*, Simon YW Ho4 and Greger Larson1"), markers
    removed and order kept; None unless every part is a plausible name."""
    text = clean_inline(text)
    if not text or "@" in text or "http" in text.lower() or "www." in text.lower():
        return None
    text = _BRACKET_MARKS_RE.sub(" ", text)
    text = _SYMBOL_MARKS_RE.sub(" ", text)
    text = _DIGIT_MARKS_RE.sub(" ", text)
    text = _ORCID_RE.sub(" ", text)
    if any(ch.isdigit() for ch in text):
        return None  # digits that are not marks: dates, addresses, ISSNs
    names: list[str] = []
    for part in _SEPARATOR_RE.split(_BY_RE.sub("", text)):
        tokens = [t for t in part.split() if t not in _HONORIFICS]
        if tokens and names and all(t in _SUFFIXES for t in tokens):
            names[-1] += " " + " ".join(tokens)  # "William B. Driggers, Jr."
        elif tokens:
            names.append(" ".join(tokens))
    if not names or len(names) > _MAX_NAMES or not all(_is_person_name(n) for n in names):
        return None
    return names


def _is_person_name(name: str) -> bool:
    tokens = name.split()
    if not 2 <= len(tokens) <= 5:
        return False
    if any(t.lower().strip(".") in _NOT_NAME_WORDS for t in tokens):
        return False
    kinds = [_token_kind(t) for t in tokens]
    if None in kinds or "word" not in kinds:
        return False  # "A. B." is not a name; a lowercase word that is no particle makes a sentence
    return kinds[-1] != "particle"


def _token_kind(token: str) -> str | None:
    if token in _SUFFIXES:
        return "suffix"
    if token in _PARTICLES:
        return "particle"
    letters = token.replace(".", "").replace("-", "")
    if _INITIALS_RE.fullmatch(token) and letters.isupper() and len(letters) <= 3:
        return "initials"
    # A capitalised word; all capitals only when short (initials above), so "RESEARCH" is no name.
    if _WORD_RE.fullmatch(token) and token[0].isupper() and not token.isupper():
        return "word"
    return None


# --- page geometry ---------------------------------------------------------------------------------


def _rows(blocks: list[RawBlock]) -> list[list[RawBlock]]:
    """Consecutive blocks that share a band of the page, each row read left to right. MuPDF cuts a
    byline into pieces where marks or fonts change (F1000: name, mark, name), and those pieces may
    come out of reading order a few points apart."""
    rows: list[list[RawBlock]] = []
    for block in blocks:
        if rows and _same_band(rows[-1], block):
            rows[-1].append(block)
        else:
            rows.append([block])
    return [sorted(row, key=lambda b: b.bbox[0]) for row in rows]


def _same_band(row: list[RawBlock], block: RawBlock) -> bool:
    top, bottom = min(b.bbox[1] for b in row), max(b.bbox[3] for b in row)
    overlap = min(bottom, block.bbox[3]) - max(top, block.bbox[1])
    return overlap >= 0.5 * min(bottom - top, block.bbox[3] - block.bbox[1])


def _row_style(row: list[RawBlock]) -> tuple[float, bool]:
    """(size, bold) of the row's main block, so marks set small do not count."""
    main = max(row, key=lambda b: b.chars)
    return round(main.max_size, 1), main.bold


def _row_text(row: list[RawBlock], spans: dict[tuple, list[dict]]) -> str:
    size = _row_style(row)[0]  # marks are judged against the names' type, not their own piece's
    return " ".join(join_lines([_line_text(ln, spans, size) for ln in block.lines]) for block in row)


def _spans_by_line(page: pymupdf.Page, flags: int) -> dict[tuple, list[dict]]:
    """Page 1's spans per line box; read with the same flags, the boxes equal the RawLines' boxes."""
    out: dict[tuple, list[dict]] = {}
    for block in page.get_text("dict", flags=flags)["blocks"]:
        for line in block.get("lines", []):
            out[_box_key(line["bbox"])] = line["spans"]
    return out


def _box_key(bbox: tuple | list) -> tuple:
    return tuple(round(v, 1) for v in bbox)


def _line_text(line: RawLine, spans: dict[tuple, list[dict]], size: float) -> str:
    """The line without its superscript marks (spans MuPDF flags as superscript and set smaller);
    each becomes a space so "Margóczi²" + " and" cannot glue into one word."""
    line_spans = spans.get(_box_key(line.bbox))
    if not line_spans:
        return line.text
    parts = []
    for span in line_spans:
        mark = span["text"].strip()
        is_mark = span["flags"] & pymupdf.TEXT_FONT_SUPERSCRIPT and span["size"] < _SUP_SIZE * size
        parts.append(" " if is_mark and len(mark) <= _MARKER_SPAN_CHARS else span["text"])
    return "".join(parts)
