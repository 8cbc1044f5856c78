"""The fifth fresh set's families (issue 16): TeX Type 3 fonts without a Unicode map (strucchange: "Signi\\x1ccance",
"1383\\x151414"), justified lines cut in pieces the parser read apart, an author-year list followed by an appendix
on the next page, a thesis's publication list numbered from 1 again after its references, DOIs set in a
typewriter size of their own, and unnumbered sections in the numbered headings' style (JSS "Computational
details")."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect, _entry_text
from apps.citations.refparse.entries_lines import RefLine, _join_fragments
from apps.citations.refparse.entries_unnumbered import author_year_entries
from apps.documents.parsing.textutil import clean_inline, decode_tex_codes


def test_control_codes_of_tex_fonts_are_read_in_their_encoding() -> None:
    # T1 (EC fonts): fi/fl/ffi at 0x1C-0x1E, the en dash at 0x15.
    assert clean_inline("Signi\x1ccance of \x1ductuation tests, 62:1383\x151414") == (
        "Significance of fluctuation tests, 62:1383–1414"
    )
    assert decode_tex_codes("coe\x1ecients") == "coefficients"
    # OT1 (Computer Modern): ff/fi/fl at 0x0B-0x0D.
    assert decode_tex_codes("e\x0bect of \x0cnite \x0dows") == "effect of finite flows"
    assert decode_tex_codes("plain text") == "plain text"


def _at(text: str, x: float, y: float, *, block: int, page: int = 15, size: float = 10.0, **flags) -> RefLine:
    return RefLine(text, page=page, bbox=(x, y, x + 4.6 * len(text), y + 10), size=size, block=block, **flags)


def test_pieces_of_a_justified_line_read_apart_are_one_line_again() -> None:
    def piece(text: str, x0: float, x1: float, y: float, block: int) -> RefLine:
        return RefLine(text, page=15, bbox=(x0, y, x1, y + 10), size=10.0, block=block)

    lines = [  # the parser's order, as strucchange's Type 3 text comes out
        piece("Econometric", 459, 513, 457, 435),
        piece("C.-M. Kuan and K. Hornik.", 90, 216, 457, 436),
        piece("Reviews, 14:135–161, 1995.", 100, 217, 469, 436),
        piece("The generalized fluctuation test: A unifying view.", 224, 450, 457, 437),
    ]
    joined = sorted(ln.text for ln in _join_fragments(lines))
    assert joined == [
        "C.-M. Kuan and K. Hornik. The generalized fluctuation test: A unifying view. Econometric",
        "Reviews, 14:135–161, 1995.",
    ]


def test_an_author_year_list_ends_at_the_appendix_heading_of_the_next_page() -> None:
    rows = [
        (90, "A. Zeileis. p values and alternative boundaries for CUSUM tests. Working Paper 78,"),
        (100, "SFB Adaptive Information Systems, 2000."),
        (90, "A. Zeileis and K. Hornik. Generalized M-fluctuation tests for parameter instability."),
        (100, "Statistica Neerlandica, 61(4):488–508, 2007."),
        (90, "A. Zeileis, A. Shah, and I. Patnaik. Testing, monitoring, and dating structural changes"),
        (100, "in exchange rate regimes. Computational Statistics & Data Analysis, 54:1696–1706, 2010."),
    ]
    lines = [_at(text, x, 100 + 12 * k, block=k, in_references=True) for k, (x, text) in enumerate(rows)]
    lines.append(_at("A Implementation details for p values", 90, 100, block=10, page=17, size=14.3, heading=True))
    lines += [
        _at(
            "An important and useful tool concerning significance tests are p values, especially",
            90,
            130,
            block=11,
            page=17,
        ),
        _at(
            "The p values for the supF test are approximated based on Hansen (1997), who also",
            90,
            145,
            block=12,
            page=17,
        ),
    ]
    entries = author_year_entries(lines, 0)
    assert [_entry_text(e)[:10] for e in entries] == ["A. Zeileis"] * 3


def test_a_list_numbered_from_1_again_ends_the_references_it_follows() -> None:
    rows = [
        (85, "[1] 王重阳, 黄药师, 欧阳峰, 等. 武林高手从入门到精通[C] // 第N 次华山论剑. 2006."),
        (85, "[2] 贾宝玉, 林黛玉, 薛宝钗, 等. 论刘姥姥食量大如牛之现实意义[J]. 红楼梦杂谈, 1800, 224: 9-12."),
        (85, "[3] Chu Y. Hi!Thesis!, Harbin Institute of Technology[J]. Github, 2017, 001(0001): 000-999."),
        (85, "完整的附录内容，包含章节，公式，表格等。"),
        (85, "[1] XXX, XXX. Static Oxidation Model of Al-Mg/C Dissipation[J]. Rare Metal, 2010, 39: 520-524."),
        (85, "[4] XXX, XXX. 硬脆光学晶体材料超精密切削理论研究综述[J]. 机械工程学报, 2003, 39(8): 15-22."),
        (85, "[5] XXX, XXX. 基于遗传算法的超精密切削加工表面粗糙度预测模型[J]. 2005."),
    ]
    lines = [_at("参考文献", 200, 60, block=0, size=16, heading=True, ref_heading=True, in_references=True)]
    lines += [_at(text, x, 100 + 20 * k, block=k + 1, in_references=k < 4) for k, (x, text) in enumerate(rows)]
    assert [e.number for e in _detect(lines)] == [1, 2, 3]


def test_a_doi_in_a_typewriter_size_and_a_piece_on_its_baseline_stay_in_their_entry() -> None:
    rows = [
        (315, 90, 7.1, "Eddelbuettel D, Balamuta JJ (2018). “Extending R with C++: A Brief"),
        (324, 100, 8.0, "Introduction to Rcpp.” The American Statistician, 72(1). doi:"),
        (324, 110, 8.0, "10.1080/00031305.2017.1375990."),
        (466, 110, 7.1, "URL https://doi.org/10.1080/"),
        (324, 120, 7.0, "00031305.2017.1375990."),
        (315, 130, 7.1, "Eddelbuettel D, François R (2011). “Rcpp: Seamless R and C++ Integration.”"),
        (324, 140, 7.1, "Journal of Statistical Software, 40(8), 1–18."),
        (315, 150, 7.1, "Efron B (1979). “Bootstrap Methods: Another Look at the Jackknife.” The Annals"),
        (324, 160, 7.0, "of Statistics, 7(1), 1–26. URL https://www.jstor.org/stable/2958830."),
    ]
    lines = [
        RefLine(text, page=8, bbox=(x, y, x + 3.6 * len(text), y + 7), size=size, block=k, in_references=True)
        for k, (x, y, size, text) in enumerate(rows)
    ]
    entries = author_year_entries(lines, 0)
    texts = [_entry_text(e) for e in entries]
    assert len(texts) == 3, texts
    assert "URL https://doi.org/10.1080/" in texts[0] and "10.1080/00031305.2017.1375990." in texts[0]
