"""The question's language, and the few fixed sentences an answer may need in it.

Only the two languages the portal's corpora hold are told apart: Chinese (any Han/kana text) and everything else,
answered in English. The fixed sentences are the portal's own words, never claims, so they carry no citation.
"""

from __future__ import annotations

import re

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff]")
_LATIN = re.compile(r"[A-Za-z]")

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "no_answer": "The documents in this collection do not answer this.",
        "no_answer_document": "This document does not answer this.",
        "conflicts": "Sources that disagree",
        "topic_passages": "Passages on the topic:",
        "deep_offer": (
            "This was a quick answer. Ask again in deep mode for more evidence, the works it cites and related "
            "documents."
        ),
    },
    "zh": {
        "no_answer": "本集合中的文档没有回答这个问题。",
        "no_answer_document": "这份文档没有回答这个问题。",
        "conflicts": "观点不一致的来源",
        "topic_passages": "与主题相关的段落：",
        "deep_offer": "这是快速回答。使用深度模式重新提问，可获得更多证据、其引用的文献和相关文档。",
    },
}


def detect(text: str) -> str:
    """ "zh" when Han or kana characters make up a real share of the letters (a Chinese question that names
    "DNA" or "BMI" is still Chinese), else "en"."""
    han = len(_HAN.findall(text))
    latin = len(_LATIN.findall(text))
    # One Han character carries about a word; a Latin word about five letters.
    return "zh" if han and han * 5 >= latin else "en"


# The interface language (settings.LANGUAGES) whose catalog holds an answer language's fixed words.
INTERFACE_LANGUAGES = {"zh": "zh-hans", "en": "en"}


def interface_language(language: str) -> str:
    """The Django language code to render an answer of `language` ("zh", "en") in: its fixed words follow the
    answer, not the person's interface."""
    return INTERFACE_LANGUAGES.get(language, "en")


def phrase(language: str, key: str) -> str:
    return PHRASES.get(language, PHRASES["en"])[key]
