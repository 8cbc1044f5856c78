"""A measurement question is answered by a quantity of what it measures (issue 15, found walking the portal).

"尤金袋鼠的寿命有多长？" was answered with the animal's weight: the sentence held a number and the subject, which
was all the "how many / how long" gate asked for. A question that names a dimension (a lifespan is a time,
"how tall" a length) now needs a number written with a unit of it; a count, a ratio or a year is no measure.
The composer runs without the embedding model, so the rule is tested on its own.
"""

from __future__ import annotations

import pytest

from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.question import can_answer, classify
from apps.citations.answers.question_measures import measure_of, measures
from apps.citations.answers.types import ComposeRequest, Evidence
from tests.citations.hit_factory import make_hit


@pytest.mark.parametrize(
    "question,measure",
    [
        ("尤金袋鼠的寿命有多长？", "time"),  # the duration noun decides before 多长
        ("刘燕卿担任申诉专员的任期是多长？", "time"),
        ("How long do tammar wallabies live?", "time"),
        ("长江有多长？", "length"),
        ("How tall is the Eiffel Tower?", "length"),
        ("How much does an adult lion weigh?", "mass"),
        ("卡塞雷斯的陆地面积是多大？", "area"),
        ("前鼻丝鳗的体长是体高的多少倍？", ""),  # a ratio
        ("河口潮汐在一个周期中一共有几个阶段？", ""),  # a count
        ("大曲车站设站于几几年？", ""),  # which year: a date
        ("水栖昆虫大约有多少种？", ""),
    ],
)
def test_the_question_names_what_it_measures(question, measure):
    assert measure_of(question) == measure


@pytest.mark.parametrize(
    "sentence,dimension,found",
    [
        ("搜索雷达，有效距离30km，可同时追踪20个目标。", "length", True),  # no space before the unit
        ("身高182CM", "length", True),
        ("最早的可以追溯到6000年前。", "time", True),  # a time back, not the year 6000
        ("该站于1935年设站。", "time", False),  # a year is when, not how long
        ("Tammar wallabies live up to 11 years.", "time", True),
        ("There are 10 more species.", "length", False),  # "m" only as a unit, not the start of "more"
    ],
)
def test_a_sentence_writes_a_quantity_of_a_dimension(sentence, dimension, found):
    assert bool(measures(sentence, dimension)) is found


@pytest.mark.parametrize(
    "question,wrong,right",
    [
        ("尤金袋鼠的寿命有多长？", "尤金袋鼠的体重约为5至10公斤。", "尤金袋鼠在野外可以活到11年。"),
        ("How long do tammar wallabies live?", "Tammar wallabies weigh 5 to 10 kg.", "Tammar wallabies live 11 years."),
        (
            "How tall is the Eiffel Tower?",
            "The Eiffel Tower was built by 300 workers.",
            "The Eiffel Tower is 330 m tall.",
        ),
    ],
)
def test_a_number_of_another_dimension_does_not_answer(question, wrong, right):
    q = classify(question)
    assert not can_answer(q, wrong)
    assert can_answer(q, right)


def test_the_composer_abstains_rather_than_answer_a_lifespan_with_a_weight():
    question = "尤金袋鼠的寿命有多长？"

    def answer(*texts: str) -> str:
        evidence = [
            Evidence(i + 1, make_hit(chunk_id=400 + i, document_id=40 + i, title="尤金袋鼠", text=t))
            for i, t in enumerate(texts)
        ]
        request = ComposeRequest(question, evidence, language="zh")
        return "".join(p for p in ExtractiveComposer(use_embeddings=False).stream(request) if isinstance(p, str))

    weight_only = "尤金袋鼠是一种小型袋鼠，分布于澳大利亚南部。尤金袋鼠的体重约为5至10公斤，体长约60厘米。"
    assert answer(weight_only) == ""  # nothing says how long it lives: no answer, not its weight
    with_lifespan = weight_only + "尤金袋鼠的寿命在野外可达11年。"
    assert "11年" in answer(with_lifespan).split("[")[0]
