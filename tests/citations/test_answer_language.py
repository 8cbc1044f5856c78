"""An answer's fixed words follow the answer's language, not the interface's: a Chinese question's answer
says 来源 and 以深度模式重新回答 on an English page, an English one says Sources and Re-run deep on a Chinese
page (design.md, "Links and languages")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.citations.answers.language import phrase
from apps.citations.display import answer_text
from apps.documents.models import Chunk
from tests.citations.cited_answer import cited_message

pytestmark = pytest.mark.django_db

CHINESE_BROWSER = "zh-CN,zh;q=0.9"
ENGLISH_BROWSER = "en-US,en;q=0.9"


def _answer(user, document, language: str, question: str):
    message = cited_message(user, [(Chunk.objects.get(document=document), "hello world")], question)
    message.result = dict(message.result, language=language, hint=phrase(language, "deep_offer"))
    message.save(update_fields=["result"])
    return message


def _message_part(body: str) -> str:
    start = body.index('<article class="message-block"')
    return body[start : body.index("</article>", start)]


def _page(client, message, accept: str) -> tuple[str, str]:
    url = reverse("conversation-detail", args=[message.conversation_id])
    body = client.get(url, HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    return body, _message_part(body)


def test_a_chinese_answer_has_chinese_fixed_words_on_an_english_page(page_client_for, personas, document):
    message = _answer(personas["manager"], document, "zh", "这份笔记说了什么？")
    body, answer = _page(page_client_for("manager"), message, ENGLISH_BROWSER)

    # the interface is English
    assert '<html lang="en">' in body and ">History</a>" in body and "Ask a follow-up" in body
    # the answer's own words are Chinese: its heading, the hint and its button, the card's place and link
    assert 'lang="zh-hans"' in answer
    assert ">来源</h3>" in answer and "以深度模式重新回答" in answer and phrase("zh", "deep_offer") in answer
    assert "在第 1 行打开" in answer and "第 1 行" in answer and "已定位到段落" in answer
    assert "重新生成" in answer and "检索说明" in answer
    for english in ("Sources", "Re-run deep", "open at", "Regenerate", "located to the paragraph"):
        assert english not in answer, english


def test_an_english_answer_has_english_fixed_words_on_a_chinese_page(page_client_for, personas, document):
    message = _answer(personas["manager"], document, "en", "What do the notes say?")
    body, answer = _page(page_client_for("manager"), message, CHINESE_BROWSER)

    assert '<html lang="zh-hans">' in body and ">历史记录</a>" in body and "继续追问" in body
    assert 'lang="en"' in answer
    assert ">Sources</h3>" in answer and "Re-run deep" in answer and "open at line 1" in answer
    for chinese in ("来源", "以深度模式重新回答", "打开", "重新生成"):
        assert chinese not in answer, chinese


def test_the_text_answer_says_sources_in_the_answers_language(personas, document):
    chinese = _answer(personas["manager"], document, "zh", "这份笔记说了什么？")
    english = _answer(personas["manager"], document, "en", "What do the notes say?")
    chinese_text, english_text = "\n".join(answer_text(chinese.result)), "\n".join(answer_text(english.result))
    assert "\n来源：\n[1]" in chinese_text and "Sources" not in chinese_text
    assert "\nSources:\n[1]" in english_text and "来源" not in english_text
