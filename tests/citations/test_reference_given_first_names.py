"""One author written given name first, in a list that writes every name that way (issue 16, the sixth fresh set's
Chinese LaTeX manual: titles 8 of 22). "Donald E. Knuth. The TeXbook." alone reads both ways (Vancouver's
"Knuth DE. The TeXbook." has the same shape), so no title was parsed; the list's other entries, with two or more
names given name first, say how to read it."""

from __future__ import annotations

from apps.citations.refparse.entries_fields import names_given_first, parse_entry

_LSHORT = [
    "Leslie Lamport. LATEX: A Document Preparation System, 2nd edition. Addison-Wesley, Reading, Massachusetts, 1994.",
    "Frank Mittelbach, Michel Goossens, Johannes Braams. The LATEX Companion, 2nd edition. Addison-Wesley, 2004.",
    "Michel Goossens, Sebastian Rahtz and Frank Mittelbach. The LATEX Graphics Companion. Addison-Wesley, 1997.",
    "Donald E. Knuth. The TEXbook, Volume A of Computers and Typesetting. Addison-Wesley, 1984.",
    "Scott Pakin. The Comprehensive LATEX Symbol List. CTAN://info/symbols/comprehensive/symbols-a4.pdf",
    "Paul Abrahams, Kathryn A. Hargreaves, Karl Berry. TEX for the impatient. Addison-Wesley, 1990.",
]
_VANCOUVER = [
    "Smith J, Jones K, Brown A. Cancer screening in adults. Lancet. 2001;357:1234-8.",
    "Knuth DE. Literate programming. Comput J. 1984;27:97-111.",
    "Lee H, Park S. Sleep and memory. Nature. 2010;463:12-4.",
    "Miller G. The magical number seven. Psychol Rev. 1956;63:81-97.",
]


def test_a_list_of_names_given_name_first_is_told_from_a_list_of_surnames_first() -> None:
    assert names_given_first(_LSHORT)
    assert not names_given_first(_VANCOUVER)
    assert not names_given_first(_LSHORT[:1] + _VANCOUVER)  # one entry says nothing


def test_one_author_given_name_first_gets_the_title_when_the_list_says_so() -> None:
    for text, title in (
        (_LSHORT[0], "LATEX: A Document Preparation System, 2nd edition"),
        (_LSHORT[3], "The TEXbook, Volume A of Computers and Typesetting"),
        (_LSHORT[4], "The Comprehensive LATEX Symbol List"),
    ):
        assert parse_entry(text, given_first=True)["title"] == title
        assert parse_entry(text)["title"] != title  # alone, the entry reads both ways: no title rather than a guess


def test_a_vancouver_list_reads_as_before() -> None:
    given = names_given_first(_VANCOUVER)
    assert parse_entry(_VANCOUVER[1], given_first=given)["title"] == "Literate programming"
    assert parse_entry(_VANCOUVER[3], given_first=given)["title"] == "The magical number seven"
