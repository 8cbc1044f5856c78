"""Compare the reference entries found in a PDF with the publisher XML's reference list.

An entry found in the PDF matches an expected entry when their word tokens overlap both ways (most of the
expected tokens are in the found text and most of the found tokens are expected: an entry merged with its
neighbour, or cut in half, does not match) and, for numbered lists, their numbers are equal. Each expected entry
matches at most one found entry.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

from apps.citations.refparse.entries import find_reference_entries
from apps.citations.refparse.jats import expected_entries
from apps.citations.refparse.types import ReferenceEntry
from apps.documents.parsing import chunk_document, parse_document

MATCH_THRESHOLD = 0.6  # share of tokens each side must find in the other
_TOKEN_RE = re.compile(r"[^\W_]+")
# Identifiers are printed by some publishers and not others, and encoded in the XML by some and not others:
# they are left out on both sides so they neither help nor hurt a match.
_IDENTIFIER_RE = re.compile(r"\b(?:doi:?\s*)?10\.\d{4,9}/\S+|\bhttps?://\S+|\bwww\.\S+", re.IGNORECASE)


def tokens(text: str) -> Counter:
    text = _IDENTIFIER_RE.sub(" ", unicodedata.normalize("NFKC", text)).lower()
    return Counter(_TOKEN_RE.findall(text))


def overlap(expected: str, found: str) -> tuple[float, float]:
    """(share of expected tokens present in found, share of found tokens present in expected), as multisets."""
    e, f = tokens(expected), tokens(found)
    common = sum((e & f).values())
    return (common / max(sum(e.values()), 1), common / max(sum(f.values()), 1))


def is_match(expected: dict, found: ReferenceEntry, threshold: float = MATCH_THRESHOLD) -> bool:
    if expected.get("number") is not None and found.number is not None and expected["number"] != found.number:
        return False
    recall, precision = overlap(expected["text"], found.text)
    return recall >= threshold and precision >= threshold


def find_entries_in_pdf(pdf_path: str | Path) -> list[ReferenceEntry]:
    path = Path(pdf_path)
    data = path.read_bytes()
    parsed = parse_document(data, path.name)
    return find_reference_entries(parsed, chunk_document(parsed), data=data)


def evaluate_entries(pdf_path: str | Path, xml_path: str | Path) -> dict:
    """{expected, found, matched, numbers_ok} for one paper."""
    expected = expected_entries(xml_path)
    found = find_entries_in_pdf(pdf_path)
    used: set[int] = set()
    matched = 0
    by_number = {e["number"]: i for i, e in enumerate(expected) if e["number"] is not None}
    for entry in found:
        candidates = [by_number[entry.number]] if entry.number in by_number else range(len(expected))
        for i in candidates:
            if i not in used and is_match(expected[i], entry):
                used.add(i)
                matched += 1
                break
    return {"expected": len(expected), "found": len(found), "matched": matched}


def evaluate_corpus(corpus_dir: str | Path) -> dict:
    """Over a folder of papers/<id>/paper.pdf + paper.xml (or <id>/paper.pdf directly under the folder):
    {"papers": {id: {...}}, "total": {entries_expected, entries_found, entries_found_ratio, entries_text_matched,
    entries_text_matched_ratio}}."""
    root = Path(corpus_dir)
    folder = root / "papers" if (root / "papers").is_dir() else root
    papers: dict[str, dict] = {}
    for paper in sorted(p for p in folder.iterdir() if (p / "paper.pdf").is_file() and (p / "paper.xml").is_file()):
        r = evaluate_entries(paper / "paper.pdf", paper / "paper.xml")
        papers[paper.name] = {
            "entries_expected": r["expected"],
            "entries_found": r["found"],
            "entries_text_matched": r["matched"],
        }
    expected = sum(p["entries_expected"] for p in papers.values())
    found = sum(p["entries_found"] for p in papers.values())
    matched = sum(p["entries_text_matched"] for p in papers.values())
    total = {
        "entries_expected": expected,
        "entries_found": found,
        "entries_found_ratio": round(found / expected, 4) if expected else 0.0,
        "entries_text_matched": matched,
        "entries_text_matched_ratio": round(matched / expected, 4) if expected else 0.0,
    }
    return {"papers": papers, "total": total}
