"""Reference lists of layouts met on the fresh held-out set (issue 16), as printed lines: an ACL list beside a
table whose last column of numbers must not become entry labels, MNRAS one-line author-year entries with even
spacing that end at a larger appendix heading, a thesis list whose last entry ends at the next chapter's heading
on the next page, and the fields of biblatex's full-name authors and Chinese names outside GB/T 7714's codes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from apps.citations.refparse.entries import _detect, _entry_text
from apps.citations.refparse.entries_fields import parse_entry
from apps.citations.refparse.entries_lines import RefLine, _merge_labels
from apps.citations.refparse.entries_split import numbered_entries
from apps.citations.refparse.entries_unnumbered import author_year_entries


def _line(text: str, x: float, y: float, *, size: float = 10.0, page: int = 1, **flags) -> RefLine:
    return RefLine(text, page=page, bbox=(x, y, x + 5.0 * len(text), y + size * 0.9), size=size, **flags)


def test_numbers_in_a_table_beside_the_list_are_not_entry_labels() -> None:
    table = SimpleNamespace(x0=76.0, y0=418.0, x1=295.0, y1=480.0)  # the left column's table
    lines = [
        _line("83", 267, 447),  # a cell of the table's last column, on the baseline of an entry's first line
        _line("Adam Meyers, Michiko Kosaka, Satoshi Sekine, Ralph", 313, 447),
        _line("12", 267, 468),
        _line("GLARFing. In Proceedings of RANLP-2001, Tzigov", 324, 468),
    ]
    merged = _merge_labels(lines, [table])
    assert [ln.text for ln in merged] == [ln.text for ln in lines]  # nothing glued across the gutter
    glued = _merge_labels([_line("12", 290, 447), _line("Adam Meyers, Michiko Kosaka. 2001. Title.", 313, 447)])
    assert [ln.text for ln in glued] == ["12. Adam Meyers, Michiko Kosaka. 2001. Title."]  # a margin label is


MNRAS = [
    "Author A. N., 2013, Journal of Improbable Astronomy, 1, 1",
    "Jones C. D., 2015, Journal of Interesting Stuff, 17, 198",
    "Smith A. B., 2014, The Example Journal, 12, 345 (Paper I)",
]


def test_one_line_author_year_entries_evenly_spaced_end_at_a_larger_heading() -> None:
    lines = [_line(text, 305, 314 + 10 * i, size=8.0, block=1, in_references=True) for i, text in enumerate(MNRAS)]
    lines.append(_line("APPENDIX A: JOURNAL ABBREVIATIONS", 305, 371, size=9.0, block=2, heading=True))
    lines.append(_line("Abbreviations for cited journals can be accessed using the commands", 305, 387, size=9.0))
    lines.append(_line("Table A1. Commands for abbreviated journal names, 2013.", 305, 420, size=8.0))
    entries = author_year_entries(lines, 0)
    assert [[ln.text for ln in e.lines] for e in entries] == [[text] for text in MNRAS]
    fields = parse_entry(MNRAS[1])
    assert fields["first_author"] == "Jones" and fields["year"] == 2015


def test_an_entry_spaced_as_its_lines_is_still_one_entry_when_its_next_line_reads_as_text() -> None:
    texts = ["Author A. N., 2013, Journal of Improbable", "Astronomy, 1, 1", "Jones C. D., 2015, J. Stuff, 17, 198"]
    lines = [_line(text, 305, 314 + 10 * i, size=8.0, block=1) for i, text in enumerate(texts)]
    entries = author_year_entries(lines, 0)
    assert [len(e.lines) for e in entries] == [2, 1]


def test_the_last_numbered_entry_ends_at_the_next_chapters_heading_on_the_next_page() -> None:
    entries_text = [f"[{n}] 作者{n}. 题名{n}[J]. 刊名, 2020, {n}: 1-9." for n in range(1, 5)]
    lines = [
        _line(text, 85, 100 + 20 * i, size=10.5, page=27, in_references=True) for i, text in enumerate(entries_text)
    ]
    lines.append(_line("附录A 补充内容", 234, 112, size=16.0, page=28, heading=True))
    lines.append(
        _line("附录是与论文内容密切相关、但编入正文又影响整篇论文编排的条理和逻辑", 109, 154, size=12.0, page=28)
    )
    lines.append(_line("图A.1 附录中的图片示例", 233, 511, size=11.0, page=28))
    entries = numbered_entries(lines, 0)
    assert [e.number for e in entries] == [1, 2, 3, 4]
    assert [ln.text for ln in entries[-1].lines] == [entries_text[-1]]


def test_biblatex_full_name_authors_and_chinese_names_without_a_type_code() -> None:
    knuth = parse_entry("Knuth, Donald Ervin. The TEXbook. Addison–Wesley, 1986.")
    assert (knuth["authors"], knuth["title"], knuth["year"]) == (["Knuth"], "The TEXbook", 1986)
    two = parse_entry("Lamport, Leslie and Donald E. Knuth. A Document Preparation System. Addison–Wesley, 1994.")
    assert two["authors"] == ["Lamport", "Knuth"] and two["title"] == "A Document Preparation System"
    chinese = parse_entry("张胜涛 & 王忆波. 方正飞腾 4.0 实用培训教程. 清华大学出版社, 2005.")
    assert chinese["authors"] == ["张胜涛", "王忆波"] and chinese["title"] == "方正飞腾 4.0 实用培训教程"
    assert chinese["year"] == 2005
    software = parse_entry("Scitor Corporation. Project scheduler[CP/DK]. Sunnyvale, Calif.: Scitor Corporation, 1983.")
    assert software["title"] == "Project scheduler" and software["year"] == 1983  # GB/T's software-on-disk code
    # A sentence that only starts like a name is not an author list: no title rather than a wrong one.
    assert parse_entry("Methods, Results and Discussion. 2019.")["title"] == ""


def test_a_heading_of_the_other_column_read_first_on_the_next_page_does_not_end_the_list() -> None:
    """acmart: page 6 is read right column first ("B ONLINE RESOURCES"), then the list goes on at [5]."""
    entry = "David Harel. 1979. First-Order Dynamic Logic. Springer-Verlag, New York."
    lines = [_line(f"[{n}] {entry}", 318, 600 + 10 * n, size=7.0, page=5) for n in range(1, 5)]
    lines.append(_line("B ONLINE RESOURCES", 318, 85, size=10.9, page=6, heading=True))
    lines += [_line(f"[{n}] {entry}", 54, 100 + 10 * n, size=7.0, page=6) for n in (5, 6)]
    assert [e.number for e in numbered_entries(lines, 0)] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("text", "authors", "title"),
    [
        (  # Elsevier numeric: initials without full stops and two-letter initials
            "C.S. Solanki, L Cornel, K.V. Nieuwenhuysen, A Ulyashin, N. Posthuma, Thin film free-standing "
            "monocrystalline Si solar cells with heterojunction emitter, Prog. Photovoltaics 13 (2005) 201–208.",
            ["Solanki", "Cornel", "Nieuwenhuysen", "Ulyashin", "Posthuma"],
            "Thin film free-standing monocrystalline Si solar cells with heterojunction emitter",
        ),
        (
            "M. Schmidt, L. Korte, Ch. Schubert, Kv. Maydell, Physical aspects of a-Si:H/c-Si hetero-junction "
            "solar cells, Thin Solid Films 515 (2007) 7475–7480.",
            ["Schmidt", "Korte", "Schubert", "Maydell"],
            "Physical aspects of a-Si:H/c-Si hetero-junction solar cells",
        ),
        (  # BMC (Vancouver): initials with diacritics and hyphens
            "Gallego JÁ, Rocon E, Hughes A-M, Pons JL. A neuroprosthesis for tremor management through the control "
            "of muscle co-contraction. J Neuroeng Rehabil. 2013;10(1):36.",
            ["Gallego", "Rocon", "Hughes", "Pons"],
            "A neuroprosthesis for tremor management through the control of muscle co-contraction",
        ),
        (  # asmeconf.bst: every author "Surname, Given", an editor's mark
            "Gibson, Tom A. and Tucker, Matthew A. The Big Book of Cellular Studies. John Wiley and Sons, New York "
            "(2008).",
            ["Gibson", "Tucker"],
            "The Big Book of Cellular Studies",
        ),
        (
            "Johnson, Howard (ed.). Title of Edited Book. John Wiley and Sons, Inc., New York, NY (1980).",
            ["Johnson"],
            "Title of Edited Book",
        ),
        (  # acmart: an editor's "(Ed.)" before the year, a full stop inside brackets in the title
            "Ian Editor (Ed.). 2007. The title of book one (1st. ed.). The name of the series one, Vol. 9. "
            "University of Chicago Press, Chicago.",
            ["Editor"],
            "The title of book one (1st. ed.)",
        ),
        ("J. Smith, A Study of things, J. Phys. 12, 33 (2001).", ["Smith"], "A Study of things"),
    ],
)
def test_author_lists_of_more_styles_and_their_titles(text: str, authors: list[str], title: str) -> None:
    fields = parse_entry(text)
    assert (fields["authors"], fields["title"]) == (authors, title)


def test_a_bibliography_in_two_sections_with_labels_that_go_on_is_one_list() -> None:
    """biblatex-caspervector: "11. 本文参考文献（…）" holds [1]-[3], "12. 其它参考文献示例（…）" goes on at [4]; a
    following section that does not name references ("13. 更新记录") ends it, whatever its numbered lines."""
    entry = "P. Lehman. The biblatex Package [M/OL]. Ver. 3.7. 2016-11-16. https://ctan.org/pkg/biblatex."
    lines = [_line("11. 本文参考文献（反向引用页码是设定backref = true 产生的）", 83, 60, size=15.0, heading=True)]
    lines += [_line(f"[{n}] {entry}", 61, 80 + 20 * n, size=9.0) for n in (1, 2, 3)]
    lines.append(_line("12. 其它参考文献示例（引自文献[3]）", 177, 170, size=15.0))
    lines += [_line(f"[{n}] {entry}", 57, 110 + 20 * n, size=9.0) for n in (4, 5)]
    lines.append(_line("13. 更新记录", 83, 240, size=15.0))
    lines += [_line(f"[{n}] {entry}", 57, 160 + 20 * n, size=9.0) for n in (6, 7)]
    assert [e.number for e in numbered_entries(lines, 1)] == [1, 2, 3, 4, 5]


def test_ditto_entries_of_an_author_year_list_and_an_index_after_it() -> None:
    """Chicago and SBL print a repeated author as a rule the text layer loses, so the entry starts ". 1999." or
    ", eds. 1987." (indented past the hanging indent); the subject index read after the list is not part of it."""
    texts = [
        (72, "Furet, François. 1995. Le passé d’une illusion. Paris: Éditions Robert Laffont."),
        (107, ". 1999. The Passing of an Illusion. Translated by Deborah Furet. Chicago: University of"),
        (95, "Chicago Press."),
        (72, "Harley, J. B., and David Woodward, eds. 1987. Cartography in Prehistoric, Ancient, and"),
        (95, "Medieval Europe and the Mediterranean. Chicago: University of Chicago Press."),
        (107, ", eds. 1994. Cartography in the Traditional East and Southeast Asian Societies."),
        (72, "appendixes, 4"),
        (72, "citations, 2"),
        (72, "footnotes, 2"),
    ]
    lines = [_line(text, x, 100 + 15 * i, size=12.0, block=i) for i, (x, text) in enumerate(texts)]
    entries = _detect([_line("References", 72, 80, size=14.0, heading=True, ref_heading=True), *lines])
    assert [_entry_text(e)[:12] for e in entries] == ["Furet, Franç", ". 1999. The ", "Harley, J. B", ", eds. 1994."]
    ditto = parse_entry(_entry_text(entries[1]), ["Furet"])
    assert ditto["authors"] == ["Furet"] and ditto["year"] == 1999


@pytest.mark.parametrize(
    ("text", "authors", "title"),
    [
        (  # GB/T 7714-2005 styles write Western names initials first
            "P. Kime and F. Charette. Biber: A backend bibliography processor for biblatex [M/OL]. Ver. 2.7. 2016.",
            ["Kime", "Charette"],
            "Biber: A backend bibliography processor for biblatex",
        ),
        (
            "P. R. Buseck, G. L. Nord Jr. and D. R. Veblen. “Subsolidus phenomena in pyroxenes” [M]. In: C. "
            "Prewitt. Pyroxenes. Washington, D.C.: Mineralogical Society of America, c1980: 117–211.",
            ["Buseck", "G. L. Nord Jr.", "Veblen"],
            "Subsolidus phenomena in pyroxenes",
        ),
        ("CARLSTROM C T, LI Q. Title of the paper[J]. Venue, 2001, 3: 4.", ["CARLSTROM", "LI"], "Title of the paper"),
        (  # BibTeX plain: full names, given name first
            "Helmut Kopka and Patrick W. Daly. A Guide to LATEX. Addison-Wesley, 1999.",
            ["Kopka", "Daly"],
            "A Guide to LATEX",
        ),
        (
            "Anil Nerode and Richard A. Shore. Logic for Applications. Springer, 1997.",
            ["Nerode", "Shore"],
            "Logic for Applications",
        ),
        ("Deep Learning. MIT Press, 2016.", [], ""),  # a title in capitals is not a name
        (
            "Brown, Colin, ed. New International Dictionary of New Testament Theology. 4 vols. Grand Rapids: "
            "Zondervan, 1975–1985.",
            ["Brown"],
            "New International Dictionary of New Testament Theology",
        ),
    ],
)
def test_names_of_gbt_2005_plain_and_notes_bibliography_styles(text: str, authors: list[str], title: str) -> None:
    fields = parse_entry(text)
    assert (fields["authors"], fields["title"]) == (authors, title)
