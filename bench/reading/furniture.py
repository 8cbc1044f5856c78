"""Page furniture, front matter and Chinese line breaks left in passages, per PDF (issue 16).

    DJANGO_SETTINGS_MODULE=portal.settings SECRET_KEY=x .venv/bin/python bench/reading/furniture.py \
        ../shared/corpus/pdf-varied [--held-out bench/reading/held_out.txt] [--json]

Per file, through parse_document and chunk_document:
- running: lines of the PDF's top or bottom 15% that repeat (digits ignored) at the same height on at least
  max(3, 30%) of the pages — running heads and footers by any definition — found inside a parsed block's rectangles;
- leaders: runs of leader dots (". . . . .", "........", "………", "····") in answerable chunks (weight > 0.5);
- front: front-matter marks (e-mail addresses, "correspondence", "received"/"accepted" with a date, ORCID, ©,
  copyright) in answerable chunks;
- zh_breaks: passages of text chunks (pieces between blank lines, 15 characters or more) that end on a Han character
  and are followed by one that starts with a Han character: a Chinese sentence cut at a line end (also counts cover
  fields and table cells, which are not sentences);
- chars: characters of all chunks (body text must not be lost), and the title the metadata gives.
Held-out files (--held-out) are totalled apart; --skip-held-out leaves them out (while tuning). The code measured is
the checkout the script is run from.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import re
import sys
from pathlib import Path

import django
import pymupdf

BAND = 0.15
LEADER_RE = re.compile(r"(?:\.\s){4,}\.|\.{7,}|…{3,}|·{4,}")
FRONT_RE = re.compile(
    r"(?i)\be-?mail\b|\bcorrespondence\b|corresponding author|\b(?:received|accepted)[\s:]+(?:\d|[A-Z][a-z]+\.? \d)|"
    r"\borcid\b|©|\bcopyright\b|[\w.+-]{2,}@[\w-]+\.\w+"
)
HAN = re.compile(r"[\u3400-\u9fff]")


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", text.lower())).strip()


def running_lines(doc: pymupdf.Document) -> list[tuple[int, float, float]]:
    """(page, x, y) centres of the repeated margin lines of `doc`."""
    seen: dict[tuple[str, int], set[int]] = collections.defaultdict(set)
    where: dict[tuple[str, int], list[tuple[int, float, float]]] = collections.defaultdict(list)
    for pno, page in enumerate(doc, start=1):
        height = page.rect.height
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                text = "".join(s["text"] for s in line["spans"]).strip()
                x0, y0, x1, y1 = line["bbox"]
                if (
                    len(text) >= 4
                    and re.search(r"[^\W\d_]{2}", text)
                    and (y1 < BAND * height or y0 > (1 - BAND) * height)
                ):
                    k = (_key(text), round(y0 / 4))
                    seen[k].add(pno)
                    where[k].append((pno, (x0 + x1) / 2, (y0 + y1) / 2))
    need = max(3, 0.3 * doc.page_count)
    return [w for k, pages in seen.items() if len(pages) >= need for w in where[k]]


def measure(path: Path) -> dict:
    from apps.documents.parsing import chunk_document, parse_document

    parsed = parse_document(path.read_bytes(), path.name)
    chunks = chunk_document(parsed)
    with pymupdf.open(path) as doc:
        margins = running_lines(doc)
    inside = sum(
        1
        for page, x, y in margins
        if any(r.page == page and r.x0 <= x <= r.x1 and r.y0 <= y <= r.y1 for b in parsed.blocks for r in b.rects)
    )
    answerable = [c for c in chunks if c.weight > 0.5]
    breaks = 0
    for chunk in chunks:
        if chunk.chunk_type != "text":
            continue
        pieces = chunk.text.split("\n\n")
        breaks += sum(1 for a, b in itertools.pairwise(pieces) if len(a) >= 15 and HAN.match(a[-1]) and HAN.match(b))
    return {
        "running": inside,
        "leaders": sum(len(LEADER_RE.findall(c.text)) for c in answerable),
        "front": sum(len(FRONT_RE.findall(c.text)) for c in answerable),
        "zh_breaks": breaks,
        "chars": sum(len(c.text) for c in chunks),
        "answerable_chars": sum(len(c.text) for c in answerable),
        "title": parsed.metadata.get("title"),
        "title_guessed": bool(parsed.metadata.get("title_guessed")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--held-out", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--skip-held-out", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(Path.cwd()))  # the checkout run from is the one measured (main, a branch)
    django.setup()
    held = set(args.held_out.read_text().split()) if args.held_out else set()
    paths = sorted(p for p in args.folder.glob("*.pdf") if not (args.skip_held_out and p.name in held))
    files = {p.name: measure(p) for p in paths}
    totals: dict[str, collections.Counter] = {"development": collections.Counter(), "held_out": collections.Counter()}
    for name, row in files.items():
        totals["held_out" if name in held else "development"].update(
            {k: v for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool)}
        )
    if args.json:
        print(json.dumps({"files": files, "totals": totals}, ensure_ascii=False, indent=2))
        return
    for name, row in files.items():
        cells = " ".join(f"{k}={v}" for k, v in row.items() if k != "title")
        print(f"{'*' if name in held else ' '} {name[:44]:44} {cells} title={row['title']!r:.60}")
    for split, counter in totals.items():
        print(split, dict(counter))


if __name__ == "__main__":
    main()
