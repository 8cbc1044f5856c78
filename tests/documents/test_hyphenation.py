"""Line-end hyphens: a word broken by the typesetter is closed up, a compound's hyphen is kept (textutil.join_lines,
parsing.hyphenation). No database."""

from __future__ import annotations

import threading

import pytest

from apps.documents.parsing import hyphenation
from apps.documents.parsing.hyphenation import document_vocabulary, english_words, keep_hyphen
from apps.documents.parsing.textutil import join_blocks, join_lines


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["the worst-", "performing model"], "the worst-performing model"),
        (["a dual-", "encoder retriever"], "a dual-encoder retriever"),
        (["for open-", "domain questions"], "for open-domain questions"),
        (["state-of-the-", "art methods"], "state-of-the-art methods"),
        (["DNA-", "binding proteins"], "DNA-binding proteins"),  # an acronym is never half of a broken word
        (["samples were pre-", "equilibrated"], "samples were pre-equilibrated"),  # prefix before the same vowel
        (["self-", "governed farms"], "self-governed farms"),
        (["worst\u2010", "performing"], "worst\u2010performing"),  # the typographic hyphen is kept as it is
    ],
)
def test_a_compound_keeps_its_hyphen_at_a_line_end(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["the perfor-", "mance of"], "the performance of"),
        (["mitochon-", "drial DNA"], "mitochondrial DNA"),
        (["re-", "generating"], "regenerating"),  # a prefix closed up where the joined word is known
        (["an ethnoecologi-", "cal survey"], "an ethnoecological survey"),  # unknown word: closed up, as before
        (["dual\u00ad", "encoder"], "dualencoder"),  # a soft hyphen is the typesetter's mark of a broken word
    ],
)
def test_a_broken_word_is_closed_up(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


def test_what_joins_no_differently_stays_as_it_was() -> None:
    assert join_lines(["Smith-", "Jones"]) == "Smith- Jones"  # a capital after the hyphen: not decided here
    assert join_lines(["中文-", "文本"]) == "中文-文本"  # Chinese: as before
    assert join_lines(["使用-", "based"]) == "使用based"


def test_the_documents_own_spelling_wins_over_the_word_list() -> None:
    assert join_lines(["fire-", "fighting"]) == "firefighting"  # a known word: the list closes it up
    vocabulary = document_vocabulary(["the fire-fighting crews", "and fire-", "fighting gear"])
    assert join_lines(["fire-", "fighting"], vocabulary=vocabulary) == "fire-fighting"

    assert join_lines(["dual-", "encoder"]) == "dual-encoder"  # two known words: the list keeps the hyphen
    vocabulary = document_vocabulary(["a dualencoder model"])
    assert join_lines(["dual-", "encoder"], vocabulary=vocabulary) == "dualencoder"


def test_the_document_decides_by_its_more_frequent_spelling_and_a_tie_goes_to_the_word_list() -> None:
    mostly_hyphenated = document_vocabulary(["co-operation and co-operation", "but cooperation once"])
    assert keep_hyphen("co", "operation", mostly_hyphenated)
    assert not keep_hyphen("co", "operation")  # "cooperation" is a known word
    tie = document_vocabulary(["co-operation", "cooperation"])
    assert not keep_hyphen("co", "operation", tie)


def test_a_line_end_word_is_no_evidence() -> None:
    vocabulary = document_vocabulary(["the worst-", "performing model"])
    assert "worst-performing" not in vocabulary.hyphenated
    assert "worst" not in vocabulary.closed
    assert vocabulary.closed["performing"] == 1
    soft = document_vocabulary(["perfor\u00admance"])  # a soft hyphen inside a line: one closed word
    assert soft.closed == {"performance": 1}
    assert document_vocabulary(["non-specific"]).hyphenated == {"non-specific": 1}


def test_a_block_boundary_decides_the_same_way() -> None:
    assert join_blocks(["the worst-", "performing model"]) == "the worst-performing model"
    assert join_blocks(["the perfor-", "mance of"]) == "the performance of"


def test_the_word_list_is_loaded_once_for_threads_that_ask_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import spellchecker

    loads = []
    real = spellchecker.SpellChecker

    def counting(*args, **kwargs):
        loads.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(spellchecker, "SpellChecker", counting)
    monkeypatch.setattr(hyphenation, "_words", None)
    start = threading.Barrier(8)
    results: list[frozenset[str]] = []

    def ask() -> None:
        start.wait()
        results.append(english_words())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1
    assert len(results) == 8 and all(words is results[0] for words in results)
    assert "performance" in results[0] and "perfor" not in results[0]


def test_a_pdf_is_read_with_its_own_spelling(shared_corpus) -> None:
    """The PDF parser passes the whole document's vocabulary: "odorant-|binding" at a line end keeps its hyphen
    because the paper writes "odorant-binding" inside lines ("odorant" is in no word list, so the list alone
    would close it up), while the paper's words broken at line ends are closed up."""
    from apps.documents.parsing import parse_document

    paper = shared_corpus / "sci-pdf-jats" / "papers" / "f1000research-3-305"
    parsed = parse_document((paper / "paper.pdf").read_bytes(), "paper.pdf")
    text = "\n".join(block.text for block in parsed.blocks)
    assert "odorantbinding" not in text.lower()
    assert text.lower().count("odorant-binding") >= 9
    assert not keep_hyphen("odorant", "binding")  # the word list alone would have closed it up
