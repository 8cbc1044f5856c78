"""The factoid first claim (issue 15): the causes found in the CMRC TUNE misses, each as a mechanism.

- a Chinese cue counts only from the start of a jieba word ("为什么" inside "称为 什么", "什么河" inside "为什么 河口");
- a duration ("多久") is an amount, not a date;
- a place is also what follows a locative verb or preposition ("位于 西布里奇福德", "置于 口中");
- the noun that names the asked kind ("…的地区是哪里") is no key term;
- a "how many" question's unit ("多少种") ranks the number written with it above another number in the passage;
- for a question of no factoid kind the best sentence leads, not the passage's earlier one.

The composer runs without the embedding model (use_embeddings=False), so the rules are tested on their own.
"""

from __future__ import annotations

import pytest

from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.question import classify, items
from apps.citations.answers.types import ComposeRequest, Evidence
from tests.citations.hit_factory import make_hit


@pytest.mark.parametrize(
    "question,kind",
    [
        ("这种鸟在当地被称为什么？", "other"),  # called what: 称为 / 什么, not 为什么 (why)
        ("这座塔的顶层又被称为什么？", "other"),
        ("为什么河口常有大量泥沙沉积？", "why"),  # 为什么 / 河口: not 什么 + 河 (which river)
        ("这座古城因为什么而衰落？", "why"),
        ("他把公司总部设在哪里？", "place"),  # 设在 / 哪里: the cue 哪里 still counts
        ("这个学院现有哪些专业？", "list"),  # 现有 / 哪些
        ("这场比赛一共持续了多久？", "number"),  # a duration, not a date ("时间" is a date cue)
        ("默哀的时间一般是多久？", "number"),
    ],
)
def test_chinese_cues_count_from_the_start_of_a_word(question, kind):
    assert classify(question).kind == kind


@pytest.mark.parametrize(
    "sentence,place",
    [
        ("该郡的行政总部位于西布里奇福德。", "西布里奇福德"),  # jieba tags the parts of the name as persons
        ("繁殖期时，雄鱼会将卵置于口中孵化。", "口中"),
        ("这道菜原本源自西班牙语美洲的农村。", "西班牙语美洲"),
    ],
)
def test_what_follows_a_locative_is_a_place(sentence, place):
    assert place in items(sentence, "place", "zh")


def test_a_locative_followed_by_a_date_or_a_verb_names_no_place():
    assert items("该厂成立于1990年，生产汽车零件。", "place", "zh") == set()


def test_the_noun_naming_the_asked_kind_is_no_key_term():
    # "地区" is what is asked for: the answer ("出现在秘鲁南部地区") and a sentence on another region share it alike.
    question = classify("这种古代文明出现的地区是哪里？")
    assert question.kind == "place"
    assert not any("地区" in t or t in ("的地", "区是") for t in question.key_terms)
    assert {"文明", "出现"} <= question.key_terms
    assert "location" not in " ".join(classify("Where is the location of the old mill?").key_terms)


@pytest.mark.parametrize(
    "question,unit",
    [("水栖昆虫大约有多少种？", "种"), ("这套制度分为几个等级？", "等级"), ("这座岛的面积为多少平方米？", "平方米")],
)
def test_a_how_many_question_knows_the_unit_it_counts(question, unit):
    assert classify(question).unit == unit


def _answer(question: str, evidence: list[Evidence]) -> str:
    parts = ExtractiveComposer(use_embeddings=False).stream(ComposeRequest(question, evidence, language="zh"))
    return "".join(p for p in parts if isinstance(p, str))


def _first_claim(question: str, *texts: str) -> str:
    evidence = [
        Evidence(i + 1, make_hit(chunk_id=300 + i, document_id=30 + i, title="水栖昆虫", text=t))
        for i, t in enumerate(texts)
    ]
    answer = _answer(question, evidence)
    return answer.split("[")[0]


def test_the_number_written_with_the_asked_unit_leads():
    # Both sentences hold a number and the subject; only one counts what is asked (种, not 目).
    first = _first_claim(
        "水栖昆虫大约有多少种？",
        "水栖昆虫有很多的分类群，分属11个目，基本特征是这些昆虫曾一度登陆。水栖昆虫在所有昆虫种类中不足3%，约有30000种。",
    )
    assert "30000种" in first


def test_the_best_sentence_leads_an_answer_of_no_factoid_kind():
    # "主要吃什么" has no factoid kind: the answer used to follow the passage's order and lead with its first
    # sentence, a classification that does not say what the animal eats.
    question = "这种蜥蜴主要吃什么食物？"
    assert classify(question).kind == "other"
    evidence = [
        Evidence(
            1,
            make_hit(
                chunk_id=400,
                document_id=40,
                title="沙漠蜥蜴",
                text="这种蜥蜴主要分布于北非的沙漠地区，属于有鳞目鬣蜥科。"
                "这种蜥蜴主要以甲虫与蚂蚁为食物，白天在沙丘间觅食。",
            ),
        )
    ]
    answer = _answer(question, evidence)
    assert answer.startswith("这种蜥蜴主要以甲虫与蚂蚁为食物")


def test_a_short_chinese_sentence_with_the_answer_is_a_candidate():
    # "体长可达10公分。" is nine characters and a whole sentence: it was under the length floor (12) and never
    # a candidate, so the answer led with a sentence of the passage that gives no length.
    text = "溪鱼为银汉鱼科的其中一种，分布于北美洲的溪流。体高远小于头长，最高部位在第一背鳍前方。体长可达10公分。"
    first = _first_claim("溪鱼的体长是多少？", text)
    assert "10公分" in first
