"""A style guide's example entries after the paper's own list are not its references (issue 16, the seventh fresh
set's JACoW template): under "REFERENCES" three entries [1]-[3], then Annex B prints example entries numbered [1]
again, then [4] … [21]. The new [1] was not seen as a new list because the first two lines of an IEEE entry hold
only its authors and quoted title, so the paper's list went on through the examples (21 entries for 3)."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect
from apps.citations.refparse.entries_lines import RefLine


def _line(text: str, k: int, *, size: float = 9.0, **flags) -> RefLine:
    page = 4 if k < 100 else 7
    return RefLine(
        text, page=page, bbox=(57, 40 + 12 * (k % 100), 290, 50 + 12 * (k % 100)), size=size, block=k, **flags
    )


def _guide() -> list[RefLine]:
    rows = [(f"Body text of the guide, line {k}, in the text size.", 10.0, {}) for k in range(40)]
    rows += [
        ("REFERENCES", 12.0, {"heading": True, "ref_heading": True, "in_references": True}),
        ("[1] JACoW, http://www.jacow.org", 9.0, {"in_references": True}),
        ("[2] IEEE Editorial Style Manual, IEEE Periodicals, Piscataway,", 9.0, {"in_references": True}),
        ("NJ, USA, Oct. 2014, pp. 34–52.", 9.0, {"in_references": True}),
        ("[3] https://woodward.library.ubc.ca/researchhelp/", 9.0, {"in_references": True}),
        ("journal-abbreviations/", 9.0, {"in_references": True}),
        ("ANNEX B: IEEE REFERENCE STYLE GUIDE", 12.0, {"heading": True}),
    ]
    rows += [(f"The format for proceedings papers is shown below, line {k}.", 10.0, {}) for k in range(45)]
    example = [
        "A. Alpha and B. T. Beta, “Novel techniques for future TeV",
        "electron accelerators”, in Proc. 9th Int. Particle Accelerator",
        "Conf. (IPAC’18), Vancouver, Canada, Apr.-May 2018, pp. 1–3.",
    ]
    for n in range(1, 8):
        rows.append((f"[{n}] {example[0]}", 9.0, {}))
        rows += [(text, 9.0, {}) for text in example[1:]]
    lines = [_line(text, k, size=size, **flags) for k, (text, size, flags) in enumerate(rows[:100])]
    lines += [_line(text, 100 + k, size=size, **flags) for k, (text, size, flags) in enumerate(rows[100:])]
    return lines


def test_the_paper_s_list_ends_where_a_new_list_of_examples_starts_from_1() -> None:
    entries = _detect(_guide())
    assert [e.number for e in entries] == [1, 2, 3]
