"""Reference entries whose lead is no person's name list (issue 16, the eighth and ninth fresh sets' titles under 90%):
ASCE's organisation authors and title-first entries before "(year).", biblatex lists of single authors given name
first, and a title with "of" that the name grammar had read as more names. Entries as printed in those files."""

from __future__ import annotations

import pytest

from apps.citations.refparse.entries_fields import names_given_first, parse_entry
from apps.citations.refparse.entries_styles import year_after_lead

_ASCE = [
    (
        "Federal Highway Administration (FHWA) (1991). Evaluating scour at bridges. Rep., Hydr. Engrg. Circular "
        "No. 18: FHWA-IP-90-017, Washington, D.C.",
        "Evaluating scour at bridges",
        ["Federal Highway Administration (FHWA)"],
    ),
    (
        "Lotus 1-2-3 reference manual; release 2.01 (1985). Lotus Development Corp., Cambridge, Mass.",
        "Lotus 1-2-3 reference manual; release 2.01",
        [],
    ),
    (
        "Moody\u2019s municipal & government manual (1988). Moody\u2019s Investors Service, New York, N.Y.",
        "Moody\u2019s municipal & government manual",
        [],
    ),
]


@pytest.mark.parametrize(("text", "title", "authors"), _ASCE)
def test_an_organisation_or_a_title_before_the_year(text: str, title: str, authors: list[str]) -> None:
    fields = parse_entry(text)
    assert fields["title"] == title
    assert fields["authors"] == authors
    assert str(fields["year"]) in text.split(")")[-2]  # the year in brackets before the title's full stop


def test_an_organisation_whose_next_sentence_is_no_title_gives_none() -> None:
    # A periodical cited by volume and date: the number after "(1988)." is no title.
    assert parse_entry("Federal Register (1988). 33(No. 146; July 27), 10756.")["title"] == ""


def test_names_the_name_grammar_reads_keep_their_title() -> None:
    # Person names before "(year)." are read by the name grammar as before, not as a title or an organisation.
    fields = parse_entry("Jones, K. L., and Smith, A. (2001). Scour at bridge piers. J. Hydr. Engrg., 127(3), 1-9.")
    assert fields["title"] == "Scour at bridge piers"
    assert fields["authors"][0] == "Jones"


def test_a_title_with_of_after_the_names_is_no_more_names() -> None:
    # "Mayfield Handbook of Technical and Scientific Writing" had read as three more names ("of" between two
    # capitalised words, like "Cheng xiang Zhai"), closed by the year, so the URL after it was the only title left.
    text = (
        "L. C. Perelman, J. Paradis, and E. Barrett, Mayfield Handbook of Technical and Scientific Writing, "
        "Mountain View, Mayfield, 1997. http://mit.imoat.net/handbook/."
    )
    fields = parse_entry(text)
    assert fields["authors"] == ["Perelman", "Paradis", "Barrett"]
    assert fields["title"].startswith("Mayfield Handbook of Technical and Scientific Writing")
    # An organisation named alone keeps its "of" (the Chicago sample).
    chicago = (
        "University of Chicago Press. 2017. The Chicago Manual of Style. 17th ed. Chicago: University of Chicago Press."
    )
    assert parse_entry(chicago)["title"] == "The Chicago Manual of Style"


_HAGENBERG = [
    "Herbert Vo\u00df. Math mode. Version 2.47. Jan. 2014. url: http://mirrors.ctan.org/obsolete/info/math/voss/"
    "mathmode/Mathmode.pdf (cit. on p. 1).",
    "Marion Post Wolcott. Natchez, Miss. Library of Congress Prints and Photographs Division Washington, Farm "
    "Security Administration/Office of War Information Color Photographs. Aug. 1940. url: https://www.loc.gov/",
]


def test_a_list_of_single_authors_given_name_first() -> None:
    given = names_given_first(_HAGENBERG)
    assert given
    assert parse_entry(_HAGENBERG[0], given_first=given)["title"] == "Math mode"
    assert parse_entry(_HAGENBERG[1], given_first=given)["authors"] == ["Wolcott"]
    # One such entry alone, or beside an entry read another way, says nothing about the list.
    assert not names_given_first(_HAGENBERG[:1])
    assert not names_given_first([_HAGENBERG[0], "Knuth DE. Literate programming. Comput J. 1984;27:97-111."])


def test_a_title_cased_title_before_its_publisher_is_no_organisation() -> None:
    # Read as an organisation, its work would be called "MIT Press": a title is followed by its venue or publisher.
    assert year_after_lead("Deep Learning Methods (2016). MIT Press.") is None
