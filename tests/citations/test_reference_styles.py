"""Reference lists of the common styles on real files (pdf-varied): IEEE quoted titles and ditto dashes, alpha
labels, ACL/ACM author-year, APA, REVTeX two-column lists with no heading, LNCS small capitals, NIST web
references and GB/T 7714 (Chinese, mixed-language, specimen lists). And the rule that a reference whose fields
could not be read links nothing.

No database: the reading path of ingestion (parse_document, chunk_document, references_and_mentions).
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pytest

from apps.citations.models import Reference
from apps.citations.refparse.entries_fields import parse_entry
from apps.citations.refparse.entries_lines import document_lines
from apps.citations.refparse.entries_split import anchor, numbered_entries, split_midline
from apps.citations.refparse.pipeline import references_and_mentions
from apps.citations.services.linking import Candidate, match_reference, normalise
from apps.documents.parsing import chunk_document, parse_document

VARIED = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "pdf-varied").resolve()
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it


@functools.cache
def _read(name: str):
    data = (VARIED / name).read_bytes()
    parsed = parse_document(data, name)
    drafts = chunk_document(parsed)
    entries, mentions = references_and_mentions(parsed, drafts, data)
    return parsed, drafts, entries, mentions


def _entries(name: str):
    return _read(name)[2]


# ---- IEEE -----------------------------------------------------------------------------------------------------


@needs_corpus
def test_ieee_quoted_titles_are_parsed_and_the_ditto_dash_keeps_the_authors_above() -> None:
    entries = _entries("ieee_tcsvt1997_disk_storage_scalable_video.pdf")
    assert [e.number for e in entries] == list(range(1, 18))
    assert all(e.title for e in entries)
    assert entries[0].title == "Scalable video data placement on parallel disk arrays"
    assert entries[0].authors == ["Chang", "Zakhor"] and entries[0].year == 1994
    # [2] and [3] print a ditto dash (not extracted) for "E. Chang and A. Zakhor".
    assert entries[2].title == "Cost analyzes for VBR video servers"
    assert entries[2].authors == ["Chang", "Zakhor"] and entries[2].venue == "IEEE Multimedia"
    # The author biography printed under the list is not part of the last entry.
    assert entries[-1].text.endswith("pp. 158–165.")


@needs_corpus
def test_alpha_labels_are_followed_and_their_markers_link() -> None:
    _parsed, drafts, entries, mentions = _read("ieeetran_arxiv1601.03642_creativity_ml.pdf")
    labels = [e.label for e in entries]
    assert len(entries) == 31 and labels[0] == "Cop87" and labels[-1] == "ZF14"
    assert "Joh16" in labels  # sorts after "Joh15b": the year's letter does not order the labels
    by_label = {e.label: e for e in entries}
    assert by_label["Joh15b"].title == "Composing music with recurrent neural networks"
    assert by_label["Joh15b"].authors == ["Johnson"]  # "——," repeats the authors of [Joh15a]
    text = {d.chunk_index: d.text for d in drafts}
    assert mentions
    for m in mentions:
        marker = text[m.chunk_index][m.start : m.end]
        assert [entries[i].label for i in m.entry_indices] == re.findall(r"[\w+\-]+", marker)


# ---- author-year ----------------------------------------------------------------------------------------------


@needs_corpus
@pytest.mark.parametrize(("name", "count"), [("acl2020_s2orc.pdf", 55), ("arxiv2004.04906_dpr_emnlp2020_2col.pdf", 48)])
def test_acl_author_year_lists_are_split_by_hanging_indent(name: str, count: int) -> None:
    entries = _entries(name)
    assert len(entries) == count
    assert all(e.number is None for e in entries)
    assert sum(1 for e in entries if e.title) >= 0.9 * count


@needs_corpus
def test_acl_entry_fields_and_author_year_markers() -> None:
    _parsed, drafts, entries, mentions = _read("acl2020_s2orc.pdf")
    first = entries[0]
    assert first.title == "Cad: an algorithm for citation-anchors detection in research papers"
    assert first.authors == ["Ahmad", "Afzal"] and first.year == 2018
    # "Awais Athar and Simone Teufel. 2012.  Context-enhanced …": PyMuPDF cuts the justified line in two.
    athar = next(e for e in entries if e.first_author == "Athar")
    assert athar.title == "Context-enhanced citation sentiment detection"
    text = {d.chunk_index: d.text for d in drafts}
    named = [m for m in mentions if re.search(r"[A-Z]", text[m.chunk_index][m.start : m.end])]
    assert len(named) >= 40
    for m in named:
        marker = text[m.chunk_index][m.start : m.end]
        for i in m.entry_indices:
            assert entries[i].first_author in marker, (marker, entries[i].text[:60])


@needs_corpus
def test_apa_dates_with_a_month_and_elided_authors() -> None:
    entries = _entries("ieee_smc2020_reward_functions_rl_traffic.pdf")
    assert len(entries) == 35
    by_number = {e.number: e for e in entries}
    assert by_number[3].title.startswith("PressLight: Learning Max Pressure Control")  # "(2019, July)."
    assert by_number[26].title == "Human-level control through deep reinforcement learning"  # "..., & Petersen"
    assert by_number[26].year == 2015


# ---- numbered styles without a heading, small capitals, web references ---------------------------------------


@needs_corpus
def test_revtex_list_without_heading_across_two_columns() -> None:
    entries = _entries("revtex_aps_nakamoto_consensus_2col.pdf")
    assert [e.number for e in entries] == list(range(1, 38))
    assert entries[18].text.endswith("Phys. Rev. Lett. 17, 1133 (1966).")  # [19] ends in the right column
    assert entries[2].title == "The thermodynamics of computation—a review"  # not "…, Int. J. Theor. Phys."
    assert entries[2].venue == "Int. J. Theor. Phys"
    assert entries[5].title == "The End of Certainty: Time, Chaos, and the New Laws of Nature"
    assert entries[1].title == "Shelling out: The origins of money"  # the publisher before the URL is left out


@needs_corpus
def test_lncs_small_capital_authors() -> None:
    entries = _entries("lncs_aitkaci_pl_design_architecture.pdf")
    assert [e.number for e in entries] == list(range(1, 40))  # [9]'s small capitals made a block of its own
    assert entries[0].title == "The Design and Analysis of Computer Algorithms"
    assert entries[0].authors == ["AHO", "HOPCROFT", "ULLMAN"]
    assert entries[7].title == "A new computational model and its discipline of programming"  # "BAN ÂTRE, J.-P."


@needs_corpus
def test_nist_web_references_with_corporate_authors() -> None:
    entries = _entries("word_nist_sp800-223_hpc_security.pdf")
    assert len(entries) == 65
    assert entries[0].title == "What Is a GPU?" and entries[0].authors == ["INTEL"] and entries[0].year == 2024


# ---- GB/T 7714 ------------------------------------------------------------------------------------------------


@needs_corpus
def test_gbt7714_thesis_list_with_titles_authors_years_and_types() -> None:
    entries = _entries("zh_thesis_dlnu_master_template.pdf")
    assert [e.number for e in entries] == list(range(1, 12))  # not the eleven format examples of ch. 4.4.2
    assert all(e.title and e.year for e in entries)
    third = entries[2]
    assert third.authors == ["朱文杰"] and third.year == 2023 and third.venue == "中国信息技术教育"
    assert third.title == "大数据背景下的课程思政建设研究——以数字图像处理课程为例"
    assert "[J]" in third.text and "[J]" not in third.title  # the type code ends the title
    assert entries[0].title.startswith("FDG ’21 : Fractal Coordinates") and entries[0].authors == ["ANON"]


@needs_corpus
def test_gbt7714_mixed_chinese_and_english_entries() -> None:
    entries = _entries("zh_paper_elegantpaper_cn.pdf")
    assert len(entries) == 6
    assert entries[0].authors == ["LI", "CHEN", "ZENG"] and entries[0].year == 2018
    assert entries[1].title.startswith("Agency Costs, Net Worth, and Business Fluctuations")  # not "T, FUERST T S."
    last = entries[5]
    assert last.authors == ["吕捷", "王高望"] and last.year == 2015 and last.venue == "经济研究"
    assert "背离" in last.title and last.title in last.text


def test_gbt7714_entries_in_other_scripts() -> None:
    korean = parse_entry("김세훈, 외. 도서판및특서진흥업개정안연구[M]. 서울: 한국운화관팡정책연구원, 2003: 15.")
    assert korean["authors"] == ["김세훈"] and korean["title"] == "도서판및특서진흥업개정안연구"
    russian = parse_entry("ИВАНОВ И И. Название статьи[J]. Журнал, 2010, 5(2): 1-9.")
    assert russian["authors"] == ["ИВАНОВ"] and russian["title"] == "Название статьи" and russian["venue"] == "Журнал"
    japanese = parse_entry("図書館用語辞典編集委員会. 最新図書館用語大辞典[M]. 東京: 柏書房株式会社, 2004: 154.")
    assert japanese["title"] == "最新図書館用語大辞典" and japanese["year"] == 2004
    # "U.S. Department …" is one organisation: the stop after "U.S" does not end the author list.
    org = parse_entry("U.S. Department of Transportation. Guidelines for handling excavated materials[R]. 1990.")
    assert org["title"] == "Guidelines for handling excavated materials"


def test_gbt7714_list_of_a_word_thesis() -> None:
    """A Word thesis: "参考文献" heading, sixteen "[n] 作者. 题名[J]. …" paragraphs, then 致谢. Before, the entries
    were found but their titles were not ("题名[J]" never ends a sentence with ". ")."""
    import docx

    refs = [
        "余雄庆. 飞机总体多学科设计优化的现状与发展方向[J]. 南京航空航天大学学报, 2008(04): 417-426.",
        "陈登原. 国史旧闻: 第 1 卷[M]. 北京: 中华书局, 2000: 29.",
        "Deng J, Dong W, Socher R, et al. IMAGENET: A Large-Scale Hierarchical Image Database[C]//. 2010.",
        "马欢. 人类活动影响下海河流域典型区水循环变化分析[D/OL]. 北京: 清华大学, 2011: 27 [2013-10-14].",
    ] * 4
    document = docx.Document()
    document.add_heading("第一章 绪论", level=1)
    for i in range(1, 6):
        document.add_paragraph(f"正文内容，引用了文献[{i}]和[{i + 1}-{i + 3}]。" * 3)
    document.add_heading("参考文献", level=1)
    for i, ref in enumerate(refs, 1):
        document.add_paragraph(f"[{i}] {ref}")
    document.add_heading("致谢", level=1)
    document.add_paragraph("感谢导师。")
    buffer = io.BytesIO()
    document.save(buffer)
    data = buffer.getvalue()
    parsed = parse_document(data, "thesis.docx")
    entries, mentions = references_and_mentions(parsed, chunk_document(parsed), data)
    assert [e.number for e in entries] == list(range(1, 17))
    assert all(e.title and e.authors and e.year for e in entries)
    assert entries[1].title == "国史旧闻: 第 1 卷" and entries[3].title.endswith("水循环变化分析")
    assert mentions and all(m.entry_indices for m in mentions)


@needs_corpus
def test_gbt7714_specimen_lists_each_end_at_their_section_heading() -> None:
    """zh_gbt7714_2015_examples prints one short list per subsection, numbered from [1] again, under headings the
    parser does not mark: each list ends at the next numbered heading (ground_truth.json ref_lists)."""
    name = "zh_gbt7714_2015_examples.pdf"
    parsed = _read(name)[0]
    lines = split_midline(document_lines(parsed, (VARIED / name).read_bytes()))
    counts = {}
    for i, line in enumerate(lines):
        heading = next((ln.text for ln in lines[max(0, i - 3) : i] if re.match(r"^4\.\d\s", ln.text)), None)
        if anchor(line) == 1 and heading:
            counts.setdefault(heading.split()[0], len(numbered_entries(lines, i, max_jumps=0, first_within=1)))
    assert counts == {"4.1": 17, "4.2": 7, "4.3": 3, "4.4": 9, "4.5": 3, "4.6": 5}


# ---- nothing links wrongly ------------------------------------------------------------------------------------


def _reference(entry) -> Reference:
    return Reference(
        document_id=1,
        index=entry.index,
        text=entry.text,
        doi=entry.doi,
        year=entry.year,
        first_author=entry.first_author,
        authors=entry.authors,
        title=entry.title,
    )


@needs_corpus
@pytest.mark.parametrize(
    "name",
    [
        "acl2020_s2orc.pdf",
        "ieee_tcsvt1997_disk_storage_scalable_video.pdf",
        "revtex_aps_nakamoto_consensus_2col.pdf",
        "lncs_aitkaci_pl_design_architecture.pdf",
        "word_nist_sp800-223_hpc_security.pdf",
    ],
)
def test_parsed_titles_are_pieces_of_their_entry_and_link_only_their_own_document(name: str) -> None:
    """A library holding one document per entry (titled with the parsed title): every entry links to its own
    document or to nothing, never to another entry's."""
    entries = _entries(name)
    for e in entries:
        if e.title:
            assert e.title in e.text
            assert not e.text.startswith(e.title) or not e.authors, e.text[:80]  # the title is not the authors
    library = [
        Candidate(1000 + e.index, "", normalise(e.title), normalise(e.first_author), e.year) for e in entries if e.title
    ]
    for e in entries:
        linked, _method = match_reference(_reference(e), library)
        assert linked in (None, 1000 + e.index), (e.text[:80], linked)


@needs_corpus
def test_an_entry_without_a_parsed_title_links_nothing() -> None:
    """ACM's "[19] david nicholas, … 2010. researchers’ e-journal use …" (all lower case) reads no authors and no
    title: even a library document whose title is nearly that text is not linked."""
    entries = _entries("acm_chi2023_citesee_arxiv2302.07302.pdf")
    entry = next(e for e in entries if e.number == 19)
    assert entry.title == "" and entry.first_author == ""
    near = "Researchers e-journal use and information seeking behaviour patterns"  # not the printed title
    library = [Candidate(7, "", normalise(near), "nicholas", 2010)]
    assert match_reference(_reference(entry), library)[0] is None


@pytest.mark.parametrize(
    ("text", "surnames", "title"),
    [
        (  # ASME (asmeconf.bst): "Surname, Given and Surname, Given. “Title.” Journal Vol. (year)"
            "Ning, Xiang and Lovell, Mary Rose. “On the Sliding Friction Characteristics of Unidirectional Continuous "
            "FRP Deposits.” ASME Journal of Tribology Vol. 48 No. 5 (2002): pp. 2000–2008. DOI 10.1115/1.4042912.",
            ["Ning", "Lovell"],
            "On the Sliding Friction Characteristics of Unidirectional Continuous FRP Deposits",
        ),
        (
            "Smith, John, Doe, Jane and Roe, Richard. “Three Authors Wrote This Title.” Proc. IMECE (2020).",
            ["Smith", "Doe", "Roe"],
            "Three Authors Wrote This Title",
        ),
    ],
)
def test_a_quoted_title_after_surname_first_names_joined_by_and(text, surnames, title) -> None:
    """No author grammar reads "Ning, Xiang and Lovell, Mary Rose." (fresh held-out ASME template paper: 0 of 31
    titles before); the quoted title is the title, and each "Surname, Given" gives its surname."""
    entry = parse_entry(text)
    assert entry["authors"] == surnames and entry["title"] == title


def test_an_unquoted_entry_gets_a_title_only_after_an_author_list_it_reads() -> None:
    """ "Surname, Given Names." is a full author list (biblatex, asmeconf.bst); a list that trails off into
    initials no grammar reads ("Keçetepen L O., Dursun N, Effects of …") still gets no title."""
    entry = parse_entry(
        "Kirk, James Tiberius. Decline and Fall of the Romulan Empire, 7th ed. Vulcan Free Press (2288)."
    )
    assert entry["authors"] == ["Kirk"] and entry["title"] == "Decline and Fall of the Romulan Empire"
    unread = parse_entry(
        "Keçetepen L O., Dursun N, Effects of Exercise on Plasma Leptin Concentrations and Relation of Leptin to "
        "Respiratory, Cardiovascular Parameters, Sağlık Bilimleri Dergisi (Journal Of Health Sciences), "
        "2006; 15 (1) 1-7."
    )
    assert unread["title"] == ""
