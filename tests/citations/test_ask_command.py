"""`manage.py ask` as a person reads it (issue 15): an answer lists each claim with the quote of each source it
cites, its own even when two claims cite one passage; a question the documents are on the topic of but do not
answer says so and lists the passages on the topic with their title, place and quote. In English and Chinese,
through the real answer service over a library read by the same parse, chunking and model as ingest."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.utils import translation

from apps.citations.answers.language import interface_language, phrase
from apps.citations.models import Message
from apps.documents.locators import Locator, locator_label
from apps.documents.services.bulk import TextItem, add_texts

pytestmark = pytest.mark.django_db

GIR = "The Asiatic lion survives only in the Gir forest of Gujarat in India."
GREW = "Its population grew to about 600 animals by 2017 after decades of protection."
FOOD = "大熊猫以竹子为食，每天要吃十几公斤竹子。"
DOCUMENTS = [
    ("lions.txt", "Asiatic lions", f"{GIR} {GREW} Lions once ranged from Greece to eastern India."),
    (
        "panda.txt",
        "大熊猫",
        f"大熊猫主要生活在四川、陕西和甘肃的山区竹林中。{FOOD}2016年，大熊猫的保护级别由濒危降为易危。",
    ),
]


@pytest.fixture
def library(collection, personas, embedder):
    return add_texts(collection, [TextItem(*d) for d in DOCUMENTS], embedder)


def _ask(question: str) -> tuple[str, dict]:
    """What the command prints, and the answer it stored (the very result it printed)."""
    out = io.StringIO()
    call_command("ask", question, "--collection", "lab", "--depth", "quick", "--user", "vic", stdout=out)
    return out.getvalue(), Message.objects.latest("id").result


def _claim_block(text: str, claim: str) -> list[str]:
    """The printed lines of one claim: its line and the quote lines under it."""
    lines = text.splitlines()
    start = lines.index(f"- {claim}")
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("    ["):
            break
        block.append(line)
    return block


def test_an_answer_prints_each_claims_own_quote_when_two_claims_cite_one_passage(library):
    text, result = _ask("Where does the Asiatic lion survive, and how many are there?")

    # given an answer whose claims cite the one passage of lions.txt
    assert result["answered"], result["answer"]
    citing_one = [row for row in result["sentences"] if row["citations"] == [1]]
    assert len(citing_one) >= 2, result["sentences"]
    assert len({row["quotes"]["1"] for row in citing_one}) == len(citing_one)  # each its own quote

    # then each claim is printed with the quote behind it, and the two found sentences each under their own claim
    assert "Claims and their quotes:" in text
    for row in result["sentences"]:
        assert _claim_block(text, row["text"])[1:] == [f"    [{n}] “{row['quotes'][str(n)]}”" for n in row["citations"]]
    by_quote = {row["quotes"]["1"]: row["text"] for row in citing_one}
    assert GIR in by_quote and GREW in by_quote
    assert "Gir forest" in by_quote[GIR] and "600" in by_quote[GREW]
    # and the sources are named with their place
    assert f"[1] Asiatic lions — {locator_label(Locator.from_fields(result['citations'][0]))}" in text.splitlines()


@pytest.mark.parametrize(
    ("question", "language", "title"),
    [
        ("How many Asiatic lions died of canine distemper in the Gir forest?", "en", "Asiatic lions"),
        ("大熊猫的平均寿命是多少年？", "zh", "大熊猫"),
    ],
)
def test_an_unanswered_question_prints_the_passages_on_the_topic(library, question, language, title):
    text, result = _ask(question)

    # given a question the library is on the topic of, but does not answer
    assert not result["answered"], result["answer"]
    assert result["topic_passages"], result

    # then the command says the documents do not answer it, then the passages on the topic: title, place, quote
    lines = text.splitlines()
    assert lines[0] == phrase(language, "no_answer")
    heading = lines.index(phrase(language, "topic_passages"))
    for k, passage in enumerate(result["topic_passages"]):
        # the place in the answer's language, as all its fixed words ("line 1", "第 1 行")
        with translation.override(interface_language(language)):
            where = locator_label(Locator.from_fields(passage))
        assert where, passage
        assert lines[heading + 1 + 2 * k] == f"[{passage['n']}] {passage['title']} — {where}"
        assert lines[heading + 2 + 2 * k] == f"    “{passage['quote']}”"
        assert passage["quote"] and any(passage["quote"] in text for _name, _title, text in DOCUMENTS)
    assert result["topic_passages"][0]["title"] == title
    assert "Claims and their quotes:" not in text and "Sources:" not in text


def test_a_chinese_answer_prints_its_claims_quote(library):
    text, result = _ask("大熊猫以什么为食？")

    assert result["answered"], result["answer"]
    first = result["sentences"][0]
    assert first["quotes"]["1"] == FOOD
    assert _claim_block(text, first["text"]) == [f"- {first['text']}", f"    [1] “{FOOD}”"]
