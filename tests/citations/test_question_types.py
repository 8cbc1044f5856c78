"""What a question asks for (answers/question.py): its kind and key terms in Chinese and English, the items of a
kind a sentence holds (jieba's POS tags for Chinese; numbers, dates and name runs for English), and the gate."""

from __future__ import annotations

import pytest

from apps.citations.answers.question import KINDS, can_answer, classify, holds_kind, items


@pytest.mark.parametrize(
    "question,kind",
    [
        # Chinese
        ("这次地震造成多少人死亡？", "number"),
        ("这座大桥有多长？", "number"),
        ("湖北省的人口是多少", "number"),
        ("长江大桥是哪一年建成的？", "date"),
        ("他什么时候离开了上海？", "date"),
        ("谁写了《红楼梦》？", "person"),
        ("这家餐厅的创始人是哪位？", "person"),
        ("熊猫主要生活在哪里？", "place"),
        ("这条河流经哪个国家？", "place"),
        ("哪家公司生产了这款手机？", "organisation"),
        ("该标准包括哪些安全要素？", "list"),
        ("列出申请奖学金的条件", "list"),
        ("什么是光合作用？", "definition"),
        ("为什么天空是蓝色的？", "why"),
        ("如何制作豆腐？", "how"),
        ("熊猫是否冬眠？", "yesno"),
        ("熊猫冬眠吗", "yesno"),
        ("熊猫的食物", "other"),
        # English
        ("How many people died in the flood?", "number"),
        ("What percentage of patients relapsed?", "number"),
        ("When was the bridge opened?", "date"),
        ("In what year did the war end?", "date"),
        ("When does the museum open?", "date"),
        # "when" with a modal or "to" asks for the circumstances ("if you need to …"), not a date.
        ("When should you use a downloader middleware?", "other"),
        ("When to use a cache?", "other"),
        ("Who designed the bridge?", "person"),
        ("Where do giant pandas live?", "place"),
        ("Which country hosted the games?", "place"),
        ("Which company built the dam?", "organisation"),
        ("What are the assumptions of the model?", "list"),
        ("List the requirements for a permit.", "list"),
        # An imperative "List …" after the question proper asks for a list too.
        ("The guide says the tool is … what? List the qualities it names.", "list"),
        ("What is a tardigrade?", "definition"),
        ("Why do lions roar at night?", "why"),
        ("How does vitamin D affect bone density?", "how"),
        ("Does vitamin D reduce fractures?", "yesno"),
        ("Vitamin D supplements reduce fractures in older adults.", "other"),
    ],
)
def test_the_kind_of_a_question(question, kind):
    assert kind in KINDS
    assert classify(question).kind == kind


def test_key_terms_leave_the_question_words_out():
    english = classify("How many people died in the flood of Dhaka?")
    assert {"die", "flood", "dhaka"} <= english.key_terms
    assert not {"mani", "how", "peopl"} & english.key_terms  # "people" is the unit counted, not the subject
    chinese = classify("这次地震造成多少人死亡？")
    assert {"地震", "造成", "死亡"} <= chinese.key_terms
    # no bigram of a question word, none across one ("少人", "多少")
    assert not {t for t in chinese.key_terms if set(t) & set("多少")}
    noun_phrase = classify("地震死亡人数")  # "人数" asks (a number), it is not a key term
    assert noun_phrase.kind == "number" and {"地震", "死亡"} <= noun_phrase.key_terms
    assert not {t for t in noun_phrase.key_terms if "人" in t}


def test_a_follow_up_that_points_back_keeps_the_list_and_its_subject():
    follow = classify("What are they?", ["What are the assumptions of the MDRPM?"])
    assert follow.kind == "list" and "mdrpm" in follow.key_terms
    chinese = classify("它们分别是什么？", ["安全标准包括以下哪些安全要素？"])
    assert chinese.kind == "list" and {"安全", "要素"} <= chinese.key_terms
    # a new question in the same conversation is read on its own
    assert classify("Who designed the bridge?", ["What are the assumptions of the MDRPM?"]).kind == "person"


@pytest.mark.parametrize(
    "sentence,kind,language,expected",
    [
        ("2018年3月，一辆巴士在山区坠崖，造成12人死亡。", "number", "zh", True),
        ("一辆巴士在山区坠崖，多人受伤。", "number", "zh", False),  # "一辆" is an article, not an amount
        ("2018年3月，一辆巴士在山区坠崖。", "number", "zh", False),  # a date's numerals are not an amount
        ("2018年3月，一辆巴士在山区坠崖。", "date", "zh", True),
        ("巴士在山区坠崖。", "date", "zh", False),
        ("鲁迅出生于浙江绍兴。", "person", "zh", True),
        ("这位作家出生于浙江。", "person", "zh", False),
        ("鲁迅出生于浙江绍兴。", "place", "zh", True),
        ("他出生在一个小村子里。", "place", "zh", False),
        ("这款手机由华为公司生产。", "organisation", "zh", True),
        ("这款手机由一家工厂生产。", "organisation", "zh", False),
        ("About 120 people died in the flood.", "number", "en", True),
        ("Dozens of people died in the flood.", "number", "en", False),
        ("The flood of 1998 killed many.", "number", "en", False),  # a year is a date, not an amount
        ("The bridge was opened in May 1932.", "date", "en", True),
        ("The bridge was opened to great fanfare.", "date", "en", False),
        # A time told as a distance back is a date too.
        ("Cave lions lived in Europe until about 14,000 years ago.", "date", "en", True),
        ("The layer was dated to 12 ka BP.", "date", "en", True),
        ("Cave lions lived in Europe for a long time.", "date", "en", False),
        ("The bridge was designed by John Bradfield.", "person", "en", True),
        ("The bridge was designed by a local engineer.", "person", "en", False),
        ("Giant pandas live in the mountains of Sichuan.", "place", "en", True),
        ("Giant pandas live in the mountains.", "place", "en", False),  # "Giant" starts the sentence
        ("The dam was built by Bechtel Corporation.", "organisation", "en", True),
        ("The dam was built by thousands of workers.", "organisation", "en", False),
        ("Anything at all.", "definition", "en", True),  # not a factoid kind: no type to hold
        ("The ice melts because the air is warmer.", "why", "en", True),  # why: a cause
        ("The ice melts in summer.", "why", "en", False),
        ("冰川因为气温升高而融化。", "why", "zh", True),
        ("豆腐是通过点卤使豆浆凝固制成的。", "how", "zh", True),
    ],
)
def test_a_sentence_holds_an_item_of_the_kind_or_not(sentence, kind, language, expected):
    assert holds_kind(sentence, kind, language) is expected


def test_the_named_items_are_whole_names():
    assert items("The bridge was designed by John Bradfield in 1923.", "person", "en") == {"John Bradfield"}
    assert "University of Sydney" in items("He taught at the University of Sydney.", "organisation", "en")
    assert items("鲁迅出生于浙江绍兴。", "person", "zh") == {"鲁迅"}


def test_the_gate_needs_the_kind_and_the_key_terms():
    question = classify("这次地震造成多少人死亡？")
    assert can_answer(question, "这次地震造成了86人死亡，数百人受伤。")
    assert not can_answer(question, "这次地震发生在凌晨，震中位于山区。")  # key terms but no amount
    assert not can_answer(question, "同年的一场洪水造成12人失踪。")  # an amount, but of something else
    english = classify("Who designed the Harbour Bridge?")
    assert can_answer(english, "The Harbour Bridge was designed by John Bradfield.")
    assert not can_answer(english, "The Harbour Bridge was designed to carry trains.")
    assert not can_answer(english, "John Bradfield also planned the city railway.")


def test_an_item_the_question_names_itself_does_not_answer_it():
    # the question's own year is not the amount asked for; a person named in it is not the one asked about
    question = classify("How many people died in the 2004 tsunami in Aceh?")
    assert not can_answer(question, "The 2004 tsunami in Aceh struck in December 2004 and many people died.")
    assert can_answer(question, "The 2004 tsunami in Aceh killed 170,000 people, and many more died later.")
    who = classify("Who was the teacher of Confucius?")
    assert not can_answer(who, "The teacher of Confucius is not known; Confucius never named one.")
