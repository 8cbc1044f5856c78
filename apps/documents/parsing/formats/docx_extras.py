"""Two things Word shows that are not in a paragraph's own text: list numbers and footnotes/endnotes.

List labels ("1.", "a)", "iv.", "•") are rebuilt from numbering.xml the way Word counts: one counter per
list (numId) and level, a level's counter restarting when a shallower level advances. Not modelled:
legal-style numbering of other lists' levels and "continue from previous list" across different numIds.
"""

from __future__ import annotations

from collections.abc import Iterator

import lxml.etree
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml.ns import qn

_BULLETS = {"\uf0b7": "•", "\uf0a7": "▪", "\uf0d8": "➢", "\uf0fc": "✓", "o": "◦", "\uf06f": "◦", "": "•"}
_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl")]
_ROMAN += [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
NOTE_PARTS = ((RT.FOOTNOTES, "footnote", "fn", "Footnotes"), (RT.ENDNOTES, "endnote", "en", "Endnotes"))


def _val(el, tag: str) -> str | None:
    child = el.find(qn(tag)) if el is not None else None
    return child.get(qn("w:val")) if child is not None else None


class Numbering:
    """Counts numbered paragraphs in document order and gives each its visible label."""

    def __init__(self, document) -> None:
        self.levels: dict[str, dict[int, tuple[str, str, int]]] = {}  # numId -> ilvl -> (fmt, text, start)
        self.counters: dict[str, dict[int, int]] = {}
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract = {a.get(qn("w:abstractNumId")): a for a in root.findall(qn("w:abstractNum"))}
        for num in root.findall(qn("w:num")):
            definition = abstract.get(_val(num, "w:abstractNumId"))
            if definition is None:
                continue
            levels = {}
            for lvl in definition.findall(qn("w:lvl")):
                start = _val(lvl, "w:start")
                levels[int(lvl.get(qn("w:ilvl"), "0"))] = (
                    _val(lvl, "w:numFmt") or "decimal",
                    _val(lvl, "w:lvlText") or "",
                    int(start) if start and start.lstrip("-").isdigit() else 1,
                )
            for override in num.findall(qn("w:lvlOverride")):
                ilvl, start = int(override.get(qn("w:ilvl"), "0")), _val(override, "w:startOverride")
                if ilvl in levels and start and start.isdigit():
                    levels[ilvl] = (levels[ilvl][0], levels[ilvl][1], int(start))
            self.levels[num.get(qn("w:numId"))] = levels

    def label(self, num_id: str | None, ilvl: int) -> str:
        """Advance the list's counter for this paragraph and return its label ("" when not numbered)."""
        levels = self.levels.get(num_id or "")
        if not levels or ilvl not in levels:
            return ""
        counters = self.counters.setdefault(num_id, {})
        counters[ilvl] = counters.get(ilvl, levels[ilvl][2] - 1) + 1
        for deeper in [k for k in counters if k > ilvl]:
            del counters[deeper]  # "1. / a. b. / 2. / a." : the sub-list starts again
        fmt, text, _ = levels[ilvl]
        if fmt == "bullet":
            # Symbol/Wingdings bullets are private-use code points that mean nothing outside that font.
            return _BULLETS.get(text, "•" if not text or "\ue000" <= text[0] <= "\uf8ff" else text)
        if fmt == "none":
            return ""
        for k in range(9):
            if f"%{k + 1}" in text:
                lv = levels.get(k, ("decimal", "", 1))
                n = counters.get(k, lv[2])
                text = text.replace(f"%{k + 1}", _format(n, fmt if k == ilvl else lv[0]))
        return text.strip()


def _format(n: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter.upper() if fmt == "upperLetter" else letter
    if fmt in ("lowerRoman", "upperRoman"):
        out, rest = "", n
        for value, numeral in _ROMAN:
            while rest >= value:
                out, rest = out + numeral, rest - value
        return out.upper() if fmt == "upperRoman" else out
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


def paragraph_numbering(p, style) -> tuple[str | None, int]:
    """(numId, ilvl) of a paragraph: its own numPr, else the one its style (chain) carries."""
    num_pr = p.pPr.numPr if p.pPr is not None else None
    num_id = ilvl = None
    if num_pr is not None:
        num_id = str(num_pr.numId.val) if num_pr.numId is not None else None
        ilvl = num_pr.ilvl.val if num_pr.ilvl is not None else None
    s = style
    while num_id is None and s is not None:
        s_pr = s.element.pPr
        if s_pr is not None and s_pr.numPr is not None and s_pr.numPr.numId is not None:
            num_id = str(s_pr.numPr.numId.val)
            ilvl = ilvl if ilvl is not None else (s_pr.numPr.ilvl.val if s_pr.numPr.ilvl is not None else None)
        s = s.base_style
    return (None if num_id == "0" else num_id), int(ilvl or 0)


def iter_notes(document) -> Iterator[tuple[str, str, list]]:
    """(heading, id, paragraph elements) for each real footnote, then each endnote. Separator "notes" that
    Word keeps in the same part are skipped."""
    for reltype, tag, prefix, heading in NOTE_PARTS:
        try:
            part = document.part.part_related_by(reltype)
        except KeyError:
            continue
        root = lxml.etree.fromstring(part.blob, parser=lxml.etree.XMLParser(resolve_entities=False))
        for note in root.iter(qn(f"w:{tag}")):
            if note.get(qn("w:type")) not in (None, "normal"):
                continue
            yield heading, f"{prefix}{note.get(qn('w:id'))}", list(note.iter(qn("w:p")))
