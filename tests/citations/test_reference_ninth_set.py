"""Reference lists of the ninth fresh set's worked-on half (issue 16): the mechanisms each of its documents showed
missing, on the lines and entries as those documents print them."""

from __future__ import annotations

from apps.citations.refparse.entries import _author_year_like, _detect, _entry_text
from apps.citations.refparse.entries_fields import parse_entry
from apps.citations.refparse.entries_lines import RefLine


def test_an_access_date_after_an_address_is_no_second_year() -> None:
    # ASCE: the date a web address was read on, "(2007)", made the entry look like two run together (31 of 32).
    entry = (
        "Wichtmann, T. (2005). “Explicit accumulation model for non-cohesive soils under cyclic loading.” Ph.D. "
        "thesis, Institute for Soil Mechanics and Foundation Engineering, Ruhr-Univ. Bochum, Germany, , "
        "<www.rz.uni-karlsruhe.de/∼gn97/> (2007)."
    )
    assert _author_year_like(entry)
    assert not _author_year_like(
        "Frater, G. S. (1992a). “Weldment design.” J. Struct. Engrg. Gaspar, N. (2001b). “Shear.”"
    )


def _list(lines: list[tuple[str, int, float]]) -> list[RefLine]:
    rows = [
        RefLine(
            f"Body text of the article, line {k}.",
            page=3,
            bbox=(72, 90 + 12 * k, 292, 100 + 12 * k),
            size=10.9,
            block=k,
        )
        for k in range(30)
    ]
    rows.append(
        RefLine(
            "References",
            page=3,
            bbox=(302, 634, 364, 648),
            size=14.3,
            block=30,
            heading=True,
            ref_heading=True,
            in_references=True,
        )
    )
    for k, (text, page, y) in enumerate(lines):
        x = 72 if page == 4 else 325
        rows.append(RefLine(text, page=page, bbox=(x, y, x + 200, y + 11), size=10.9, block=31 + k, in_references=True))
    return rows


# Hagenberg's article class heads every page with its section: "References" tops page 4 between entries [1] and
# [2], and the second entry's address wraps over more lines than the first entry has.
_HAGENBERG = [
    ("[1] Herbert Voß. Math mode. Version 2.47.", 3, 662),
    ("Jan. 2014. url: http://mirrors.ctan.org/", 3, 673),
    ("obsolete / info / math / voss / mathmode /", 3, 687),
    ("Mathmode.pdf (cit. on p. 1).", 3, 700),
    ("References", 4, 103),
    ("[2] Marion Post Wolcott. Natchez, Miss. Li-", 4, 143),
    ("brary of Congress Prints and Photographs", 4, 156),
    ("Division Washington, Farm Security Ad-", 4, 169),
    ("ministration/Office of War Information", 4, 182),
    ("Color Photographs. Aug. 1940. url: https:", 4, 195),
    ("/ / www . loc . gov / pictures / item /", 4, 208),
    ("2017877479/ (cit. on p. 2).", 4, 221),
]


def test_the_lists_name_atop_the_next_page_is_no_part_of_an_entry() -> None:
    entries = _detect(_list(_HAGENBERG))
    texts = [_entry_text(e) for e in entries]
    assert len(texts) == 2
    assert not texts[0].endswith("References")


def test_the_last_of_a_short_list_keeps_its_long_address_written_without_the_spaces() -> None:
    last = _entry_text(_detect(_list(_HAGENBERG))[-1])
    assert last.endswith("url: https://www.loc.gov/pictures/item/2017877479/ (cit. on p. 2).")
    first = _entry_text(_detect(_list(_HAGENBERG))[0])
    assert "http://mirrors.ctan.org/obsolete/info/math/voss/mathmode/Mathmode.pdf (cit. on p. 1)." in first


def test_names_written_given_name_first_are_no_vancouver_surname_and_initial() -> None:
    # BibTeX plain: "Richard A. Shore and Leo A. Harrington." was read as the author "Richard A." and the title
    # "Shore and Leo A. Harrington"; "Donald E. Knuth." as "Donald E." with the title "Knuth".
    two = parse_entry("Richard A. Shore and Leo A. Harrington. Definability in the degrees. Bull. Symb. Logic, 1990.")
    assert two["authors"] == ["Shore", "Harrington"] and two["title"] == "Definability in the degrees"
    one = parse_entry("Donald E. Knuth. The TeXbook. Reading, MA: Addison-Wesley, 1986.")
    assert one["title"] != "Knuth" and one["authors"] != ["Donald"]
    # Vancouver itself is read as before.
    vancouver = parse_entry("Smith JA, Jones B. Trial of drugs in mice. Lancet. 1999;3:44.")
    assert vancouver["authors"] == ["Smith", "Jones"] and vancouver["title"] == "Trial of drugs in mice"


def test_the_lists_name_alone_over_its_first_label_starts_the_list() -> None:
    # PTPTeX: "§4. References" is a section about citing (the heading the section map gives References); the list's
    # own "References", set small on page 12, was no heading, so no list was looked for under it (0 of 7).
    about = [
        RefLine(
            "§4. References",
            page=4,
            bbox=(200, 100, 300, 111),
            size=10.9,
            block=0,
            heading=True,
            ref_heading=True,
            in_references=True,
        ),
        RefLine(
            "References are cited using the \\cite command, as the manual shows.",
            page=4,
            bbox=(72, 120, 520, 131),
            size=10.9,
            block=1,
            in_references=True,
        ),
    ]
    body = [
        RefLine(
            f"Text of the appendix, line {k}.", page=12, bbox=(72, 100 + 12 * k, 520, 111 + 12 * k), size=10.9, block=2
        )
        for k in range(20)
    ]
    printed = [
        "References",
        "1) Leslie Lamport, LaTeX: A Document Preparation System (Addison-Wesley, New York,",
        "1986).",
        "2) S. Weinberg, Phys. Rev. Lett. 19 (1967), 1264.",
        "3) M. Kobayashi and T. Maskawa, Prog. Theor. Phys. 49 (1973), 652.",
    ]
    listed = [
        RefLine(text, page=12, bbox=(90, 491 + 11 * k, 500, 500 + 11 * k), size=9.0, block=3 + k)
        for k, text in enumerate(printed)
    ]
    entries = _detect(about + body + listed)
    assert [e.number for e in entries] == [1, 2, 3]
    assert _entry_text(entries[0]).endswith("New York, 1986).")
    # Without its first label right under it, a line "References" starts nothing.
    assert _detect(about + body + listed[:1] + body[:1] + listed[1:]) == []
