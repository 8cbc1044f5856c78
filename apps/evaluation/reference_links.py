"""How well in-text citations are linked: our mentions against the publisher XML's citation anchors.

parse -> chunk -> reference entries -> mentions, then every link (one mention may carry several entries) is
mapped to a reference id of the XML and compared as a multiset with the XML's cited ids (ranges expanded):
precision = share of our links the XML also has, recall = share of the XML's links we found.
Run: python -m apps.evaluation.reference_links /work/shared/corpus/sci-pdf-jats/papers
"""

from __future__ import annotations

import collections
import re
import sys
from pathlib import Path

from lxml import etree

from apps.citations.refparse import jats
from apps.citations.refparse.markers import find_mentions
from apps.citations.refparse.pipeline import references_and_mentions
from apps.citations.refparse.types import ReferenceEntry
from apps.documents.parsing import chunk_document, parse_document

REFERENCES = "References"
MIN_TEXT_MATCH = 0.3  # token overlap below this: our entry does not correspond to any XML entry


def gt_entries(xml_path: str | Path) -> list[ReferenceEntry]:
    """The XML's reference list as ReferenceEntry objects: the stand-in when the list detector is not used."""
    rows = jats.expected_entries(xml_path)
    names = _xml_names(xml_path)
    out = []
    for i, row in enumerate(rows):
        surnames, year = names.get(row["id"], ([], None))
        out.append(
            ReferenceEntry(
                index=i,
                number=row["number"],
                text=row["text"],
                year=year,
                first_author=surnames[0] if surnames else "",
                authors=surnames,
            )
        )
    return out


def _root(xml_path: str | Path) -> etree._Element:
    parser = etree.XMLParser(load_dtd=False, no_network=True, recover=True, resolve_entities=False, huge_tree=True)
    return etree.parse(str(xml_path), parser).getroot()


def expected_links(xml_path: str | Path) -> list[str]:
    """Cited reference ids in document order, ranges expanded, from everywhere but the reference list itself.

    jats.expected_citations() counts the body only; the PDF's chunks also hold tables, captions and back matter,
    and some publishers (Hindawi) keep tables in <floats-group>, so their citations are expected here too."""
    root = _root(xml_path)
    order = [r.get("id") for r in root.xpath(".//ref-list//ref[@id] | .//refgrp/bibl[@id]")]
    position = {rid: i for i, rid in enumerate(order)}
    cites = root.xpath(
        ".//xref[@ref-type='bibr'][@rid][not(ancestor::ref-list)] | .//abbr[@bid][not(ancestor::refgrp)]"
    )
    out: list[str] = []
    for n, el in enumerate(cites):
        ids = (el.get("rid") or el.get("bid") or "").split()
        out += ids
        nxt = cites[n + 1] if n + 1 < len(cites) else None
        # "<xref>3</xref>–<xref>5</xref>": the ids between the two in list order are cited too.
        if ids and nxt is not None and el.getnext() is nxt and (el.tail or "").strip() in ("-", "\u2013", "\u2014"):
            start, end = position.get(ids[-1]), position.get((nxt.get("rid") or nxt.get("bid") or "").split()[0])
            if start is not None and end is not None and end > start + 1:
                out += order[start + 1 : end]
    return out


def _xml_names(xml_path: str | Path) -> dict[str, tuple[list[str], int | None]]:
    """Author surnames and year per reference id (JATS <surname>/<year>, BMC <snm>/<pubdate>)."""
    root = _root(xml_path)
    out = {}
    for ref in root.xpath(".//ref-list//ref[@id] | .//refgrp/bibl[@id]"):
        surnames = [s.strip() for s in ref.xpath(".//surname/text() | .//snm/text()") if s.strip()]
        years = [
            m.group(0) for y in ref.xpath(".//year/text() | .//pubdate/text()") for m in [re.search(r"\d{4}", y)] if m
        ]
        out[ref.get("id")] = (surnames, int(years[0]) if years else None)
    return out


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"\w{2,}", text.lower()))


def _id_mapper(entries: list[ReferenceEntry], rows: list[dict]):
    """entry index -> XML reference id: by printed number when both lists are numbered, else by text overlap."""
    by_number = {r["number"]: r["id"] for r in rows if r["number"] is not None}
    row_tokens = [(r["id"], _tokens(r["text"])) for r in rows]
    cache: dict[int, str | None] = {}

    def lookup(entry: ReferenceEntry) -> str | None:
        if entry.number is not None and by_number:
            return by_number.get(entry.number)
        mine = _tokens(entry.text)
        best, best_id = 0.0, None
        for rid, theirs in row_tokens:
            score = len(mine & theirs) / (len(mine | theirs) or 1)
            if score > best:
                best, best_id = score, rid
        return best_id if best >= MIN_TEXT_MATCH else None

    by_index = {e.index: e for e in entries}

    def mapped(index: int) -> str | None:
        if index not in cache:
            cache[index] = lookup(by_index[index]) if index in by_index else None
        return cache[index]

    return mapped


def evaluate_links(
    pdf_path: str | Path,
    xml_path: str | Path,
    entries: list[ReferenceEntry] | None = None,
    *,
    xml_entries: bool = False,
) -> dict:
    """Link precision/recall for one paper. `entries` defaults to the list detector's output (entries.py), or to
    the XML's own list when that module is not available or `xml_entries` asks for it (this isolates the marker
    finder from list detection)."""
    pdf_path = Path(pdf_path)
    data = pdf_path.read_bytes()
    parsed = parse_document(data, pdf_path.name)
    drafts = chunk_document(parsed)
    if entries is None and not xml_entries:
        # Exactly what ingestion stores: detected list, markers searched in the retrievable chunks.
        entries, mentions = references_and_mentions(parsed, drafts, data)
        source = "detected"
    else:
        entries, source = (entries, "given") if entries is not None else (gt_entries(xml_path), "xml")
        mentions = find_mentions([(d.chunk_index, d.text) for d in drafts if d.weight > 0], entries)
    mapped = _id_mapper(entries, jats.expected_entries(xml_path))
    ours = [mapped(i) for m in mentions for i in m.entry_indices]
    expected = expected_links(xml_path)
    result = score(ours, expected)
    result.update(entries=len(entries), entries_source=source, mentions=len(mentions))
    return result


def score(ours: list[str | None], expected: list[str]) -> dict:
    """Multiset comparison; an unmapped link (None) always counts as wrong."""
    have, want = collections.Counter(x for x in ours if x is not None), collections.Counter(expected)
    hit = sum(min(n, want[k]) for k, n in have.items())
    return {
        "links": len(ours),
        "expected": len(expected),
        "matched": hit,
        "precision": hit / len(ours) if ours else 1.0,
        "recall": hit / len(expected) if expected else 1.0,
    }


def evaluate_corpus(papers_dir: str | Path, xml_entries: bool = False) -> dict:
    """Every papers/<id>/paper.pdf + paper.xml: per paper and in total (totals are over links, not averages)."""
    papers = {}
    for folder in sorted(Path(papers_dir).iterdir()):
        if (folder / "paper.pdf").exists() and (folder / "paper.xml").exists():
            papers[folder.name] = evaluate_links(folder / "paper.pdf", folder / "paper.xml", xml_entries=xml_entries)
    links = sum(p["links"] for p in papers.values())
    expected = sum(p["expected"] for p in papers.values())
    hit = sum(p["matched"] for p in papers.values())
    total = {
        "links": links,
        "expected": expected,
        "matched": hit,
        "precision": hit / links if links else 1.0,
        "recall": hit / expected if expected else 1.0,
    }
    return {"papers": papers, "total": total}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--xml-entries"]
    report = evaluate_corpus(
        args[0] if args else "/work/shared/corpus/sci-pdf-jats/papers", "--xml-entries" in sys.argv
    )
    for name, row in [*report["papers"].items(), ("TOTAL", report["total"])]:
        counts = f"links={row['links']:4} expected={row['expected']:4}"
        print(f"{name:28} {counts} P={row['precision']:.3f} R={row['recall']:.3f}")
