"""What the bounded reading process costs on the hostile corpus's bombs and on a real paper: each file is read by
apps.documents.services.reading.read_file inside apps.documents.parsing.sandbox.run_bounded, with the default
limits (PORTAL_PARSE_MEMORY_MB, PORTAL_PARSE_TIMEOUT_S), and the child's peak resident memory, CPU and wall time
(from the kernel's accounting, wait4) are printed with the outcome.

    .venv/bin/python bench/hostile/run.py [--json] [--timeout S] [--memory MB]

Needs no database, broker or worker: the reading step touches none.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")


def samples() -> dict[str, tuple[str, str, bytes]]:
    from tests.hostile import builders
    from tests.hostile.corpus import PAPER

    return {
        "real paper (PMC4417228)": ("paper.pdf", "pdf", PAPER.read_bytes()),
        "PDF font bomb (1.5 GB inflated)": ("fontbomb.pdf", "pdf", builders.pdf_font_bomb(1500)),
        "PDF content bomb (1 GB inflated)": ("contentbomb.pdf", "pdf", builders.pdf_content_bomb(1024)),
        "PDF content bomb (8 GB inflated)": ("contentbomb8.pdf", "pdf", builders.pdf_content_bomb(8192)),
        "DOCX zip bomb (520 MB part)": (
            "zipbomb.docx",
            "docx",
            builders.replace_parts(builders.docx_bytes(["x"]), {}, extra={"word/media/bomb.bin": 520}),
        ),
        "DOCX billion laughs": ("laughs.docx", "docx", builders.docx_billion_laughs()),
        "PDF of 5,001 pages": ("pages.pdf", "pdf", builders.pdf_many_pages(5001, "many pages")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--timeout", type=float, default=None, help="seconds (default: the setting)")
    parser.add_argument("--memory", type=int, default=None, help="MB (default: the setting)")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    from apps.documents.parsing import ParseError
    from apps.documents.parsing.sandbox import LimitExceeded, run_bounded
    from apps.documents.services.reading import read_file, read_limits

    memory = args.memory or settings.PORTAL_PARSE_MEMORY_MB
    timeout = args.timeout or settings.PORTAL_PARSE_TIMEOUT_S
    rows = []
    for label, (name, doc_type, data) in samples().items():
        usage, outcome = None, "read"
        try:
            bounded = run_bounded(read_file, data, name, doc_type, read_limits(), memory_mb=memory, timeout_s=timeout)
            usage, outcome = bounded.usage, f"read: {len(bounded.value.drafts)} chunks"
        except LimitExceeded as exc:
            usage, outcome = exc.usage, f"{exc.kind} limit: {exc}"
        except ParseError as exc:
            usage, outcome = exc.usage, f"refused: {exc}"
        rows.append(
            {
                "file": label,
                "bytes": len(data),
                "peak_rss_mb": usage.peak_rss_mb if usage else None,
                "cpu_s": usage.cpu_s if usage else None,
                "wall_s": usage.wall_s if usage else None,
                "outcome": outcome,
            }
        )
    if args.json:
        print(json.dumps({"memory_mb": memory, "timeout_s": timeout, "rows": rows}, indent=2))
        return
    print(f"limits: {memory} MB more address space, {timeout:g} s\n")
    print(f"{'file':34} {'bytes':>10} {'peak MB':>8} {'cpu s':>6} {'wall s':>6}  outcome")
    for row in rows:
        cells = [("-" if row[k] is None else f"{row[k]:g}") for k in ("peak_rss_mb", "cpu_s", "wall_s")]
        print(f"{row['file']:34} {row['bytes']:>10,} {cells[0]:>8} {cells[1]:>6} {cells[2]:>6}  {row['outcome'][:90]}")


if __name__ == "__main__":
    main()
