"""Undated web pages in an unlabelled list (issue 16, the eighth fresh set's Philosophers' Imprint sample): "Buck,
Anne M., … Scholars' Forum: A New Model For Scholarly Communication http://library.caltech.edu/…" and "The
Association of Research Libraries, New Systems of Scholarly Communication http://www.arl.org/…" beside one dated
entry. An unlabelled list was read only when 70% of its entries had an author-year shape, so this list of three was
lost (0 of 3). A web page (a name or title, then one address at the end, no year) is one of the list's works; a
paragraph of prose with an address inside it is not."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect, _web_page
from apps.citations.refparse.entries_lines import RefLine

_LIST = [
    ("Buck, Anne M., Richard C. Flagan and Betsy Coles Scholars’ Forum:", 421),
    ("A New Model For Scholarly Communication http://library.", 434),
    ("caltech.edu/publications/ScholarsForum", 434),
    ("Harnad, Stevan “Free at Last: The Future of Peer-Reviewed Journal”", 421),
    ("D-Lib Magazine (December 1999) http://www.dlib.org/dlib/", 434),
    ("december99/12harnad.html", 434),
    ("The Association of Research Libraries, New Systems of Scholarly Com-", 421),
    ("munication http://www.arl.org/scomm/change.html", 434),
]


def _page(entries: list[tuple[str, int]]) -> list[RefLine]:
    rows = [(f"Body text of the mission statement, line {k}, in the text size.", 421, {}) for k in range(30)]
    rows.append(("References", 421, {"heading": True, "ref_heading": True, "in_references": True}))
    rows += [(text, x, {"in_references": True}) for text, x in entries]
    return [
        RefLine(text, page=3, bbox=(x, 40 + 12 * k, 720, 50 + 12 * k), size=9.5, block=k, **flags)
        for k, (text, x, flags) in enumerate(rows)
    ]


def test_undated_web_pages_are_entries_of_the_list() -> None:
    entries = _detect(_page(_LIST))
    texts = [" ".join(ln.text for ln in e.lines) for e in entries]
    assert len(texts) == 3
    assert texts[0].startswith("Buck, Anne M.") and texts[2].startswith("The Association of Research Libraries")


def test_prose_with_an_address_inside_is_no_web_page() -> None:
    assert _web_page(
        "The Association of Research Libraries, New Systems of Scholarly Communication http://www.arl.org/"
    )
    assert not _web_page("See http://www.arl.org/scomm/ for the statement that the libraries published together.")
    assert not _web_page("Harnad, Stevan “Free at Last” D-Lib Magazine (December 1999) http://www.dlib.org/")  # dated
    assert not _web_page("Two pages: http://www.arl.org/ and http://library.caltech.edu/ of the forum")
    # The tail of an entry split in two: a DOI, which a dated work has.
    assert not _web_page("Seamless R and C++ doi: 10.18637/jss.v040.i08. URL https://doi.org/10.18637/jss.v040.i08.")
