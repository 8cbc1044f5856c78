"""An outline entry is the heading it points at (issue 16, the sixth fresh set's LaTeX News): a contents list on
the same page names every section in the headings' own type, and the outline's titles were matched to the first
block with that text, the contents line, so the body's headings were left as text (headings 6/7, passages under
the right heading 9/22). Entries carry their destination; the matching block at that place is the heading, also
where the printed heading is longer than the outline's short title."""

from __future__ import annotations

import pymupdf

from apps.documents.parsing import parse_document

_BODY = "This sentence is body text of the sample document, set in the text size of ten points here."
_CONTENTS = ("Introduction", "Methods of the study", "Results and their meaning")
_PRINTED = ("Introduction", "Methods of the study and the material used", "Results and their meaning")


def _pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Contents", fontsize=14, fontname="hebo")
    for k, title in enumerate(_CONTENTS):  # the contents list, in the headings' type
        page.insert_text((72, 104 + 18 * k), title, fontsize=12, fontname="hebo")
        page.insert_text((500, 104 + 18 * k), "1", fontsize=12)
    toc, y = [], 220
    for title, short in zip(_PRINTED, _CONTENTS, strict=True):
        y += 20
        page.insert_text((72, y), title, fontsize=12, fontname="hebo")
        # hyperref's destination: a little above the heading, in PDF space (origin at the bottom left)
        toc.append([1, short, 1, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(72, 792 - (y - 12) + 8)}])
        for _ in range(4):
            y += 14
            page.insert_text((72, y), _BODY, fontsize=10)
    doc.set_toc(toc)
    return doc.tobytes()


def test_outline_entries_are_the_headings_they_point_at_not_the_contents_lines() -> None:
    blocks = parse_document(_pdf(), "news.pdf").blocks
    body_headings = [b.text for b in blocks if b.kind == "heading" and b.rects and b.rects[0].y0 > 200]
    assert body_headings == list(_PRINTED)
    contents = [b for b in blocks if b.rects and b.rects[0].y0 < 200 and b.text in _CONTENTS[1:]]
    assert len(contents) == 2 and all(b.kind != "heading" for b in contents)
    # Each body paragraph lies under its own section.
    paragraphs = [b for b in blocks if b.text.startswith("This sentence")]
    assert [b.heading_path[-1] for b in paragraphs] == list(_PRINTED)


# hyperref sets a section's anchor where the section begins; when the heading does not fit at the foot of the page
# it is printed at the top of the next one, and the outline points below the last line of the page before (the
# eighth fresh set's Philosophers' Imprint: "2. Mission" on page 1, printed on page 2). Only two of three entries
# were found, the outline was dropped, and neither numbering nor type style (unnumbered, in the body's type here) found
# the third.
_PUSHED = ("Description of the series", "Mission of the editors", "Instructions for authors")


def _pushed_pdf() -> bytes:
    doc = pymupdf.open()
    toc = []
    for pno, title in enumerate(_PUSHED, start=1):
        page = doc.new_page(width=612, height=792)
        y = 80
        if pno == 2:  # the anchor of section 2 lies on page 1, below its text
            toc.append([1, title, 1, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(72, 792 - 700)}])
        else:
            toc.append([1, title, pno, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(72, 792 - (y - 12) + 8)}])
        page.insert_text((72, y), title, fontsize=10)  # the body's type: no style tells it from the text
        y += 12
        for _ in range(8):
            y += 14
            page.insert_text((72, y), _BODY, fontsize=10)
    doc.set_toc(toc)
    return doc.tobytes()


def test_an_entry_pointing_below_the_last_line_is_the_heading_atop_the_next_page() -> None:
    blocks = parse_document(_pushed_pdf(), "imprint.pdf").blocks
    assert [(b.page, b.text) for b in blocks if b.kind == "heading"] == [(k, t) for k, t in enumerate(_PUSHED, 1)]
    paragraphs = [b for b in blocks if b.text.startswith("This sentence") and b.page == 2]
    assert paragraphs and all(b.heading_path == (_PUSHED[1],) for b in paragraphs)
