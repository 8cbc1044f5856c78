"""Read a publisher full-text XML (JATS/NLM, or BioMed Central's older `<art>` format) into the ground truth used
to evaluate reference-list detection and in-text citation linking.

JATS: `<ref-list><ref id><label>` and `<xref ref-type="bibr" rid>`; BMC: `<refgrp><bibl id>` and `<abbr bid>`.
Only citations inside the body count (`<body>` / `<bdy>`): front and back matter are not running text.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

_DASHES = ("-", "\u2013", "\u2014", "\u2012", "\u2010", "\u2011")
_SPACES_RE = re.compile(r"\s+")


def _load(xml_path: str | Path) -> etree._Element:
    # DTDs are neither fetched nor trusted: publisher DOCTYPEs point at remote URLs.
    parser = etree.XMLParser(load_dtd=False, no_network=True, recover=True, resolve_entities=False, huge_tree=True)
    return etree.parse(str(xml_path), parser).getroot()


def _is_bmc(root: etree._Element) -> bool:
    return etree.QName(root).localname == "art"


def _text(element: etree._Element, skip: tuple[str, ...] = ()) -> str:
    parts: list[str] = []

    def walk(el: etree._Element) -> None:
        if isinstance(el.tag, str) and etree.QName(el).localname in skip:
            return
        if el.text:
            parts.append(el.text)
        for child in el:
            walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(element)
    return _SPACES_RE.sub(" ", " ".join(p.strip() for p in parts if p.strip())).strip()


def _ref_elements(root: etree._Element) -> list[etree._Element]:
    if _is_bmc(root):
        return root.xpath(".//refgrp/bibl[@id]") or root.xpath(".//bibl[@id][not(ancestor::fm)]")
    return root.xpath(".//ref-list//ref[@id]")


def _number(label: str) -> int | None:
    m = re.search(r"\d+", label)
    return int(m.group(0)) if m else None


def expected_entries(xml_path: str | Path) -> list[dict]:
    """The reference list as the publisher encoded it: [{id, number, label, text}] in list order. `number` is the
    printed label's number (None in author-year lists); `text` is the entry's text with whitespace collapsed."""
    root = _load(xml_path)
    out = []
    for el in _ref_elements(root):
        if _is_bmc(root):
            # BMC XML has no printed label; the list is numbered in order.
            label = str(len(out) + 1)
            text = _text(el, skip=("pubidlist", "pubid"))  # identifiers the PDF does not print
        else:
            label_el = el.find("label")
            label = _text(label_el) if label_el is not None else ""
            text = _text(el, skip=("label", "pub-id"))  # DOIs/PMIDs as ids: many PDFs do not print them
        out.append({"id": el.get("id"), "number": _number(label), "label": label, "text": text})
    return out


def _citation_elements(root: etree._Element) -> list[etree._Element]:
    if _is_bmc(root):
        return root.xpath(".//bdy//abbr[@bid]")
    return root.xpath(".//body//xref[@ref-type='bibr'][@rid]")


def _ids(el: etree._Element, bmc: bool) -> list[str]:
    # JATS allows several ids in one rid ("B3 B4"); BMC's bid holds one.
    return (el.get("bid") if bmc else el.get("rid") or "").split()


def expected_citations(xml_path: str | Path) -> list[str]:
    """Cited reference ids in document order, one per citation element, with ranges expanded: `<xref>3</xref>–
    <xref>5</xref>` yields the ids of 3, 4 and 5 (the ids between the two in reference-list order)."""
    root = _load(xml_path)
    bmc = _is_bmc(root)
    order = {el.get("id"): i for i, el in enumerate(_ref_elements(root))}
    ids_in_order = [el.get("id") for el in _ref_elements(root)]
    elements = _citation_elements(root)
    out: list[str] = []
    for n, el in enumerate(elements):
        ids = _ids(el, bmc)
        out.extend(ids)
        nxt = elements[n + 1] if n + 1 < len(elements) else None
        if nxt is None or el.getnext() is not nxt or not ids:
            continue
        between = (el.tail or "").strip()
        if between and all(ch in _DASHES for ch in between):
            start, end = order.get(ids[-1]), order.get((_ids(nxt, bmc) or [""])[0])
            if start is not None and end is not None and end > start + 1:
                out.extend(ids_in_order[start + 1 : end])  # the range's inner members; the end comes next
    return out
