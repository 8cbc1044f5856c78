"""Claims are sentences (issue 15): answers.claims.non_claim_reason tells a real sentence, in English or Chinese, from
a heading, a title, a keyword line, an affiliation, a figure label, a fragment or an ellipsis cut; and the extractive
composer, which asks it, answers with neither a paper's keyword line nor its title, nor a sentence cut with ".."."""

from __future__ import annotations

import pytest

from apps.citations.answers.claims import REASONS, non_claim_reason, without_source_markers
from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.language import detect
from apps.citations.answers.types import ComposeRequest, Conflict, Evidence
from tests.citations.hit_factory import make_hit

TITLE = "The Barbary lion: extinction and survival in captivity"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # A paper's keyword line, labelled or not, in both languages.
        ("Barbary lion, Panthera leo, Extinction, Ancient DNA, Phylogeography [1]", "keywords"),
        ("Keywords: lion; extinction; ancient DNA.", "keywords"),
        ("关键词: ElegantLATEX，工作论文，模板", "keywords"),
        ("深度学习；卷积神经网络；图像识别；迁移学习", "keywords"),
        # Its front matter.
        ("Department of Zoology, University of Oxford, Oxford OX1 3PS, UK", "affiliation"),
        ("复旦大学计算机科学技术学院，上海 200433", "affiliation"),
        ("Correspondence: ross.barnett@bio.ku.dk", "affiliation"),
        ("Ross Barnett1,9*, Beth Shapiro2, Ian Barnes3", "affiliation"),
        ("Received: 12 March 2019; Accepted: 3 May 2019", "affiliation"),
        # Figure and table labels, with their captions' titles.
        ("Figure 3. Mean body mass of lions by region.", "figure label"),
        ("Table 2 Baseline characteristics of the patients", "figure label"),
        ("图3-1 系统结构", "figure label"),
        # Headings not given as the chunk's own.
        ("2.1 Study design", "heading"),
        ("Materials and Methods", "heading"),
        ("第二章 系统设计", "heading"),
        # Fragments: cut at a line end, started mid-sentence, a bracket left open, too short.
        ("建议引用名为”Document Preparation [1]", "fragment"),
        ("and the lions were moved to Rabat.", "fragment"),
        ("，因此该模板被广泛使用。", "fragment"),
        ("The patients (n = 12 were treated.", "fragment"),
        ("Yes.", "fragment"),
        # ".." anywhere, a cut marked with "…".
        ("Such flows may have considerable downstream impacts..", "ellipsis"),
        ("Developing the Model . . . . .. . . 158", "ellipsis"),
        ("We included 7841 men who responded to a health survey …", "ellipsis"),
    ],
)
def test_what_is_not_a_claim_and_why(text: str, reason: str):
    assert non_claim_reason(text) == reason


def test_the_documents_title_and_the_chunks_heading_are_not_claims():
    assert non_claim_reason("The Barbary Lion: Extinction and Survival in Captivity", title=TITLE) == "title"
    assert (
        non_claim_reason(
            "ElegantPaper: 一个优美的LATEX 工作论文模板", title="ElegantPaper：一个优美的LaTeX工作论文模板"
        )
        == "title"
    )
    assert non_claim_reason("3. Results", section="Results", heading_path=["3. Results"]) == "heading"
    assert non_claim_reason("实验结果", heading_path=["第三章 实验", "实验结果"]) == "heading"
    # A conclusion that restates the title in a sentence of its own is a claim.
    restated = "Conclusion: the Barbary lion survives in captivity after its extinction in the wild."
    assert non_claim_reason(restated, title=TITLE) is None


@pytest.mark.parametrize(
    "text",
    [
        "The Barbary lion was extinct in the wild by the 1960s [1].",
        "Figure 3 shows that lions in the north were heavier.",
        "pH values rose to 7.4 in all samples.",
        "We measured height, weight, age, and sex.",
        "DESIGN Obese 13-16-y-olds (n = 80) were assigned to 1) lifestyle education, 2) training, or 3) both.",
        "Received wisdom holds that lions are social animals.",
        "He studied at the University of Oxford, where he met his wife.",
        "The MDRPM is based upon the following assumptions:",
        "1. The model is linear.",
        "a) 安全策略",
        "- Routing and resource discovery;",
        "本文为ElegantPaper 的说明文档（中文）。",
        "图3显示了系统的结构。",
        "印控克什米尔地区一辆大巴坠入山谷，造成10人死亡。",
        "包括以下14个安全要素：",
        "1966年退休。",
        "他说：“今天下雨了。”",
    ],
)
def test_real_sentences_list_items_and_lead_ins_are_claims(text: str):
    assert non_claim_reason(text, title=TITLE, section="Results", heading_path=["Results"]) is None


def test_every_reason_is_one_of_the_documented_ones():
    samples = ["Barbary lion, Panthera leo, Extinction", "2.1 Study design", "x..", "Fig. 2", "and so", "Dept. of X, Y"]
    assert {non_claim_reason(s) for s in samples} - {None} <= set(REASONS)


def test_removing_a_sources_marker_after_an_abbreviation_leaves_one_full_stop():
    assert without_source_markers("as reported by Black et al. [12].") == "as reported by Black et al."
    assert without_source_markers("in cats, dogs, etc. (ref 3, 4).") == "in cats, dogs, etc."
    assert (
        without_source_markers("Lions live in Gir [2]. They number 600 (ref 5).")
        == "Lions live in Gir. They number 600."
    )
    assert without_source_markers("A table of contents . . . .. 15") == "A table of contents . . . .. 15"


def test_an_interval_is_not_a_sources_marker():
    # References are numbered from 1; "[0, 1]" is a range of values (a list item lost it: "scores in .").
    assert without_source_markers("Scores are normalised to [0, 1] before ranking.") == (
        "Scores are normalised to [0, 1] before ranking."
    )
    assert without_source_markers("as shown before [1, 2].") == "as shown before."


def _compose(question: str, *hits) -> str:
    evidence = [Evidence(i + 1, hit) for i, hit in enumerate(hits)]
    composer = ExtractiveComposer(use_embeddings=False)
    parts = composer.stream(ComposeRequest(question, evidence, language=detect(question)))
    return "".join(p for p in parts if not isinstance(p, Conflict))


def test_an_answer_quotes_neither_the_keyword_line_nor_the_title_nor_a_cut_sentence():
    hit = make_hit(
        chunk_id=300,
        document_id=30,
        section="Abstract",
        heading_path=["Abstract"],
        title=TITLE,
        text=(
            f"{TITLE}\n\nBarbary lion, Panthera leo, Extinction, Ancient DNA, Captivity, Phylogeography\n\n"
            "Barbary lions in captivity may have considerable value for the extinction record of Panthera leo.. "
            "The Barbary lion (Panthera leo leo) survived in captivity after its extinction in the wild in the 1960s."
        ),
    )
    answer = _compose("Did the Barbary lion (Panthera leo) survive its extinction in captivity?", hit)
    assert "survived in captivity after its extinction in the wild" in answer
    assert "Phylogeography" not in answer and ".." not in answer
    assert TITLE not in answer
