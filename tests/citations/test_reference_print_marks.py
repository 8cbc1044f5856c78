"""What the fourth fresh set showed (issue 16): raised entry labels glued to the first word ("¹R. P. Feynman",
biblatex-phys, AAPM), a review copy's line numbers in the margins and the gutter (lineno), a GB/T list grouped
under numbered sub-headings whose lines xeCJK sets in two sizes (fduthesis), 10 pt text in 9.9/10.0/10.1 pt
pieces beside a 9 pt column (biblatex-ieee), and the fields of ASME and physics entries. Real PDFs are drawn with
PyMuPDF and read by the same code as an upload."""

from __future__ import annotations

import pymupdf

from apps.citations.refparse.entries import _detect, _entry_text
from apps.citations.refparse.entries_fields import parse_entry
from apps.citations.refparse.entries_lines import RefLine
from apps.citations.refparse.pipeline import references_and_mentions
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.formats.pdf_headings import body_style
from apps.documents.parsing.formats.pdf_layout import RawBlock, RawLine
from apps.documents.parsing.formats.pdf_line_numbers import page_line_numbers

ENTRIES = [
    'R. P. Feynman, "Space-time approach to quantum electrodynamics," Phys. Rev. 76, 769 (1949).',
    'A. Einstein, B. Podolsky, and N. Rosen, "Can quantum-mechanical description of physical reality be '
    'considered complete?" Phys. Rev. 47, 777 (1935).',
    "N. D. Birrell and P. C. W. Davies, Quantum Fields in Curved Space (Cambridge University Press, 1982).",
    'E. B. Davies and L. Parns, "Trapped modes in acoustic waveguides," Q. J. Mech. Appl. Math. 51, 477 (1988).',
    'G. Booth and J. Chatt, "The reactions of carbon monoxide with tertiary phosphine complexes," J. Chem. Soc. '
    "2099 (1962).",
]


def _wrap(text: str, width: int = 80) -> list[str]:
    lines, current = [], ""
    for word in text.split():
        if current and len(current) + len(word) + 1 > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return [*lines, current]


def _paper(line_numbers: bool) -> bytes:
    """A page of text, a References heading and entries whose labels are raised and smaller ("¹R. P. …"); with
    `line_numbers`, every fifth line is numbered in the left margin (5, 10, 15, …) as lineno prints them."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 80.0
    rows: list[float] = []
    page.insert_text((72, y), "1 Introduction", fontsize=14, fontname="hebo")
    y += 24
    for _ in range(12):
        page.insert_text(
            (72, y), "The experiments below were run twice and their results agree with theory.", fontsize=10
        )
        rows.append(y)
        y += 13
    y += 14
    page.insert_text((72, y), "References", fontsize=14, fontname="hebo")
    y += 22
    for number, entry in enumerate(ENTRIES, start=1):
        for k, piece in enumerate(_wrap(entry)):
            if k == 0:
                page.insert_text((72, y - 3.5), str(number), fontsize=6.5)  # raised and smaller
                page.insert_text((72 + 3.6 * len(str(number)) + 0.5, y), piece, fontsize=10)
            else:
                page.insert_text((84, y), piece, fontsize=10)
            rows.append(y)
            y += 13
    if line_numbers:
        for k, row in enumerate(rows, start=1):
            if k % 5 == 0:
                page.insert_text((40, row), str(k), fontsize=7)
    data = doc.tobytes()
    doc.close()
    return data


def _read(data: bytes):
    parsed = parse_document(data, "paper.pdf")
    drafts = chunk_document(parsed)
    entries, _ = references_and_mentions(parsed, drafts, data)
    return parsed, drafts, entries


def test_raised_labels_glued_to_the_first_word_are_entry_labels() -> None:
    _, _, entries = _read(_paper(line_numbers=False))
    assert [e.number for e in entries] == [1, 2, 3, 4, 5]
    assert entries[0].text.startswith("R. P. Feynman") and entries[0].first_author == "Feynman"
    assert entries[3].title == "Trapped modes in acoustic waveguides"


def test_line_numbers_in_the_margin_are_neither_text_nor_labels() -> None:
    _, drafts, entries = _read(_paper(line_numbers=True))
    assert [e.number for e in entries] == [1, 2, 3, 4, 5]
    assert not any(e.text[:2].strip().isdigit() for e in entries)
    for draft in drafts:
        for number in ("5", "10", "15", "20", "25"):
            assert not draft.text.startswith(f"{number} "), draft.text[:60]
            assert f" {number} The experiments" not in draft.text


def _box(x: float, y: float, text: str) -> tuple[str, tuple[float, float, float, float]]:
    return text, (x, y, x + 5.0 * len(text), y + 9.0)


def test_a_column_of_values_inside_the_text_is_no_line_numbering() -> None:
    # A table's "Dose" column 5, 10, 15, 20 stands under the text column: the text's lines cross it.
    text_lines = [
        _box(72, 60 + 12 * k, "A line of body text that runs across the whole column, as text does.") for k in range(20)
    ]
    table = [_box(150, 340 + 12 * k, str(v)) for k, v in enumerate((5, 10, 15, 20, 25))]
    lines = text_lines + table
    assert page_line_numbers(lines, box=lambda ln: ln[1], text=lambda ln: ln[0]) == set()
    # The same numbers in the margin, left of every line, are line numbers.
    margin = [_box(40, 60 + 60 * k, str(v)) for k, v in enumerate((5, 10, 15, 20))]
    found = page_line_numbers(text_lines + margin, box=lambda ln: ln[1], text=lambda ln: ln[0])
    assert found == {id(ln) for ln in margin}


def _line(text: str, y: float, size: float = 11.6, **flags) -> RefLine:
    return RefLine(text, page=1, bbox=(119, y, 119 + 6.0 * len(text), y + size), size=size, **flags)


def _under_references(rows: list[str], heading_size: float, size: float) -> list[RefLine]:
    """A References heading and one line per row under it."""
    lines = [_line("References", 40, heading_size, heading=True, ref_heading=True, in_references=True, block=0)]
    return lines + [_line(text, 70 + 16 * k, size, in_references=True, block=k + 1) for k, text in enumerate(rows)]


def test_a_numbered_list_goes_on_under_the_bibliography_s_sub_headings_and_across_script_sizes() -> None:
    lines = [
        _line("第5 节 参考文献", 40, 16.5, heading=True, ref_heading=True, in_references=True, block=0),
        _line("5.1 图书", 70, 13.2, heading=True, ref_heading=True, in_references=True, block=1),
        _line("[1] Knuth D E. The TEXbook [M]. Boston: Addison–Wesley, 1986", 95, in_references=True, block=2),
        _line("[2] 胡伟. LATEX2e 文类和宏包学习手册[M]. 北京: 清华大学出版社, 2017", 120, in_references=True, block=3),
        _line("5.2 标准、规范", 150, 13.2, heading=True, ref_heading=True, in_references=True, block=4),
        # xeCJK: this entry's first line is mostly Chinese, set at 10.5 pt beside the list's 11.6 pt Latin.
        _line("[3] 国务院学位委员会办公室. 学位论文编写规则:", 175, 10.5, in_references=True, block=5),
        _line("GB/T 7713.1–2006 [S]. 北京: 中国标准出版社, 2007", 190, in_references=True, block=5),
        _line(
            "[4] 全国信息与文献标准化技术委员会. 信息与文献 参考文献著录规则: GB/T 7714–2015 [S]. 2015",
            215,
            in_references=True,
            block=6,
        ),
    ]
    entries = _detect(lines)
    assert [e.number for e in entries] == [1, 2, 3, 4]
    assert _entry_text(entries[2]).endswith("中国标准出版社, 2007")  # its continuation is its own, not [2]'s
    assert "GB/T 7713" not in _entry_text(entries[1])


def test_the_body_style_is_not_split_by_a_size_jitter() -> None:
    def block(size: float, chars: int) -> RawBlock:
        return RawBlock(lines=[RawLine(text="x" * chars, bbox=(0, 0, 10, 10))], max_size=size)

    # 10 pt text measured 9.9/10.0/10.1 pt (2400 characters) beside a 9 pt column (1000): the text is the body.
    blocks = [block(9.9, 800), block(10.0, 800), block(10.1, 800), block(9.0, 1000)]
    assert abs(body_style(blocks)[0] - 10.0) <= 0.1


def test_asme_and_physics_entry_fields() -> None:
    asme = parse_entry(
        "Gibson, T. A. and Tucker, M. A., 2008, “The Big Book of Cellular Studies,” John Wiley and Sons, New York."
    )
    assert asme["authors"] == ["Gibson", "Tucker"] and asme["title"] == "The Big Book of Cellular Studies"
    assert (
        parse_entry("Kern, U., 2021, “Extending LATEX’s color facilities: the xcolor package,” Version 2.13, CTAN.")[
            "title"
        ]
        == "Extending LATEX’s color facilities: the xcolor package"
    )
    suffixed = parse_entry(
        "A. J. Arduengo III, R. L. Harlow, and M. Kline, “A stable crystalline carbene”, "
        "J. Am. Chem. Soc. 113, 361 (1991)."
    )
    assert (
        suffixed["authors"] == ["Arduengo", "Harlow", "Kline"] and suffixed["title"] == "A stable crystalline carbene"
    )
    edited = parse_entry("T. Hahn, ed., International tables for crystallography, 5th ed., Vol. A (Kluwer, 2002).")
    assert edited["title"] == "International tables for crystallography"
    # Where physics styles print the kind of work instead of a title, no title is read.
    assert parse_entry("J. K. Nelson, M.S. thesis, New York University (1999).")["title"] == ""
    assert parse_entry("J. Nelson, U.S. Patent No. 5,693,000 (12 Dec. 2005).")["title"] == ""


def test_a_title_may_start_with_a_year() -> None:
    entry = (
        "程根伟(1999)。“1998 年长江洪水的成因与减灾对策”[M]。出自：许厚泽，赵其国。"
        "长江流域洪涝灾害与科技对策。北京：科学出版社：32–36."
    )
    assert parse_entry(entry)["title"] == "1998 年长江洪水的成因与减灾对策"


def test_web_discussions_with_a_quoted_title_and_a_date_read_as_entries() -> None:
    # Quantum's list: no author list, no venue words, but a quoted title and a date; a chain of five such items
    # under a References heading is a reference list.
    rows = [
        "[1] Name Surname, Quantum 123, 123456 (1916).",
        "[2] StackExchange discussion on “Biblatex: submitting to the arXiv” (2017-01-10)",
        "[3] Help article published by the arXiv on “Considerations for TeX Submissions” (2017-01-10)",
        "[4] StackExchange discussion on “How to get DOI links in bibliography” (2016-11-18)",
        "[5] StackExchange discussion on “Automatically adding DOI fields to a hand-made bibliography” (2016-11-18)",
    ]
    lines = _under_references(rows, heading_size=14.3, size=10.9)
    entries = _detect(lines)
    assert [e.number for e in entries] == [1, 2, 3, 4, 5]
    assert parse_entry(_entry_text(entries[3]))["year"] == 2016


def test_the_list_is_the_longest_under_a_references_heading_and_a_restarted_chain_is_another_list() -> None:
    # An LNCS title ending in "Literature" reads as a References heading on page 1; its affiliations, marked with
    # raised numbers, read "1. Dipartimento …", "2. Java Technology Center …". The list of page 10 starts at 1
    # again: it is its own list, not the affiliations' chain resumed at 3.
    def at(text: str, page: int, y: float, **flags) -> RefLine:
        return RefLine(text, page=page, bbox=(125, y, 125 + 5.0 * len(text), y + 9), size=9.0, **flags)

    lines = [at("Literature", 1, 165, heading=True, ref_heading=True, in_references=True, block=0)]
    lines += [
        at("1. Dipartimento di Informatica – Università degli Studi di Bari via Orabona 4", 1, 225, block=1),
        at("2. Java Technology Center - IBM SEMEA Sud Via Tridente, 42/14 - 70125 Bari", 1, 246, block=2),
    ]
    lines.append(at("1 Introduction", 1, 290, heading=True, block=3))
    lines += [
        at(f"Body text of the paper, line {k}.", 1 + k // 40, 300 + 10 * (k % 40), block=4 + k) for k in range(300)
    ]
    lines.append(at("References", 10, 148, heading=True, ref_heading=True, in_references=True, block=400))
    refs = [
        "1. R. Agrawal, and R. Srikant: “Fast Algorithms for Mining Association Rules”, In Proc. VLDB, vol. 2, "
        "pp. 487–499, 1994.",
        "2. A. R. Aronson and T. C. Rindflesch: “Query expansion using the UMLS Metathesaurus”, In Proc. AMIA, "
        "vol. 1, pp. 485–489, 1997.",
        "3. M. Berardi, M. Lapi, P. Leo: “A data mining approach to PubMed query refinement”, In Proc. DEXA, vol. 3, "
        "pp. 12–18, 2004.",
        "4. R. Srikant and R. Agrawal: “Mining generalized association rules”, In Proc. VLDB, vol. 4, "
        "pp. 407–419, 1995.",
    ]
    lines += [at(text, 10, 176 + 12 * k, in_references=True, block=401 + k) for k, text in enumerate(refs)]
    entries = _detect(lines)
    assert [e.number for e in entries] == [1, 2, 3, 4]
    assert _entry_text(entries[0]).startswith("R. Agrawal")


def test_labels_closed_by_a_parenthesis_and_a_publisher_parenthesis_after_a_book_title() -> None:
    rows = [
        "1) L. Lamport: LATEX: A Document Preparation System (Addison-Wesley, Reading, 1994) 2nd ed.",
        "2) M. Goossens, F. Mittelbach and A. Samarin: The LATEX Companion (Addison-Wesley, Reading, 1994).",
        "3) A. Diller: LATEX Line by Line (John Wiley & Sons, Chichester, 1999) 2nd ed., p. 129.",
    ]
    lines = _under_references(rows, heading_size=10.9, size=10.0)
    entries = _detect(lines)
    assert [e.number for e in entries] == [1, 2, 3]
    assert parse_entry(_entry_text(entries[2]))["title"] == "LATEX Line by Line"


def test_iop_entries_print_no_article_title_and_none_is_read() -> None:
    for entry in (
        "Cisneros A 1971 Astrophys. Space Sci. 10 87",
        "Carlip S and Vera R 1998 Phys. Rev. D 58 011345",
        "Bardeen J, Cooper L N and Schrieffer J R 1957 Phys. Rev. 108 1175",
        "Caplar R and Kulisic P 1973 Proc. Int. Conf. on Nuclear Physics (Munich) vol 1 p 517",
        "Caprio M A 2003 Ph.D. thesis Yale University",
    ):
        assert parse_entry(entry)["title"] == "", entry
    assert parse_entry("Bardeen J, Cooper L N and Schrieffer J R 1957 Phys. Rev. 108 1175")["authors"] == [
        "Bardeen",
        "Cooper",
        "Schrieffer",
    ]
    # A record's label and catalogue number after a title are no journal.
    assert parse_entry("Pink Floyd. 1970. Atom Heart Mother. Capitol CDP 7 46381 2, 1990.")["title"] == (
        "Atom Heart Mother"
    )


def test_nature_and_cmp_names_and_edited_books() -> None:
    nature = parse_entry(
        "Arduengo III, A. J., Harlow, R. L. & Kline, M. A stable crystalline carbene. J. Am. Chem. Soc. 113, "
        "361–363 (1991)."
    )
    assert nature["authors"] == ["Arduengo", "Harlow", "Kline"] and nature["title"] == "A stable crystalline carbene"
    edited = parse_entry("N-Heterocyclic Carbenes in Transition Metal Catalysis (ed Glorius, F.) (Springer, 2007).")
    assert edited["title"] == "N-Heterocyclic Carbenes in Transition Metal Catalysis"
    cmp_entry = parse_entry("Mryglod O., Kenna R., Holovatch Yu., Berche B., Scientometrics, 2013, 95, 115–127.")
    assert cmp_entry["authors"] == ["Mryglod", "Kenna", "Holovatch", "Berche"] and cmp_entry["title"] == ""
    book = parse_entry("Abramovitz M., Stegun I. A. (Eds.), Handbook of Mathematical Functions, Dover, New York, 1964.")
    assert book["authors"] == ["Abramovitz", "Stegun"] and book["title"].startswith(
        "Handbook of Mathematical Functions"
    )
    # "n.d." and an open range are no part of the title of a ditto entry.
    assert parse_entry(", ed. n.d. Wordplay (blog). New York Times.", ["Amlen"])["title"] == "Wordplay (blog)"
    assert parse_entry(", eds. 1987–. The History of Cartography. 3 vols. Chicago.", ["Harley"])["title"] == (
        "The History of Cartography"
    )


def test_an_informal_chinese_list_under_references_is_a_list_with_its_titles() -> None:
    # The CTEX FAQ's list: Chinese punctuation, names without initials, no GB/T type codes.
    rows = [
        "[1] CTEX 翻译小组。lshort 中文版3.20，2003。",
        "[2] 邓建松，彭冉冉，陈长松。LATEX 2ε 科技排版指南，科学出版社，书号：7-03-009239-2/TP.1516，2001。",
        "[3] 王磊。LATEX 2ε 插图指南，2000。",
        "[4] 张林波。关于新版CCT 的说明，2003。",
        "[5] LATEX3 Project Team. LATEX 2ε for Authors. LATEX2ε 随机文档usrguide.tex",
        "[6] Graham Williams. The TEX Catalogue. CTAN:/help/Catalogue/catalogue.html",
    ]
    lines = _under_references(rows, heading_size=14.3, size=10.0)
    entries = _detect(lines)
    assert [e.number for e in entries] == [1, 2, 3, 4, 5, 6]
    second = parse_entry(_entry_text(entries[1]))
    assert second["authors"] == ["邓建松", "彭冉冉", "陈长松"] and second["title"] == "LATEX 2ε 科技排版指南"


def test_a_year_ending_the_other_column_is_no_label_of_the_entry_beside_it() -> None:
    from apps.citations.refparse.entries_lines import _merge_labels

    year = RefLine("2013.", page=5, bbox=(275, 610, 298, 626), size=9.7)
    entry = RefLine("21. Terra, W.R., A.G. De Bianchi, A.G. Gambrini and", page=5, bbox=(315, 613, 540, 626), size=9.7)
    merged = _merge_labels([year, entry])
    assert [ln.text for ln in merged if ln.text.startswith("21.")] == [entry.text]


def test_web_pages_without_authors_are_titled_by_their_name() -> None:
    assert (
        parse_entry(
            "IBM Smarter Planet. Available online: http://www.ibm.com/smarterplanet (accessed on 7 June 2013)."
        )["title"]
        == "IBM Smarter Planet"
    )
    owned = parse_entry(
        "Pamplona City Council. Definition of Pamplona’s Smart City strategy. Available online: "
        "http://www.pamplona.es/ (accessed on 10 October 2013)."
    )
    assert owned["title"] == "Definition of Pamplona’s Smart City strategy"
    # An author list the name patterns could not follow to its end gives no title rather than names as one.
    mdpi = parse_entry(
        "Hancke, G.P.; de Carvalho e Silva, B.; Hancke, G.P., Jr. The Role of Advanced Sensing in "
        "Smart Cities. Sensors 2013, 13, 393–425."
    )
    assert not mdpi["title"].startswith("de Carvalho")


def test_an_owner_named_in_capitals_before_its_page_is_not_its_title() -> None:
    assert parse_entry("DOCKER Docker. Available at https://www.docker.com/.")["title"] == "Docker"
