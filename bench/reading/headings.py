"""Top-level headings recall/precision and section-right share on pdf-varied (issue 16, headings part).

Usage: DJANGO_SETTINGS_MODULE=portal.settings SECRET_KEY=x .venv/bin/python bench/reading/headings.py [-v] [--held-out]
[files]
Recall: printed top-level headings (ground_truth.json section_headings) emitted as top-level headings (a heading
block whose heading_path has one entry), compared case- and whitespace-insensitively (CJK: whitespace ignored).
Precision: emitted top-level headings that are in the list (front_matter_headings are neither right
nor wrong). Section right: passages whose shown section
(ChunkDraft.section) is the last ground-truth heading found at or before the passage in reading order.
English: passages of a Chinese document whose shown section is an English canonical name the document does not print.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "pdf-varied"
HELD_OUT = {
    "cvpr2016_structural_rnn.pdf",
    "acm_chi2013ea_did_you_notice.pdf",
    "elsarticle_arxiv2201.13352_strain_sensor.pdf",
    "lncs_word_berardi_assoc_rules_biomed.pdf",
    "elsevier_bjm2016_asparaginase_review.pdf",
    "zh_thesis_bit_undergrad_template.pdf",
    "scan_zh_admin_penalty_decision.pdf",
    "table_ca_warn_report_2015_2016.pdf",
}


def key(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")
    return re.sub(r"\s+", "", text)


def measure(path: Path, expected: list[str], front: list[str]) -> dict:
    from apps.documents.parsing import chunk_document, parse_document
    from apps.documents.parsing.sections import CANONICAL_NAMES

    parsed = parse_document(path.read_bytes(), path.name)
    drafts = chunk_document(parsed)
    blocks = parsed.blocks
    top = [b.text for b in blocks if b.kind == "heading" and len(b.heading_path) == 1]
    want = {key(h) for h in expected}
    got = {key(t) for t in top}
    found = [h for h in expected if key(h) in got]
    extra = [t for t in top if key(t) not in want and key(t) not in {key(f) for f in front}]
    # where each expected heading is (first block whose text is it), for the passages' expected section
    at: dict[int, str] = {}
    for h in expected:
        for i, b in enumerate(blocks):
            if key(b.text) == key(h) and i not in at:
                at[i] = h
                break
    right = total = 0
    for d in drafts:
        first = d.blocks[0] if d.blocks else 0
        before = [i for i in at if i <= first]
        if not expected:
            continue
        want_section = at[max(before)] if before else ""
        have = d.section  # the section shown: the top-level heading as printed
        total += 1
        right += key(have) == key(want_section)
    chinese = sum(bool(re.search(r"[\u4e00-\u9fff]", b.text)) for b in blocks) > len(blocks) / 3
    text = key(" ".join(b.text for b in blocks))
    english = sum(1 for d in drafts if chinese and d.section in CANONICAL_NAMES and key(d.section) not in text)
    return {
        "expected": len(expected),
        "found": len(found),
        "top": len(top),
        "extra": extra[:12],
        "n_extra": len(extra),
        "missing": [h for h in expected if key(h) not in got],
        "right": right,
        "passages": total,
        "english": english,
    }


def main() -> None:
    import django

    django.setup()
    args = sys.argv[1:]
    held = "--held-out" in args
    names = [a for a in args if not a.startswith("-")]
    truth = json.loads((CORPUS / "ground_truth.json").read_text())
    rows = {}
    for name, gt in sorted(truth.items()):
        if not isinstance(gt, dict) or (names and name not in names) or ((name in HELD_OUT) != held):
            continue
        r = measure(CORPUS / name, gt.get("section_headings") or [], gt.get("front_matter_headings") or [])
        rows[name] = r
        share = f"{r['right']}/{r['passages']}" if r["passages"] else "-"
        print(
            f"{name[:44]:44} rec {r['found']:2}/{r['expected']:2} top {r['top']:3} extra {r['n_extra']:3} "
            f"sect {share:8} en {r['english']}",
            flush=True,
        )
        if "-v" in args:
            print("   missing:", r["missing"])
            print("   extra:", r["extra"])
    exp = sum(r["expected"] for r in rows.values())
    fnd = sum(r["found"] for r in rows.values())
    top = sum(r["top"] for r in rows.values())
    ext = sum(r["n_extra"] for r in rows.values())
    right = sum(r["right"] for r in rows.values())
    total = sum(r["passages"] for r in rows.values())
    print(
        f"TOTAL recall {fnd}/{exp} = {fnd / max(exp, 1):.3f}; precision {(top - ext)}/{top} = "
        f"{(top - ext) / max(top, 1):.3f}; section right {right}/{total} = {right / max(total, 1):.3f}; "
        f"english {sum(r['english'] for r in rows.values())}"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
