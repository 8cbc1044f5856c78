"""A reference list of one entry under its heading (issue 16, the eighth fresh set's elbioimp class documentation):
"1. National institue of health. International committee of medical journal editors … Available from
http://www.nlm.nih.gov/… Updated 2009 Aug 28; cited 2009 Oct 6." A list of one was kept only when its entry starts
with authors, so a web page by an institution was lost (0 of 1). A numbered line under References that is neither
authored nor a web page still is not a list."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect
from apps.citations.refparse.entries_lines import RefLine


def _page(entry: list[str]) -> list[RefLine]:
    rows = [(f"Body text of the class documentation, line {k}, in the text size.", 10.0, {}) for k in range(30)]
    rows.append(("References", 10.0, {"heading": True, "ref_heading": True, "in_references": True}))
    rows += [(text, 9.0, {"in_references": True}) for text in entry]
    return [
        RefLine(text, page=4, bbox=(57, 40 + 12 * k, 290, 50 + 12 * k), size=size, block=k, **flags)
        for k, (text, size, flags) in enumerate(rows)
    ]


def test_one_web_page_under_references_is_the_list() -> None:
    entries = _detect(
        _page(
            [
                "1. National institue of health. International committee of medical",
                "journal editors uniforum requirements for manuscripts submit-",
                "ted to biomedical journals;. Available from http://www.nlm.",
                "nih.gov/bsd/uniform_requirements.html. Updated 2009 Aug",
                "28; cited 2009 Oct 6.",
            ]
        )
    )
    assert [e.number for e in entries] == [1]
    assert "uniform_requirements.html" in " ".join(ln.text for ln in entries[0].lines)


def test_one_numbered_line_that_is_no_work_is_no_list() -> None:
    assert _detect(_page(["1. See the class options described in the section above."])) == []


def _entry_then_biography(gap: float) -> list[RefLine]:
    """OE Letters: one "1."-labelled entry of four lines, then (`gap` points below) an author's biography set in
    the same size beside the photograph."""
    rows = [(f"Body text of the instructions, line {k}, in the text size.", 10.0, {}) for k in range(30)]
    rows.append(("References", 10.0, {"heading": True, "ref_heading": True, "in_references": True}))
    entry = [
        "1. P. Egan, F. Lakestani, M. P. Whelan, and M. J. Connelly, “Full-field",
        "optical coherence tomography with a complimentary metal-oxide",
        "semiconductor digital signal processor camera,” Optical Engineering,",
        "vol. 45, no. 1, p. 015601, Jan. 2006, available: spiedl.aip.org.",
    ]
    biography = [
        "Patrick Egan received his BEng degree in electronic and computer",
        "engineering at the University of Limerick, Ireland in 2003. He is",
        "currently involved in doctoral research studies in a collaboration.",
    ]
    out, y = [], 40.0
    for k, (text, size, flags) in enumerate(rows):
        out.append(RefLine(text, page=3, bbox=(42, y, 282, y + 10), size=size, block=k, **flags))
        y += 12
    for text in entry:
        out.append(RefLine(text, page=3, bbox=(51, y, 282, y + 8), size=8.0, block=len(rows), in_references=True))
        y += 9
    y += gap
    for text in biography:
        out.append(RefLine(text, page=3, bbox=(119, y, 282, y + 8), size=8.0, block=len(rows) + 1, in_references=True))
        y += 9
    return out


def test_a_list_of_one_ends_at_a_blank_stretch_before_a_biography() -> None:
    entries = _detect(_entry_then_biography(gap=60))
    assert len(entries) == 1
    text = " ".join(ln.text for ln in entries[0].lines)
    assert text.endswith("available: spiedl.aip.org.") and "Patrick Egan" not in text
    # Set on at the entry's own spacing, the lines go on with it.
    assert "Patrick Egan" in " ".join(ln.text for ln in _detect(_entry_then_biography(gap=0))[0].lines)
