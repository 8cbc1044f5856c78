"""Parsed reference titles against the publisher XML of the JATS/BMC papers (sci-pdf-jats).

    .venv/bin/python bench/reading/refs_titles_jats.py [--show]

For each entry found in the PDF (matched to the XML reference by its number, else by position), the publisher's
title (<article-title>, <chapter-title>, else <source> of a book; BMC <title>) is compared with the parsed title:
right (the same words), wrong (a title was parsed but is another text) or none. "Rather no title than a wrong
one": wrong must stay near zero.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import unicodedata
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
os.environ.setdefault("SECRET_KEY", "x")
JATS = ROOT.parent / "shared" / "corpus" / "sci-pdf-jats" / "papers"


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def xml_titles(xml: Path) -> list[str]:
    from lxml import etree

    root = etree.parse(str(xml)).getroot()
    if root.xpath(".//bibl"):
        refs = root.xpath(".//refgrp/bibl[@id]") or root.xpath(".//bibl[@id][not(ancestor::fm)]")
        return [" ".join("".join(r.xpath("./title//text()")).split()) for r in refs]
    out = []
    for ref in root.xpath(".//ref-list//ref[@id]"):
        for path in (".//article-title", ".//chapter-title", ".//source"):
            found = ref.xpath(path)
            if found:
                out.append(" ".join("".join(found[0].itertext()).split()))
                break
        else:
            out.append("")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", action="store_true", help="print the wrong ones")
    args = ap.parse_args()
    import django

    django.setup()
    from apps.evaluation.reference_entries import find_entries_in_pdf

    totals = {"entries": 0, "right": 0, "wrong": 0, "none": 0, "no_truth": 0}
    for folder in sorted(JATS.iterdir()):
        truth = xml_titles(folder / "paper.xml")
        entries = find_entries_in_pdf(folder / "paper.pdf")
        row = {"entries": len(entries), "right": 0, "wrong": 0, "none": 0, "no_truth": 0}
        for i, entry in enumerate(entries):
            k = entry.number - 1 if entry.number and entry.number <= len(truth) else i
            expected = _norm(truth[k]) if k < len(truth) else ""
            got = _norm(entry.title)
            if not expected:
                row["no_truth"] += 1
            elif not got:
                row["none"] += 1
            elif got == expected or SequenceMatcher(None, got, expected).ratio() >= 0.9:
                row["right"] += 1
            else:
                row["wrong"] += 1
                if args.show:
                    print(f"  {folder.name} [{entry.number}] got {entry.title[:70]!r}\n      want {truth[k][:70]!r}")
        print(f"{folder.name:<28} {row}")
        for key in totals:
            totals[key] += row[key]
    print("total", totals)


if __name__ == "__main__":
    main()
