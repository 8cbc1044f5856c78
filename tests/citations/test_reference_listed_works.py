"""Works of an author-year list that have no "Name, 1999." shape (issue 16): Chicago's and MLA's cross-references
("Ashe, Gordon. See Creasey, John."), forthcoming and undated works, a quoted title or a bracketed author first,
works before 1600. The list's layout sets each apart; they were dropped, 17 of biblatex-chicago's 211 entries."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect, _entry_text
from apps.citations.refparse.entries_fields import parse_entry
from apps.citations.refparse.entries_lines import RefLine

_LIST = [  # (indent, text) of a hanging-indent list, as its lines come out of the parser
    (0, "Adorno, Theodor W., and Walter Benjamin. 1999. The Complete Correspondence, 1928–1940. Edited by"),
    (24, "Henri Lonitz. Cambridge, MA: Harvard University Press."),
    (0, "Ashe, Gordon. See Creasey, John."),
    (0, "Author, Margaret M. Forthcoming. “Article Title.” Journal Name of a Society for the Study of"),
    (24, "Everything."),
    (0, "Babb, Florence. 1989. Between Field and Cooking Pot: The Political Economy of Marketwomen in"),
    (24, "Peru. Rev. ed. Austin: University of Texas Press."),
    (0, "“Ghost Dancing Music.” n.d. Naraya no. 2, MP3 audio. Accessed March 2, 2015. http://www.example"),
    (24, ".org/naraya."),
    (0, "[Cook, Ebenezer?]. 1730. Sotweed Redivivus, or The Planters Looking-Glass. Annapolis."),
    (0, "Leonardo da Vinci. 1480s. Madonna of the Rocks. Oil on canvas. Louvre, Paris."),
    (0, "Stanze in lode della donna brutta. 1547. Florence."),
    (0, "Zukowsky, John, ed. 1987. Chicago Architecture, 1872–1922: Birth of a Metropolis. Munich: Prestel-"),
    (24, "Verlag in association with the Art Institute of Chicago."),
]


# Most of a list is plain author-year entries: the odd works are a few among many.
_PLAIN = [
    (indent, text)
    for name, year in [
        ("Beattie, John", 1974),
        ("Clemens, David", 2000),
        ("Dunn, Mary", 1999),
        ("Ellis, Rhian", 2008),
        ("Fogel, Robert", 1964),
        ("Garrett, Kathleen", 1995),
        ("Hlatky, Mark", 2002),
        ("James, Henry", 1909),
        ("Kessler, Aaron", 2015),
        ("Lewis, Judith", 1998),
        ("McCurry, Steve", 1984),
        ("Nabokov, Vladimir", 1955),
        ("Osborne, Lawrence", 2000),
        ("Pollan, Michael", 2007),
    ]
    for indent, text in [
        (0, f"{name}. {year}. “The Pattern of Things in England.” Past and Present, no. 62, 47–95, and a long"),
        (24, "note on the edition."),
    ]
]


def _lines(rows: list[tuple[int, str]]) -> list[RefLine]:
    out = [RefLine("References", page=7, bbox=(70, 40, 160, 56), size=14.0, block=0, heading=True, ref_heading=True)]
    for k, (indent, text) in enumerate(rows):
        x, y = 70 + indent, 70 + 14 * k
        out.append(RefLine(text, page=7, bbox=(x, y, x + 4.5 * len(text), y + 12), size=10.0, block=k + 1))
    for line in out:
        line.in_references = True
    return out


def test_works_without_an_author_year_start_stay_in_the_list() -> None:
    texts = [_entry_text(e) for e in _detect(_lines(_LIST[:-2] + _PLAIN + _LIST[-2:]))]
    assert len(texts) == 9 + 14
    assert "Ashe, Gordon. See Creasey, John." in texts
    assert texts[-17] == "Leonardo da Vinci. 1480s. Madonna of the Rocks. Oil on canvas. Louvre, Paris."
    assert texts[-16] == "Stanze in lode della donna brutta. 1547. Florence."


def test_a_line_set_apart_that_is_no_work_is_still_left_out() -> None:
    rows = [*_LIST[:2], (0, "The works below were compiled from the catalogue of the library"), *_LIST[3:]]
    texts = [_entry_text(e) for e in _detect(_lines(rows + _PLAIN))]
    assert not any(t.startswith("The works below") for t in texts)
    assert len(texts) == 8 + 14  # Ashe's cross-reference gave its place to the line


def test_an_undated_gbt_entry_stays_in_an_unlabelled_gbt_list() -> None:
    rows = [
        (0, "Knuth D E. The TEX book[M]. 15th ed. Reading, MA: Addison-Wesley Publishing Company, 1989"),
        (0, "阎真. 沧浪之水[M]. 北京: 人民文学出版社, 2001: 185-207"),
        (0, "萧钰. 出版业信息化迈入快车道[EB/OL]. http://www.creader.com/news/200112190019.htm."),
        (0, "Online Computer Library Center, Inc. History of OCLC[EB/OL]. http://www.oclc.org/about/history"),
        (20, "/default.htm."),
        (0, "薛瑞尼. ThuThesis: 清华大学学位论文模板[EB/OL]. 2017. https://github.com/xueruini/thuthesis."),
    ]
    texts = [_entry_text(e) for e in _detect(_lines(rows + _PLAIN))]
    assert texts[2] == "萧钰. 出版业信息化迈入快车道[EB/OL]. http://www.creader.com/news/200112190019.htm."
    assert texts[3].startswith("Online Computer Library Center, Inc. History of OCLC[EB/OL].")
    assert len(texts) == 5 + 14


def test_a_cross_reference_names_no_title() -> None:
    fields = parse_entry("Ashe, Gordon. See Creasey, John.")
    assert fields["title"] == ""
    assert parse_entry("Babb, Florence. 1989. Between Field and Cooking Pot. Austin: UT Press.")["title"] == (
        "Between Field and Cooking Pot"
    )


def test_a_preprint_number_is_no_title() -> None:
    for text in (
        "A. Minasyan and D. Osin, Normal Automorphisms of Relatively Hyperbolic Groups, 2008. arXiv 0809.2408.",
        "O. Roslyak and J. Birman, arXiv:cond-mat/0703650, PRB to be published (2007).",
    ):
        assert not parse_entry(text)["title"].lower().startswith("arxiv"), text
