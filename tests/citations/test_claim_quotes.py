"""One quote per claim: each sentence of an answer (and each conflict) carries the sentence(s) of the source that
back that claim, its badges show them even when two claims cite the same passage, and answers stored before still
show the citation's quote. An answer the documents do not give offers the passages on the topic as cards."""

from __future__ import annotations

import json
import re

import pytest

from apps.citations.answers.finalize import Draft, finish
from apps.citations.answers.types import Evidence
from apps.citations.display import answer_html, inline_html
from tests.citations.hit_factory import make_hit

LIONS = (
    "Lions once ranged across Africa and Asia. The Asiatic lion survives only in the Gir forest of India. "
    "Its population grew to about 600 animals by 2017."
)
GIR = "The Asiatic lion survives only in the Gir forest of India."
GREW = "Its population grew to about 600 animals by 2017."
PANDA = "大熊猫主要生活在四川的竹林中。它们以竹子为食，也吃少量的肉。"


def _evidence(*texts: str) -> list[Evidence]:
    return [Evidence(i + 1, make_hit(chunk_id=100 + i, document_id=10 + i, text=t)) for i, t in enumerate(texts)]


def _finish(raw: str, evidence: list[Evidence], question: str = "Where do Asiatic lions live?", **kw):
    language = "zh" if re.search(r"[\u4e00-\u9fff]", question) else "en"
    return finish(Draft(raw, kw.pop("conflicts", [])), evidence, question, language, True, False, False, **kw)


def _titles(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<a class="badge cite"[^>]* data-n="(\d+)"[^>]* title="([^"]*)">', html)


def test_two_claims_citing_one_passage_each_carry_the_sentence_that_backs_them():
    done = _finish(f"{GIR[:-1]} [1]. {GREW[:-1]} [1].", _evidence(LIONS))
    assert [row["quotes"] for row in done.sentences] == [{"1": GIR}, {"1": GREW}]
    # the card quotes what its first claim is backed by, and the rows serialise as they are stored
    assert done.citations[0].quote == GIR
    assert json.loads(json.dumps(done.sentences)) == done.sentences


def test_a_claim_written_across_two_sentences_quotes_both_and_a_chinese_claim_its_own():
    across = "The Asiatic lion survives in the Gir forest of India, where its population grew to about 600 animals [1]."
    done = _finish(across, _evidence(LIONS))
    assert done.sentences[0]["quotes"] == {"1": f"{GIR} {GREW}"}
    chinese = _finish(
        "大熊猫主要生活在四川的竹林中 [1]。它们以竹子为食 [1]。", _evidence(PANDA), "大熊猫生活在哪里，吃什么？"
    )
    assert [row["quotes"]["1"] for row in chinese.sentences] == [
        "大熊猫主要生活在四川的竹林中。",
        "它们以竹子为食，也吃少量的肉。",
    ]


def test_each_badge_shows_its_own_claims_quote_and_a_conflict_its_own():
    wheat = (
        "Fusarium poae infects durum wheat kernels. Infected kernels released more volatile alcohols than healthy ones."
    )
    against = "Infected kernels did not release more volatile alcohols than healthy kernels."
    done = _finish(
        f"{GIR[:-1]} [1]. {GREW[:-1]} [1]. Fusarium poae infects durum wheat kernels [2].",
        _evidence(LIONS, wheat, against),
        conflicts=[f"{against[:-1]} [3]."],
    )
    by_n = {c.n: c for c in done.citations}
    html = answer_html(done.answer, done.sentences, by_n, 7)
    assert _titles(html) == [("1", GIR), ("1", GREW), ("2", "Fusarium poae infects durum wheat kernels.")]
    assert done.conflicts[0]["quotes"] == {"3": against}
    assert _titles(inline_html(done.conflicts[0]["text"], by_n, 7, done.conflicts[0]["quotes"])) == [("3", against)]


def test_an_answer_stored_before_claims_had_quotes_shows_the_citations_quote():
    done = _finish(f"{GIR[:-1]} [1]. {GREW[:-1]} [1].", _evidence(LIONS))
    stored = [{key: value for key, value in row.items() if key != "quotes"} for row in done.sentences]
    by_n = {c.n: c for c in done.citations}
    assert _titles(answer_html(done.answer, stored, by_n, 7)) == [("1", GIR), ("1", GIR)]
    # and rows with quotes show them (the same call, the new data)
    assert _titles(answer_html(done.answer, done.sentences, by_n, 7)) == [("1", GIR), ("1", GREW)]


def test_an_unanswered_question_offers_the_passages_on_its_topic_and_an_unrelated_one_none():
    evidence = _evidence(LIONS, "Glaciers retreat as mountain temperatures rise, exposing bare rock and moraine.")
    done = _finish("", evidence, "How many Asiatic lions died of canine distemper in the Gir forest?")
    assert (done.answered, done.answer, done.citations) == (
        False,
        "The documents in this collection do not answer this.",
        [],
    )
    assert [p.evidence_number for p in done.topic_passages] == [1]  # the glacier passage is not on the topic
    passage = done.topic_passages[0]
    assert passage.n == 1 and passage.quote == GIR and passage.status == "current" and passage.chunk_hash
    assert _finish("", evidence, "What is the boiling point of mercury?").topic_passages == []
    chinese = _finish("", _evidence(PANDA), "大熊猫每天吃多少公斤竹子？")
    assert chinese.answer == "本集合中的文档没有回答这个问题。" and len(chinese.topic_passages) == 1
    # an answered question has no such list
    assert _finish(f"{GIR[:-1]} [1].", evidence).topic_passages == []


@pytest.mark.django_db
def test_the_page_shows_the_passages_on_the_topic_as_cards(page_client_for, personas, document):
    from tests.citations.test_ask_pages import _citation, _page, _stored_message

    passage = _citation(document) | {"quote": "hello world"}
    statement = "The documents in this collection do not answer this."
    message = _stored_message(
        personas["viewer"],
        document,
        answer=statement,
        answered=False,
        sentences=[{"text": statement, "citations": [], "supported": None, "label": "", "quotes": {}}],
        citations=[],
        conflicts=[],
        chain={},
        topic_passages=[passage],
    )
    body = _page(page_client_for("viewer"), message)
    assert f'<div class="answer answer-plain"><p>{statement}</p></div>' in body and "badge cite" not in body
    topic = body[body.index('<section class="topic-passages">') :]
    topic = topic[: topic.index("</section>")]
    assert "Passages on the topic:" in topic and f'id="topic-{message.pk}-1"' in topic
    assert '<blockquote class="card-quote">hello world</blockquote>' in topic
    # the card opens the passage itself: no badge of this answer names it
    assert f'href="/documents/{document.pk}/view/?chunk=0">open at paragraph 1</a>' in topic
    message.result["language"] = "zh"
    message.save()
    assert "与主题相关的段落：" in _page(page_client_for("viewer"), message)
