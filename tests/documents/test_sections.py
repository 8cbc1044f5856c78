"""Section names, weights, abstracts, captions and reference lists, measured on the shared JATS paper corpus
(the publisher's XML is the ground truth) and on small synthetic documents. No Django, no database.
"""

from __future__ import annotations

import collections
import functools
import io
import json
import re
import unicodedata
from pathlib import Path
from types import SimpleNamespace

import docx
import pytest
from lxml import etree

from apps.documents.parsing import ChunkDraft, ParsedDocument, chunk_document, parse_document
from apps.documents.parsing.blocks import Block
from apps.documents.parsing.chunking import _hide_stray_references
from apps.documents.parsing.roles import ROLE_WEIGHTS
from apps.documents.parsing.sections import (
    CANONICAL_NAMES,
    DECLARATION_WEIGHT,
    canonical_section,
    inline_section,
    is_caption,
    reads_as_references,
)

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
JATS = CORPUS / "sci-pdf-jats"
PAPERS = sorted(JATS.glob("papers/*/paper.pdf"))
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it

# Per paper: chunks whose section is a recognised name. Reviews with topical sections ("2. Detection of Primary
# Hepatic Carcinoma by US") are rightly low; research articles are near 1.
MIN_RECOGNISED_SHARE = 0.3
MIN_MEAN_RECOGNISED_SHARE = 0.8
MIN_REF_SHARE = 0.9  # per paper: reference-list characters that sit in weight-0 chunks
MIN_ABSTRACT_RECALL = 0.8  # per paper: words of the XML abstract found in "Abstract" chunks
MIN_CAPTION_SHARE = 0.8  # over the corpus: numbered figure/table labels found as caption chunks


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[-\u00ad\u2010]\s+", "", text)
    return [w for w in re.findall(r"\w+", text) if len(w) >= 4]


@functools.cache
def _chunks(path: Path) -> list[ChunkDraft]:
    return chunk_document(parse_document(path.read_bytes(), path.name))


@functools.cache
def _ground_truth() -> dict:
    return json.loads((JATS / "ground_truth.json").read_text(encoding="utf-8"))


def _xml(path: Path) -> etree._Element:
    parser = etree.XMLParser(recover=True, resolve_entities=False, load_dtd=False, no_network=True)
    return etree.fromstring(path.with_name("paper.xml").read_bytes(), parser=parser)


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _share_in(words: list[str], pool: collections.Counter) -> float:
    if not words:
        return 1.0
    want = collections.Counter(words)
    return sum(min(n, pool[w]) for w, n in want.items()) / len(words)


# --- the paper corpus --------------------------------------------------------------------------


@needs_corpus
def test_chunks_get_recognised_sections() -> None:
    report = []
    for path in PAPERS:
        # Front matter (affiliations, correspondence, dates: roles.py) belongs to no section.
        chunks = [c for c in _chunks(path) if c.weight != ROLE_WEIGHTS["front_matter"]]
        share = sum(c.section_key in CANONICAL_NAMES for c in chunks) / len(chunks)
        report.append((path.parent.name, round(share, 2)))
    mean = sum(share for _, share in report) / len(report)
    print(f"\nrecognised section share per paper (mean {mean:.2f}):", report)
    assert all(share >= MIN_RECOGNISED_SHARE for _, share in report), report
    assert mean >= MIN_MEAN_RECOGNISED_SHARE


@needs_corpus
def test_xml_section_titles_are_found() -> None:
    """Every top-level body section of the XML whose title is a standard name shows up as that section."""
    missing, found = [], 0
    for path in PAPERS:
        root = _xml(path)
        body = next((el for el in root.iter() if _local(el) in ("body", "bdy")), None)
        titles = []
        for sec in body if body is not None else []:
            if _local(sec) == "sec":
                title = next((el for el in sec if _local(el) in ("title", "st")), None)
                titles.append("".join(title.itertext()) if title is not None else "")
        sections = {c.section_key for c in _chunks(path)}
        for title in titles:
            match = canonical_section(title)
            if match is None:
                continue
            if match.name in sections:
                found += 1
            else:
                missing.append((path.parent.name, title))
    print(f"\nXML section titles found as chunk sections: {found}/{found + len(missing)}; missing {missing}")
    assert found >= 40 and not missing


@needs_corpus
def test_reference_lists_are_weight_zero() -> None:
    report = []
    for path in PAPERS:
        chunks = _chunks(path)
        zero = collections.Counter(w for c in chunks if c.weight == 0.0 for w in _words(c.text))
        anywhere = collections.Counter(w for c in chunks for w in _words(c.text))
        refs = _ground_truth()[path.parent.name]["references"]
        total = inside = 0
        for ref in refs:
            # The XML spells journals differently ("N Engl J Med"): only the words the PDF has count.
            words = [w for w in _words(ref["text"]) if anywhere[w]]
            total += len(ref["text"])
            if _share_in(words, zero) >= 0.9:
                inside += len(ref["text"])
        zero_chars = sum(len(c.text) for c in chunks if c.weight == 0.0) / sum(len(c.text) for c in chunks)
        assert zero_chars < 0.6, (path.parent.name, zero_chars)  # the body itself is not weight 0
        report.append((path.parent.name, len(refs), round(inside / total, 3), round(zero_chars, 2)))
        for c in chunks:
            if c.section_key == "References":
                assert c.weight == 0.0 and c.para_start is None and c.para_end is None
                assert c.rects and c.page  # the citation chain still needs to point at the list
    print("\nreference-list characters in weight-0 chunks (paper, refs, share, weight-0 share of text):", report)
    assert all(share >= MIN_REF_SHARE for _, _, share, _ in report), report


@needs_corpus
def test_abstracts_are_found_and_weighted() -> None:
    report = []
    for path in PAPERS:
        if path.parent.name == "f1000research-3-305":
            continue  # its first pages have no usable text layer (OCR); the abstract is on page 1
        chunks = _chunks(path)
        abstract = [c for c in chunks if c.section_key == "Abstract"]
        # Front matter inside it (F1000's "Corresponding author:" panel) keeps its low weight: roles.py.
        assert abstract and all(c.weight in (1.05, ROLE_WEIGHTS["front_matter"]) for c in abstract), path.parent.name
        assert sum(c.weight == 1.05 for c in abstract) > len(abstract) / 2, path.parent.name
        root = _xml(path)
        xml_abs = next(el for el in root.iter() if _local(el) in ("abstract", "abs"))
        xml_text = " ".join(xml_abs.itertext())
        pool = collections.Counter(w for c in abstract for w in _words(c.text))
        # recall: the XML abstract is in the Abstract chunks; size: and not much else is (F1000 is 2.5: its
        # front matter between the abstract and "Grant information:" has no section name of its own)
        size = sum(len(c.text) for c in abstract) / len(re.sub(r"\s+", " ", xml_text))
        report.append((path.parent.name, round(_share_in(_words(xml_text), pool), 2), round(size, 2)))
    print("\nXML abstract words found in Abstract chunks (paper, recall, size vs XML):", report)
    assert all(recall >= MIN_ABSTRACT_RECALL and size <= 3.0 for _, recall, size in report), report


@needs_corpus
def test_figure_and_table_captions_are_caption_chunks() -> None:
    expected = found = 0
    missing = []
    for path in PAPERS:
        chunks = _chunks(path)
        captions = {_caption_key(c.text) for c in chunks if c.chunk_type == "caption"}
        body_keys = {_caption_key(c.text) for c in chunks if c.chunk_type == "text"}
        labels = {_caption_key(lbl) for lbl in re.findall(r"<label>([^<]+)</label>", _xml_text(path))}
        labels = {k for k in labels if k and k[0] in ("figure", "table")}
        for key in sorted(labels):
            expected += 1
            if key in captions:
                found += 1
            else:
                missing.append((path.parent.name, key, key in body_keys))
    share = found / expected
    print(f"\nXML figure/table labels found as caption chunks: {found}/{expected} = {share:.0%}; missing {missing}")
    assert share >= MIN_CAPTION_SHARE


def _xml_text(path: Path) -> str:
    return path.with_name("paper.xml").read_text(encoding="utf-8")


def _caption_key(text: str) -> tuple[str, str] | None:
    m = re.match(r"\s*(Fig\.|Figure|Table)\s*(\d+)", text, re.IGNORECASE)
    if not m:
        return None
    return ("table" if m.group(1).lower() == "table" else "figure", m.group(2))


@needs_corpus
def test_known_papers_in_detail() -> None:
    chunks = _chunks(JATS / "papers/hindawi-PMC4706941/paper.pdf")  # no outline: headings from type style
    by_section = collections.defaultdict(list)
    for c in chunks:
        by_section[c.section_key].append(c)
    assert {"Abstract", "Introduction", "Conclusions", "Competing interests", "Acknowledgements"} <= set(by_section)
    assert by_section["Abstract"][0].text.startswith("Primary hepatic carcinoma")  # promoted, not labelled
    assert all(c.weight == 0.9 for s in ("Competing interests", "Acknowledgements") for c in by_section[s])
    assert any(c.heading_path == ("2. Detection of Primary Hepatic Carcinoma by US",) for c in chunks)
    plos = _chunks(JATS / "papers/plosone-0115884/paper.pdf")  # generic outline ("Section_1")
    etymology = next(c for c in plos if c.text.startswith("Etymology"))
    assert etymology.section_key == "Results" and etymology.heading_path[-1] == "Etymology"
    methods = [c for c in plos if c.section_key == "Methods"]
    assert methods and all(c.weight == 1.0 for c in methods)
    bmc = _chunks(JATS / "papers/bmc-evolbiol-14-70/paper.pdf")
    dna = next(c for c in bmc if c.heading_path == ("Methods", "DNA extraction and amplification"))
    assert dna.section_key == "Methods" and dna.weight == 1.0


# --- names, run-in headings, captions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("2. Methods", "Methods"),
        ("III. RESULTS", "Results"),
        ("2.1 Materials and Methods", "Methods"),
        ("Materials & methods:", "Methods"),
        ("Background", "Introduction"),
        ("Conclusion", "Conclusions"),
        ("Acknowledgments", "Acknowledgements"),
        ("Bibliography", "References"),
        ("Appendix B: Questionnaire", "Appendix"),
        ("Conflict of Interests", "Competing interests"),
        ("Authors' contributions", "Author contributions"),
        ("Supplementary Material", "Supplementary material"),
        ("一、引言", "Introduction"),
        ("（二）材料与方法", "Methods"),
        ("三、结果", "Results"),
        ("第四章 讨论", "Discussion"),
        ("参考文献", "References"),
        ("致  谢", "Acknowledgements"),
        ("附录A", "Appendix"),
        ("摘要", "Abstract"),
        ("Study area", None),
        ("Methods of payment in rural markets", None),
    ],
)
def test_canonical_section_names(text: str, name: str | None) -> None:
    match = canonical_section(text)
    assert (match.name if match else None) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Methods: We recruited 120 patients from three clinics.", "Methods"),
        ("Competing interests The authors declare that they have no competing interests.", "Competing interests"),
        ("摘要：本文研究了城市化对区域气候的影响，并提出了新的方法。", "Abstract"),
        ("关键词：城市化；气候；遥感影像分析方法", "Keywords"),
        ("Results of the trial were mixed across all the sites we visited.", None),
        ("Reference 5 describes the same method in more detail than we can.", None),
        ("方法学研究表明，这种设计在多中心试验中是可行的。", None),
    ],
)
def test_inline_headings(text: str, name: str | None) -> None:
    match = inline_section(text)
    assert (match.name if match else None) == name


@pytest.mark.parametrize(
    ("text", "caption"),
    [
        ("Figure 1. Map of the study area.", True),
        ("Fig. 2 Tadpoles of the new species", True),
        ("Table 3 Baseline characteristics", True),
        ("TABLE 1: Definitions", True),
        ("图1 研究区域示意图", True),
        ("表 2-1 样本基本特征", True),
        ("Table 1 shows the baseline characteristics of the sample.", False),
        ("Figures are drawn to scale.", False),
    ],
)
def test_caption_detection(text: str, caption: bool) -> None:
    assert is_caption(text) is caption


# --- synthetic documents -----------------------------------------------------------------------

CHINESE_MD = """# 城市化对区域气候的影响

摘要：本文利用二十年的气象观测资料，分析了城市化进程对区域气温和降水的影响。结果表明城市热岛效应显著增强。

关键词：城市化；气候变化

## 一、引言

城市化是当今世界最重要的社会经济现象之一。

## 二、材料与方法

### （一）数据来源

本研究使用了国家气象站的观测数据。

## 三、结果

图1 研究区域示意图

城市站点的年平均气温上升了1.2摄氏度。

## 四、讨论

热岛效应与城市规模密切相关。

## 致谢

感谢国家气象信息中心提供数据。

## 参考文献

[1] 张三. 城市气候学. 北京: 科学出版社, 2010.

[2] 李四. 城市热岛研究进展. 地理学报, 2015.
"""


def test_chinese_sections_in_markdown() -> None:
    chunks = chunk_document(parse_document(CHINESE_MD.encode(), "paper.md"))
    got = [(c.section_key, c.weight, c.chunk_type) for c in chunks]
    assert got == [
        ("Abstract", 1.05, "text"),  # the title heading travels with the first text under it
        ("Keywords", 1.0, "text"),
        ("Introduction", 1.0, "text"),
        ("Methods", 1.0, "text"),  # "（一）数据来源" is a sub-heading of Methods
        ("Results", 1.0, "caption"),
        ("Results", 1.0, "text"),
        ("Discussion", 1.0, "text"),
        ("Acknowledgements", 0.9, "text"),
        ("References", 0.0, "text"),
    ]
    # shown as the document prints them: never an English name for a Chinese heading
    assert [c.section for c in chunks] == [
        "摘要", "关键词", "一、引言", "二、材料与方法", "三、结果", "三、结果", "四、讨论", "致谢", "参考文献",
    ]  # fmt: skip
    assert chunks[0].text.startswith("城市化对区域气候的影响\n\n摘要：")
    methods = chunks[3]
    assert methods.heading_path == ("城市化对区域气候的影响", "二、材料与方法", "（一）数据来源")
    refs = chunks[-1]
    assert refs.para_start is None and (refs.line_start, refs.line_end) == (31, 35)  # located, not numbered


def test_chinese_sections_in_docx() -> None:
    document = docx.Document()
    document.add_heading("基于遥感的湿地变化研究", level=0)
    document.add_paragraph("摘要：本文基于多期遥感影像，分析了近三十年来湿地面积的变化及其驱动因素，并提出保护建议。")
    document.add_heading("1 引言", level=1)
    document.add_paragraph("湿地是重要的生态系统。")
    document.add_heading("2 研究方法", level=1)
    document.add_paragraph("采用监督分类方法提取湿地信息。")
    document.add_heading("参考文献", level=1)
    document.add_paragraph("[1] 王五. 湿地遥感. 2018.")
    out = io.BytesIO()
    document.save(out)
    chunks = chunk_document(parse_document(out.getvalue(), "wetland.docx"))
    assert [(c.section_key, c.weight) for c in chunks] == [
        ("Abstract", 1.05),
        ("Introduction", 1.0),
        ("Methods", 1.0),
        ("References", 0.0),
    ]
    assert chunks[0].heading_path == ("基于遥感的湿地变化研究",)
    assert chunks[-1].para_ids and chunks[-1].para_start is None


def _doc(*blocks: tuple[str, str], doc_type: str = "docx") -> ParsedDocument:
    out, path = [], ()
    for i, (kind, text) in enumerate(blocks):
        if kind == "heading":
            path = (text,)
        out.append(Block(kind, text, path, i, para_id=f"p{i}"))
    return ParsedDocument(blocks=out, doc_type=doc_type)


LONG = "We measured the outcome in every participant at every visit over two years. " * 8  # ~600 chars


def test_abstract_is_promoted_when_unlabelled() -> None:
    chunks = chunk_document(
        _doc(
            ("paragraph", "A Study of Things"),
            ("paragraph", "Jane Roe, John Doe"),
            ("paragraph", LONG),
            ("paragraph", "1. Introduction"),  # a section name on its own line: a heading in all but style
            ("paragraph", "Things matter."),
        )
    )
    assert [(c.section_key, c.weight) for c in chunks] == [("", 1.0), ("Abstract", 1.05), ("Introduction", 1.0)]
    assert chunks[2].text.startswith("1. Introduction\n\nThings")


def test_structured_abstract_keeps_its_subheads() -> None:
    chunks = chunk_document(
        _doc(
            ("heading", "Abstract"),
            ("paragraph", "Background: Low back pain is common and costly for health systems everywhere."),
            ("paragraph", "Methods: We will run a three-round Delphi study with an expert panel."),
            ("paragraph", "Keywords: low back pain, core outcome set"),
            ("heading", "Background"),
            ("paragraph", "Low back pain is the leading global contributor to years lived with disability."),
            ("heading", "Methods"),
            ("paragraph", "Panel members were selected by the steering committee."),
        )
    )
    assert [(c.section_key, c.weight) for c in chunks] == [
        ("Abstract", 1.05),
        ("Keywords", 1.0),
        ("Introduction", 1.0),
        ("Methods", 1.0),
    ]


def test_run_in_back_matter_and_references_numbering() -> None:
    chunks = chunk_document(
        _doc(
            ("heading", "Discussion"),
            ("paragraph", "The effect was large."),
            ("paragraph", "Funding: This work was funded by the Research Council (grant 123)."),
            ("paragraph", "References"),
            ("paragraph", "1. Smith J. A paper. J Stud. 2001;1:1-2."),
            ("paragraph", "2. Doe J. Another paper. J Stud. 2002;2:3-4."),
            ("heading", "Appendix A: Questionnaire"),
            ("paragraph", "Question one asks about things."),
        )
    )
    assert [(c.section_key, c.weight, c.para_start, c.para_end) for c in chunks] == [
        ("Discussion", 1.0, 0, 1),
        ("Funding", 0.9, 2, 2),
        ("References", 0.0, None, None),
        ("Appendix", 1.0, 3, 4),  # numbering goes on after the reference list as if it were not there
    ]
    assert chunks[2].para_ids == ["p3", "p4", "p5"]


def test_no_headings_means_small_sentence_chunks() -> None:
    text = "This is one plain sentence about the weather today. " * 60  # ~3,100 characters, no structure
    chunks = chunk_document(parse_document(f"{text}\n\n{text}".encode(), "notes.txt"))
    assert len(chunks) >= 8
    assert all(len(c.text) <= 800 and c.text.endswith(".") for c in chunks)
    assert {c.section for c in chunks} == {""} and {c.weight for c in chunks} == {1.0}


def test_declarations_rank_low_and_stray_reference_entries_under_them_not_at_all() -> None:
    # F1000's two columns put the rest of the reference list under "Acknowledgements": from the first chunk that
    # reads as entries on, that section is weight 0; the declarations themselves stay findable ("Who funded …?").
    acknowledgement = "Acknowledgements\n\nWe are grateful to the many folks who helped the longline program."
    entries = (
        "Carey AF, Wang G, Su CY, et al.: Odorant reception in the malaria mosquito. Nature. 2010; 464(7285): "
        "66-71.\n\nPelletier J, Hughes DT, Luetje CW, et al.: An odorant receptor. PLoS One. 2010; 5(4): e10090."
    )
    assert reads_as_references(entries) and not reads_as_references(acknowledgement)
    drafts = [
        SimpleNamespace(section_key="Funding", weight=DECLARATION_WEIGHT, text="This work was funded by NOAA."),
        SimpleNamespace(section_key="Acknowledgements", weight=DECLARATION_WEIGHT, text=acknowledgement),
        SimpleNamespace(section_key="Acknowledgements", weight=DECLARATION_WEIGHT, text=entries),
        SimpleNamespace(section_key="Acknowledgements", weight=DECLARATION_WEIGHT, text="the estuarine waters. 2008."),
        SimpleNamespace(section_key="Discussion", weight=1.0, text=entries),
    ]
    _hide_stray_references(drafts)
    assert [d.weight for d in drafts] == [DECLARATION_WEIGHT, DECLARATION_WEIGHT, 0.0, 0.0, 1.0]


def test_a_section_name_with_a_remark_in_brackets_is_still_the_section() -> None:
    assert canonical_section("11. 本文参考文献（反向引用页码是设定backref = true 产生的）").name == "References"
    assert canonical_section("References (continued)").name == "References"
    assert canonical_section("主要参考文献").name == "References"
    assert canonical_section("12. 其它参考文献示例（引自文献[3]）") is None  # examples, not the list's name
    assert canonical_section("Results of the (long) survey") is None
