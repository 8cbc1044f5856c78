"""Line-end hyphens in PDFs: closed up or kept, judged against the publisher's XML of the same paper.

For every line-end hyphen the PDF reader meets where the old rule closed the word up (a letter, a hyphen, the next
line of the paragraph starting in lower case), three rules decide:
  old       close every one up (textutil.join_lines before this change)
  words     join_lines as the parser calls it today: no document vocabulary, so the English word list decides
  document  join_lines with hyphenation.document_vocabulary of the whole PDF's lines (what pdf.py gets once it
            passes the vocabulary), the word list only where the document does not tell
The paper's JATS/BMC XML is the truth: the joined form of "perfor-" | "mance" as a word of the XML and never the
hyphenated one is a split word; the hyphenated form and never the joined one is a real compound; both or neither
is not judgeable. Papers are sorted by name and halved: the rules were tuned on the even-indexed ones only.

--varied FILE... prints the decisions on other PDFs (no truth there).
    .venv/bin/python bench/ingest/hyphens.py [--papers DIR] [--show] [--json] [--varied FILE ...]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402
from lxml import etree  # noqa: E402

from apps.documents.parsing.formats import pdf  # noqa: E402
from apps.documents.parsing.formats.pdf_layout import drop_running_lines, reading_order  # noqa: E402
from apps.documents.parsing.formats.pdf_paragraphs import join_paragraph_lines  # noqa: E402
from apps.documents.parsing.hyphenation import Vocabulary, document_vocabulary, english_words  # noqa: E402
from apps.documents.parsing.textutil import clean_inline, join_lines  # noqa: E402

PAPERS = ROOT.parent / "shared" / "corpus" / "sci-pdf-jats" / "papers"
RULES = ("old", "words", "document")
_OLD_RULE = re.compile(r"[^\W\d_][-\u2010]$")  # textutil's _HYPHEN_END_RE less the soft hyphen (never in question)
_ANY_END_HYPHEN = re.compile(r"\S[-\u2010]$")
_HEAD = re.compile(r"[^\W\d_]+(?=[-\u2010]$)")
_TAIL = re.compile(r"[^\W\d_]+")
_WORD = re.compile(r"[^\W\d_]+(?:[-\u2010\u2011][^\W\d_]+)*")
_HYPHENS = re.compile(r"[-\u2010\u2011]")


@dataclass
class Junction:
    before: str  # the line that ends in the hyphen
    after: str  # the next line of the paragraph
    head: str
    tail: str

    @property
    def shown(self) -> str:
        return f"{self.head}-|{self.tail}"


def pdf_blocks(path: Path) -> list[list[str]]:
    """The visual lines of each paragraph block, in reading order, as pdf.py builds them before joining them (its
    private steps are called one by one: the bench needs the lines, the parser gives only joined text)."""
    doc = pymupdf.open(path)
    try:
        pages, heights, widths = [], [], []
        for page in doc:
            raw = pdf._page_blocks(page)
            pages.append([] if pdf._needs_ocr(page, raw) else raw)
            heights.append(float(page.rect.height))
            widths.append(float(page.rect.width))
    finally:
        doc.close()
    drop_running_lines(pages, heights)
    ordered = [join_paragraph_lines(reading_order(raw, width)) for raw, width in zip(pages, widths, strict=True)]
    return [[ln.text for ln in block.lines] for blocks in ordered for block in blocks]


def junctions(blocks: list[list[str]]) -> tuple[list[Junction], Counter]:
    """Line-end hyphens the old rule closed up, and a count of the other line-end hyphens (no rule touches them:
    the next line starts with a capital or a digit, or a digit comes before the hyphen)."""
    found, others = [], Counter()
    for block in blocks:
        lines = [line for line in (clean_inline(raw) for raw in block) if line]
        for before, after in itertools.pairwise(lines):
            if _OLD_RULE.search(before) and after[:1].islower():
                found.append(Junction(before, after, _HEAD.search(before).group(), _TAIL.match(after).group()))
            elif _ANY_END_HYPHEN.search(before):
                others["capital next" if after[:1].isupper() else "digit or other"] += 1
    return found, others


def xml_forms(path: Path) -> Vocabulary:
    """Every word of the XML (and every part of a hyphenated one) and every hyphenated pair of parts, lower-cased."""
    root = etree.parse(str(path)).getroot()
    closed: Counter[str] = Counter()
    hyphenated: Counter[str] = Counter()
    for match in _WORD.finditer(" ".join(root.itertext()).lower()):
        parts = _HYPHENS.split(match.group())
        closed.update(parts)
        hyphenated.update(f"{a}-{b}" for a, b in itertools.pairwise(parts))
    return Vocabulary(closed=closed, hyphenated=hyphenated)


def truth(j: Junction, xml: Vocabulary) -> str | None:
    head, tail = j.head.lower(), j.tail.lower()
    closed, hyphenated = xml.closed.get(head + tail, 0), xml.hyphenated.get(f"{head}-{tail}", 0)
    if closed and not hyphenated:
        return "split"
    if hyphenated and not closed:
        return "compound"
    return None


def decisions(j: Junction, vocabulary: Vocabulary) -> dict[str, bool]:
    """rule -> whether the hyphen was kept, read from join_lines' own output."""
    kept = j.before + j.after
    return {
        "old": False,
        "words": join_lines([j.before, j.after]) == kept,
        "document": join_lines([j.before, j.after], vocabulary=vocabulary) == kept,
    }


def paper_rows(paper: Path) -> tuple[list[dict], Counter, float]:
    blocks = pdf_blocks(paper / "paper.pdf")
    started = time.perf_counter()
    vocabulary = document_vocabulary(line for block in blocks for line in block)
    seconds = time.perf_counter() - started
    found, others = junctions(blocks)
    xml = xml_forms(paper / "paper.xml")
    rows = [{"paper": paper.name, "word": j.shown, "truth": truth(j, xml), **decisions(j, vocabulary)} for j in found]
    return rows, others, seconds


def tally(rows: list[dict]) -> dict:
    out: dict = {"not judgeable": sum(1 for r in rows if r["truth"] is None), "hyphens": len(rows)}
    for rule in RULES:
        for kind in ("compound", "split"):
            judged = [r for r in rows if r["truth"] == kind]
            right = sum(1 for r in judged if r[rule] == (kind == "compound"))
            out[f"{rule} {kind}"] = (right, len(judged) - right)
    return out


def print_table(name: str, papers: list[str], rows: list[dict], others: Counter) -> None:
    t = tally(rows)
    print(f"\n{name}: {len(papers)} papers, {t['hyphens']} line-end hyphens, {t['not judgeable']} not judgeable")
    print(f"  (other line-end hyphens, decided by no rule: {dict(others)})")
    print("  rule      compound right/wrong   split right/wrong   all right")
    for rule in RULES:
        (cr, cw), (sr, sw) = t[f"{rule} compound"], t[f"{rule} split"]
        print(f"  {rule:9} {cr:>8} / {cw:<10} {sr:>8} / {sw:<8} {cr + sr:>5} of {cr + cw + sr + sw}")


def show(rows: list[dict]) -> None:
    for r in rows:
        wrong = [rule for rule in ("words", "document") if r["truth"] and r[rule] != (r["truth"] == "compound")]
        if wrong or (r["truth"] is None and (r["words"] or r["document"])):
            print(f"    {r['paper'][:18]:18} {r['word']:30} truth={r['truth']} wrong: {','.join(wrong) or '-'}")


def varied(files: list[Path]) -> None:
    for path in files:
        blocks = pdf_blocks(path)
        vocabulary = document_vocabulary(line for block in blocks for line in block)
        found, _ = junctions(blocks)
        kept = [j.shown for j in found if decisions(j, vocabulary)["document"]]
        by_words = [j.shown for j in found if decisions(j, vocabulary)["words"]]
        print(
            f"\n{path.name}: {len(found)} line-end hyphens; kept with the document: {len(kept)}; "
            f"kept by the word list alone: {len(by_words)}"
        )
        print("  kept:", ", ".join(kept[:40]))
        closed = [j.shown for j in found if not decisions(j, vocabulary)["document"]]
        print("  closed up (first 25):", ", ".join(closed[:25]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=Path, default=PAPERS)
    parser.add_argument("--show", action="store_true", help="list the hyphens a new rule gets wrong")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--varied", type=Path, nargs="*", default=[])
    parser.add_argument("--half", choices=("even", "odd", "both"), default="both", help="even: while tuning")
    args = parser.parse_args()
    started = time.perf_counter()
    english_words()
    print(f"word list loaded in {time.perf_counter() - started:.2f} s ({len(english_words())} words)")
    papers = sorted(p for p in args.papers.iterdir() if (p / "paper.pdf").exists() and (p / "paper.xml").exists())
    halves: dict[str, dict] = {}
    vocab_seconds = []
    for name, part in (("even (tuned on)", papers[0::2]), ("odd (held out)", papers[1::2])):
        if args.half != "both" and not name.startswith(args.half):
            continue
        rows, others = [], Counter()
        for paper in part:
            paper_result, paper_others, seconds = paper_rows(paper)
            rows += paper_result
            others += paper_others
            vocab_seconds.append(seconds)
        halves[name] = {"papers": [p.name for p in part], "rows": rows, "tally": tally(rows), "others": dict(others)}
        print_table(name, halves[name]["papers"], rows, others)
        if args.show:
            show(rows)
    print(f"\ndocument vocabulary: {1000 * max(vocab_seconds):.1f} ms at most per paper")
    if args.varied:
        varied(args.varied)
    if args.json:
        print(json.dumps({k: {"papers": v["papers"], "tally": v["tally"]} for k, v in halves.items()}, indent=1))


if __name__ == "__main__":
    main()
