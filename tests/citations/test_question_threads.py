"""jieba's tagging from many threads (answers.zh_tags): web threads and the worker classify questions and read
evidence sentences at once, so the tags, the kinds and the items must come out as from one thread."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from apps.citations.answers import zh_tags
from apps.citations.answers.question import classify, items

# Each text is distinct (names, numbers, places vary with i), so the cache cannot hide a mix-up between threads.
_SURNAMES = "张王李赵刘陈杨黄周吴"
_PLACES = ("北京", "上海", "广州", "杭州", "南京", "成都", "武汉", "西安")


def _texts(n: int) -> list[str]:
    return [
        f"{_SURNAMES[i % 10]}{'明华伟'[i % 3]}于{1900 + i}年在{_PLACES[i % 8]}创办了第{i}中学，"
        f"共有{i * 7 + 3}名学生，后来迁往{_PLACES[(i + 3) % 8]}大学附近。"
        for i in range(n)
    ]


def _questions(n: int) -> list[str]:
    return [f"{_SURNAMES[i % 10]}{'明华伟'[i % 3]}在{1900 + i}年创办的第{i}中学有多少名学生？" for i in range(n)]


def _read(text: str) -> tuple:
    """Everything the composer reads of one sentence with jieba: its tags and its items of three kinds."""
    return (
        zh_tags.tagged.__wrapped__(text),  # the tagger itself, not its cache
        sorted(items(text, "number", "zh")),
        sorted(items(text, "place", "zh")),
        sorted(items(text, "date", "zh")),
    )


def _asked(question: str) -> tuple:
    q = classify(question)
    return q.kind, sorted(q.key_terms), sorted(q.anchors)


def _one_thread_then_eight(work, inputs):
    """(results from one thread, results of the inputs three times over from eight threads at once, cold cache)."""
    expected = [work(i) for i in inputs]
    zh_tags.tagged.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(work, inputs * 3))
    return expected, got


def test_tags_and_items_from_eight_threads_are_those_of_one_thread():
    expected, got = _one_thread_then_eight(_read, _texts(300))
    assert got == expected * 3


def test_questions_classified_from_eight_threads_are_those_of_one_thread():
    expected, got = _one_thread_then_eight(_asked, _questions(200))
    assert got == expected * 3
