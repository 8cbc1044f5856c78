"""The sentence splitter (apps/documents/parsing/sentences.py, pysbd with corrections) and the answers' sentences()
built on it: whole sentences in English and Chinese, where the old regular expressions cut them (issue 15)."""

from __future__ import annotations

import pytest

from apps.documents.parsing import chunk_document
from apps.documents.parsing.blocks import Block, ParsedDocument
from apps.documents.parsing.chunking import SENTENCE_CAP
from apps.documents.parsing.passage_text import sentences
from apps.documents.parsing.sentences import is_list_item, split_sentences


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_a_closing_quote_after_a_chinese_full_stop_stays_with_its_sentence(split):
    assert split("他说：“今天下雨了。”然后走了。「这是引语。」最后一句！") == [
        "他说：“今天下雨了。”",
        "然后走了。",
        "「这是引语。」",
        "最后一句！",
    ]


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_a_quotation_of_several_sentences_is_not_cut_inside(split):
    text = "王处直报曰：“吾兄与太原同时立勋王室。修好往来，常道也。”此后两镇交好。"
    assert split(text) == ["王处直报曰：“吾兄与太原同时立勋王室。修好往来，常道也。”", "此后两镇交好。"]


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_chinese_lines_of_one_sentence_are_joined_without_a_space(split):
    assert split("此模板基于LATEX 的article 类，专为工作论文写作而\n设计。设计这个模板的初衷\n是让作者专心写作。") == [
        "此模板基于LATEX 的article 类，专为工作论文写作而设计。",
        "设计这个模板的初衷是让作者专心写作。",
    ]


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_english_abbreviations_initials_and_decimals_do_not_end_a_sentence(split):
    text = (
        "The U.S. government funded it. Ae. aegypti pupae were counted (approx. 3.5 per person). "
        "Smith et al. (2014) used Eq. (3), e.g. for mice vs. rats. Mutations encoding p. Lys27Met were found."
    )
    assert split(text) == [
        "The U.S. government funded it.",
        "Ae. aegypti pupae were counted (approx. 3.5 per person).",
        "Smith et al. (2014) used Eq. (3), e.g. for mice vs. rats.",
        "Mutations encoding p. Lys27Met were found.",
    ]


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_a_list_gives_its_lead_in_and_each_item_as_sentences(split):
    text = (
        "The MDRPM is based upon the following assumptions:\n1. Demand is known.\n2. Lead time is fixed.\n- no backlog"
    )
    assert split(text) == [
        "The MDRPM is based upon the following assumptions:",
        "1. Demand is known.",
        "2. Lead time is fixed.",
        "- no backlog",
    ]
    assert split("安全要素包括以下内容：a）安全策略；b）信息安全组织；c）资产管理。") == [
        "安全要素包括以下内容：",
        "a）安全策略；",
        "b）信息安全组织；",
        "c）资产管理。",
    ]


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_an_inline_enumeration_and_a_bracket_stay_inside_their_sentence(split):
    text = (
        "Obese 13-16-y-olds (n = 80) were assigned to 1) lifestyle education, 2) training, or 3) both. "
        "Neglected diseases such as trachoma (Box 1) [2]. The list of steps: 1. Do this. 2. Do that."
    )
    assert split(text) == [
        "Obese 13-16-y-olds (n = 80) were assigned to 1) lifestyle education, 2) training, or 3) both.",
        "Neglected diseases such as trachoma (Box 1) [2].",
        "The list of steps:",
        "1. Do this.",
        "2. Do that.",
    ]


def test_a_structured_abstracts_label_of_several_words_stays_whole():
    text = "Patients were enrolled in 2004. MAIN OUTCOME MEASURES Anxiety scores. METHODS AND FINDINGS We used data."
    assert sentences(text) == [
        "Patients were enrolled in 2004.",
        "MAIN OUTCOME MEASURES Anxiety scores.",
        "METHODS AND FINDINGS We used data.",
    ]


def test_list_items_are_recognised_in_both_languages():
    for item in (
        "1. Demand",
        "2) Lead time",
        "(3) Backlog",
        "a) 安全策略",
        "a）安全策略",
        "（一）总则",
        "一、总则",
        "① 第一",
        "• bullet",
    ):
        assert is_list_item(item), item
    for text in ("1990 was a year.", "Demand is known.", "安全策略。", "Fig. 2 shows it."):
        assert not is_list_item(text), text


def test_a_long_paragraph_is_cut_into_chunks_between_sentences_not_inside_one():
    """The chunker cuts a paragraph longer than its limit with the same splitter: never after an initial."""
    lead = ("Frogs were surveyed along the river at night in the wet season of each year. " * 10)[:-1]
    collected = "Specimens were collected by J. A. Iskandar at 285 m elevation near the village."
    text = " ".join([lead, collected, *["The survey was repeated every month for three years."] * 20])
    head = len(lead) + len(" Specimens were collected by J.")
    # A text without headings is cut at SENTENCE_CAP: the old splitter's cut fell right after "J.", before "A.".
    assert head <= SENTENCE_CAP < head + len(" A.")
    parsed = ParsedDocument(blocks=[Block(kind="paragraph", text=text)], doc_type="txt")
    chunks = [c.text for c in chunk_document(parsed)]
    assert len(chunks) >= 2
    assert any(collected in chunk for chunk in chunks)
    assert not any(chunk.endswith(("J.", "J. A.")) or chunk.startswith(("A. Iskandar", "Iskandar")) for chunk in chunks)


def test_many_threads_split_at_once_as_one_does():
    # pysbd's Segmenter keeps the text being split on the instance: shared between threads, one thread's sentences
    # were rebuilt from another's text. Each text is distinct, so the cache cannot hide a mix-up.
    from concurrent.futures import ThreadPoolExecutor

    from apps.documents.parsing import sentences as module

    texts = [
        f"Sample {i} was heated to {i} degrees. It melted after {i} minutes. 样品{i}在{i}分钟后熔化。"
        for i in range(400)
    ]
    expected = [module._split_cached.__wrapped__(t) for t in texts]
    module._split_cached.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(module._split_cached.__wrapped__, texts * 3))
    assert got == expected * 3


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_a_paragraph_break_a_pdf_put_inside_a_sentence_does_not_cut_it(split):
    # Column and page breaks come out as blank lines: the sentence goes on in lower case, or after a comma.
    english = (
        "Prokinetics shorten the GTT. To date, various prokinetics including\n\n"
        "erythromycin, mosapride and lubiprostone have been investigated."
    )
    assert split(english) == [
        "Prokinetics shorten the GTT.",
        "To date, various prokinetics including erythromycin, mosapride and lubiprostone have been investigated.",
    ]
    assert split("It acts by deterioration of spermatogenesis,\n\nAltered motility and obstruction.") == [
        "It acts by deterioration of spermatogenesis, Altered motility and obstruction."
    ]
    assert split("研究表明，\n\n该方法有效。") == ["研究表明，该方法有效。"]
    # A heading has no full stop either, but what follows it starts a sentence; so does an item, or a new one.
    assert split("4. Prokinetics\n\nProkinetics can be used.") == ["4. Prokinetics", "Prokinetics can be used."]
    assert split("The steps are\n\n1) open the valve.") == ["The steps are", "1) open the valve."]
    assert split("第一章 绪论\n\n本文研究了方法。") == ["第一章 绪论", "本文研究了方法。"]
    assert split("It rained.\n\nthen it stopped.") == ["It rained.", "then it stopped."]


@pytest.mark.parametrize("split", [split_sentences, sentences])
def test_a_full_stop_inside_a_path_or_before_a_comma_does_not_end_a_chinese_sentence(split):
    # pysbd's Chinese rules cut at every "."; no sentence starts with "/", "," or ")", and the source had no
    # space there, so the pieces join back as written.
    text = "图1 显示了插图的效果。你可以把你的图放到如下子目录下(./image/, ./img/, ./figure/, ./fig/)。下一句。"
    assert split(text) == [
        "图1 显示了插图的效果。",
        "你可以把你的图放到如下子目录下(./image/, ./img/, ./figure/, ./fig/)。",
        "下一句。",
    ]
