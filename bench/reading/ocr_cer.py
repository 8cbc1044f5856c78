"""OCR character error rate on clean scans made from PDFs with a known text layer, and the pdf-varied scans.

    .venv/bin/python bench/reading/ocr_cer.py [--json]

English: page 2 of three CC BY papers of ../shared/corpus/sci-pdf-jats, rasterised at 200 dpi. Chinese: two pages of
CMRC 2018 passages (CC BY-SA 4.0) set in MuPDF's CJK font, and page 1 of zh_paper_elegantpaper_cn.pdf (LPPL), each
rasterised the same way (apps/evaluation/ocr_quality.py). Then the development scans of pdf-varied (scan_*;
scan_zh_admin_penalty_decision.pdf is held out and only read with --held-out): pages read, and which printed
headings of ground_truth.json appear in the recognised text.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
os.environ.setdefault("SECRET_KEY", "bench")

CORPUS = ROOT.parent / "shared" / "corpus"
ENGLISH = ["PMC4417228", "bmc-evolbiol-14-70", "f1000research-3-190"]
HELD_OUT = "scan_zh_admin_penalty_decision.pdf"


def main() -> None:
    import django

    django.setup()
    from apps.documents.parsing.formats.pdf import PARSER
    from apps.evaluation.ocr_quality import ocr_cer, text_pdf

    rows = {}
    for paper in ENGLISH:
        started = time.monotonic()
        rows[f"en:{paper}:p2"] = ocr_cer((CORPUS / "sci-pdf-jats" / "papers" / paper / "paper.pdf").read_bytes(), [2])
        rows[f"en:{paper}:p2"]["seconds"] = round(time.monotonic() - started, 1)
    cmrc = json.loads((CORPUS / "zh-cmrc2018" / "cmrc2018_dev.squad.json").read_text())
    passages = [p["context"] for article in cmrc["data"] for p in article["paragraphs"]]
    for start in (0, 40):
        started = time.monotonic()
        rows[f"zh:cmrc2018[{start}:]:p1"] = ocr_cer(text_pdf(passages[start : start + 4]), [1])
        rows[f"zh:cmrc2018[{start}:]:p1"]["seconds"] = round(time.monotonic() - started, 1)
    started = time.monotonic()
    rows["zh:elegantpaper:p1"] = ocr_cer((CORPUS / "pdf-varied" / "zh_paper_elegantpaper_cn.pdf").read_bytes(), [1])
    rows["zh:elegantpaper:p1"]["seconds"] = round(time.monotonic() - started, 1)
    total = {}
    for lang in ("en", "zh"):
        mine = [r for name, r in rows.items() if name.startswith(lang)]
        errors, chars = sum(r["errors"] for r in mine), sum(r["chars"] for r in mine)
        blocks, boxed = sum(r["blocks"] for r in mine), sum(r["blocks_boxed"] for r in mine)
        total[lang] = {"cer": round(errors / max(1, chars), 4), "chars": chars, "errors": errors}
        total[lang] |= {"blocks": blocks, "blocks_boxed": boxed}  # OCR'd blocks whose rectangles hold their text
    truth = json.loads((CORPUS / "pdf-varied" / "ground_truth.json").read_text())
    truth = truth.get("files", truth)
    scans = {}
    for path in sorted((CORPUS / "pdf-varied").glob("scan_*.pdf")):
        if path.name == HELD_OUT and "--held-out" not in sys.argv:
            continue
        started = time.monotonic()
        parsed = PARSER.parse(path.read_bytes(), path.name)
        text = "".join("".join(b.text.split()) for b in parsed.blocks).casefold()
        headings = (truth.get(path.name) or {}).get("section_headings") or []
        found = [h for h in headings if "".join(h.split()).casefold() in text]
        scans[path.name] = {
            "pages": parsed.page_count,
            "unread_pages": parsed.needs_ocr_pages,
            "ocr_blocks": sum(1 for b in parsed.blocks if b.ocr),
            "chars": len(text),
            "headings": len(headings),
            "headings_found": len(found),
            "headings_missed": [h for h in headings if h not in found],
            "seconds": round(time.monotonic() - started, 1),
        }
    result = {"pages": rows, "total": total, "scans": scans}
    if "--json" in sys.argv:
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return
    for name, r in rows.items():
        print(f"{name:32} CER {r['cer']:.3f}  chars {r['chars']:5}  {r['seconds']} s")
    for lang, r in total.items():
        print(f"TOTAL {lang:26} CER {r['cer']:.3f}  chars {r['chars']:5}")
    for name, r in scans.items():
        print(f"{name:42} unread {r['unread_pages']} headings {r['headings_found']}/{r['headings']} {r['seconds']} s")


if __name__ == "__main__":
    main()
