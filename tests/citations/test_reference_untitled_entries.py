"""Entries that print no title get none rather than a piece of their names, venue or number (the per-entry truth
of the fresh sets: `untitled_entries`). Each case is a family seen there: an abbreviated journal ending at its
volume and page with a comma between ("J. Geophys. Res. 108, 4201"), an abbreviated name after an acronym ("AIP
Conf. Proc."), a report cited by its number, initials alone, a name given name first where a glued "and" hid the
list's end, a reference manager's placeholder, a volume and issue. Real titles of the same shapes are kept, and a
title that started with the name the glued "and" hid is read after it."""

from __future__ import annotations

import pytest

from apps.citations.refparse.entries_fields import parse_entry


@pytest.mark.parametrize(
    "text",
    [
        "S. R. Kawa and S.-J. Lin, J. Geophys. Res. 108, 4201 (2003), DOI:10.1029/2002JD002268.",
        "S. R. Kawaand S.-J. Lin, J. Geophys. Res. 108, 4201 (2003), DOI:10.1029/2002JD002268.",
        "J. Smith, ed., AIP Conf. Proc., Vol. 841 (2007).",
        "J. Nelson, TWI Report 666/1999 (Jan. 1999) required institution missing.",
        "W. K. Fields, ECE Report No. AL944 (2005) required institution missing.",
        "J. S. Smithand G. W. Johnson, Philos. Trans. R. Soc. London, Ser. B 777, 1395 (2005).",
        "Müller, M.E., Allgöwer, M., Schneider, R., Willenegger, H., 1979. No Title, springer.com. Springer Berlin.",
        "Federal Register (1988). 33(No. 146; July 27), 10756.",
    ],
)
def test_an_entry_that_prints_no_title_gets_none(text):
    assert parse_entry(text)["title"] == ""


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Brown A. Solar Cells. Proc. IEEE 12, 33 (2001).", "Solar Cells"),
        ("Kawa SR, Lin SJ. Ozone in the tropics. J Geophys Res. 2003;108:4201.", "Ozone in the tropics"),
        (
            "A. Einstein, B. Podolsky, and N. Rosen, Can quantum-mechanical description of physical reality be "
            "considered complete?, Phys. Rev. 47, 777 (1935).",
            "Can quantum-mechanical description of physical reality be considered complete?",
        ),
        ("J. Doe, “Fast codes for short blocks,” IEEE Trans. Inf. Theory 12, 3 (2001).", "Fast codes for short blocks"),
        ("Smith J, Jones K. Tumour growth in mice. Lancet. 2001;3:4.", "Tumour growth in mice"),
        # The text layer glued "and" to the surname before ("Birelland"): the second name is no part of the title.
        (
            "N. D. Birelland P. C. W. Davies, Quantum Fields in Curved Space (Cambridge University Press, 1982).",
            "Quantum Fields in Curved Space",
        ),
        (
            "E. B. Daviesand L. Parns, Trapped modes in acoustic waveguides, Q. J. Mech. Appl. Math. 51, 477 (1988).",
            "Trapped modes in acoustic waveguides",
        ),
        (
            "R. Ballaghand C. Savage, Bose-einstein condensation: from atomic physics to quantum fluids, in "
            "Proceedings of the 13th Physics Summer School, edited by C. Savage and M. Das (World Scientific, 2000).",
            "Bose-einstein condensation: from atomic physics to quantum fluids",
        ),
    ],
)
def test_real_titles_of_the_same_shapes_are_kept(text, title):
    assert parse_entry(text)["title"] == title
