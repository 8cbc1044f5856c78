"""Reference lists of the pdf-varied corpus against its ground_truth.json, on the ingest code path.

    .venv/bin/python bench/reading/refs_eval.py [--files a.pdf,b.pdf] [--heldout] [--show N] [--no-cache]

Parse and chunk results are cached in /tmp/refs-cache (keyed by file and the parsing code's mtime), so changing
refparse/ is measured in seconds. Per file: entries found vs ref_count, first/last entry text matched, share of
entries with a parsed title. Held-out files are skipped unless --heldout is given (then only they are run).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
os.environ.setdefault("SECRET_KEY", "x")

CORPUS = ROOT.parent / "shared" / "corpus" / "pdf-varied"
CACHE = Path("/tmp/refs-cache")
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


def _code_stamp() -> str:
    parsing = ROOT / "apps" / "documents" / "parsing"
    stamp = "".join(f"{p}:{p.stat().st_mtime}" for p in sorted(parsing.rglob("*.py")))
    return hashlib.md5(stamp.encode()).hexdigest()[:10]


def parsed_and_drafts(path: Path, use_cache: bool = True):
    from apps.documents.parsing import ReadLimits, chunk_document, parse_document

    CACHE.mkdir(exist_ok=True)
    key = CACHE / f"{path.stem}-{_code_stamp()}.pkl"
    if use_cache and key.exists():
        return pickle.loads(key.read_bytes())
    data = path.read_bytes()
    parsed = parse_document(data, path.name, limits=ReadLimits(max_pdf_pages=400, max_unzipped_mb=500))
    drafts = chunk_document(parsed)
    key.write_bytes(pickle.dumps((parsed, drafts)))
    return parsed, drafts


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "")
    text = re.sub(r"^\s*(?:\[[^\]]{1,8}\]|\d{1,3}\.)\s*", "", text)
    return re.sub(r"[\W_]+", "", text).lower()


def same_entry(found: str, expected: str) -> bool:
    a, b = norm(found), norm(expected)
    if not a or not b:
        return False
    k = min(len(a), len(b), 60)
    return a[:k] == b[:k] and abs(len(a) - len(b)) <= max(8, 0.1 * len(b))


def specimen_lists(path: Path) -> dict[str, int]:
    """Every numbered list starting at 1 (as entries_split follows it, no resumed chains), keyed by the section
    number printed in the three lines before it ("4.1"): for documents of many short lists."""
    from apps.citations.refparse.entries_lines import document_lines
    from apps.citations.refparse.entries_split import anchor, numbered_entries, split_midline

    parsed, _drafts = parsed_and_drafts(path)
    lines = split_midline(document_lines(parsed, path.read_bytes()))
    out: dict[str, int] = {}
    for i, line in enumerate(lines):
        if anchor(line) != 1:
            continue
        for before in lines[max(0, i - 3) : i]:
            m = re.match(r"^(\d+(?:\.\d+)+)\s", before.text)
            if m:
                out.setdefault(m.group(1), len(numbered_entries(lines, i, max_jumps=0, first_within=1)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", default="")
    ap.add_argument("--heldout", action="store_true")
    ap.add_argument("--show", type=int, default=0, help="print the first N entries with their parsed fields")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    import django

    django.setup()
    from apps.citations.refparse.pipeline import references_and_mentions

    truth = json.loads((CORPUS / "ground_truth.json").read_text())
    names = sorted(truth)
    if args.files:
        names = [n for n in names if any(f in n for f in args.files.split(","))]
    names = [n for n in names if (n in HELD_OUT) == args.heldout]
    rows = []
    for name in names:
        gt = truth[name]
        path = CORPUS / name
        parsed, drafts = parsed_and_drafts(path, not args.no_cache)
        entries, mentions = references_and_mentions(parsed, drafts, path.read_bytes())
        expected = gt.get("ref_count")
        titled = sum(1 for e in entries if e.title)
        row = {
            "file": name,
            "expected": expected,
            "found": len(entries),
            "titled": titled,
            "first_ok": bool(entries) and bool(gt.get("first_ref")) and same_entry(entries[0].text, gt["first_ref"]),
            "last_ok": bool(entries) and bool(gt.get("last_ref")) and same_entry(entries[-1].text, gt["last_ref"]),
            "mentions": len(mentions),
            "linked_mentions": sum(1 for m in mentions if m.entry_indices),
        }
        rows.append(row)
        if not args.json:
            ok = "=" if expected == len(entries) or (expected is None and not entries) else "!"
            print(
                f"{ok} {name[:52]:<52} exp {expected!s:>4} found {len(entries):>3} titled {titled:>3} "
                f"first {'Y' if row['first_ok'] else '-'} last {'Y' if row['last_ok'] else '-'} "
                f"mentions {len(mentions):>4}"
            )
        for e in entries[: args.show]:
            print(f"    [{e.number}] {e.text[:160]}")
            print(f"        T={e.title[:100]!r} A={e.authors[:4]} Y={e.year} V={e.venue[:60]!r}")
    for name in names:
        if truth[name].get("ref_lists"):
            found = specimen_lists(CORPUS / name)
            for key, expected in truth[name]["ref_lists"].items():
                got = found.get(key.split()[0])
                print(f"  ref_lists {name[:30]} {key}: expected {expected} found {got}")
    with_bib = [r for r in rows if r["expected"]]
    total_found = sum(r["found"] for r in with_bib)
    summary = {
        "files_with_bibliography": len(with_bib),
        "count_exact": sum(1 for r in with_bib if r["found"] == r["expected"]),
        "within_5pct": sum(1 for r in with_bib if abs(r["found"] - r["expected"]) <= 0.05 * r["expected"]),
        "first_ok": sum(1 for r in with_bib if r["first_ok"]),
        "last_ok": sum(1 for r in with_bib if r["last_ok"]),
        "titled_share": round(sum(r["titled"] for r in with_bib) / total_found, 3) if total_found else 0.0,
        "no_bib_false_entries": sum(r["found"] for r in rows if not r["expected"] and "gbt7714" not in r["file"]),
    }
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
    else:
        print(summary)


if __name__ == "__main__":
    main()
