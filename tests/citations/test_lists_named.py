"""Lists of the kinds software documentation writes (issue 15, docs-dev): bulleted names over their own paragraphs
("- **Monitoring**" then what it does), one of many same-named lists told apart by the section the question names
("Bugfixes" under every release of a change log), and a list that answers a question that did not ask for one
when no single sentence can ("What does attrs give you?"). The texts are written for these tests."""

from __future__ import annotations

from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.language import detect
from apps.citations.answers.list_answer import best_list, written_list
from apps.citations.answers.lists import find_lists
from apps.citations.answers.question import classify
from apps.citations.answers.types import ComposeRequest, Evidence
from tests.citations.hit_factory import make_hit

FEATURES = "\n\n".join(
    [
        "Features",
        "- **Tracing**",
        "Every request is followed from the gateway to the database and back, with the time spent in each hop.",
        "See the tracing guide for more.",
        "- **Retries**",
        "Failed calls are tried again with a growing pause, up to a limit you choose per route.",
        "- **Quotas**",
        "Each team gets a share of the cluster, enforced when jobs are queued.",
    ]
)


def _evidence(*chunks: tuple[str, list[str], int]) -> list[Evidence]:
    """(text, heading path, chunk index) of one document, numbered 1..k."""
    return [
        Evidence(i + 1, make_hit(text=text, heading_path=path, section=path[-1], chunk_index=index, chunk_id=50 + i))
        for i, (text, path, index) in enumerate(chunks)
    ]


def test_bulleted_names_over_their_paragraphs_are_one_list_each_name_with_its_first_sentence():
    (block,) = find_lists(_evidence((FEATURES, ["Guide", "Features"], 3)))
    assert [text for _, text in block.items] == [
        "- **Tracing** Every request is followed from the gateway to the database and back, with the time spent in "
        "each hop.",
        "- **Retries** Failed calls are tried again with a growing pause, up to a limit you choose per route.",
        "- **Quotas** Each team gets a share of the cluster, enforced when jobs are queued.",
    ]
    # Short items one after another, then a paragraph: the list ended; the bullets after it are another list.
    text = "- apples\n\n- pears\n\nFruit keeps longer in a cool room.\n\n- dogs\n\n- cats"
    assert [[t for _, t in b.items] for b in find_lists(_evidence((text, ["Notes"], 3)))] == [
        ["- apples", "- pears"],
        ["- dogs", "- cats"],
    ]
    # Names over paragraphs go on only with another name, not with a sentence item after a paragraph.
    text = "- **Fast**\n\nIt is quick.\n\nOlder releases need this:\n\n- Python 2.7: release 4.4 or earlier."
    (block,) = find_lists(_evidence((text, ["Notes"], 3)))
    assert block.lead == "Older releases need this:" and [t for _, t in block.items] == [
        "- Python 2.7: release 4.4 or earlier."
    ]
    # Numbered names over paragraphs are headings with their sections, not a list.
    assert find_lists(_evidence(("I. INTRODUCTION\n\nText one.\n\nII. RELATED WORK\n\nText two.", ["R"], 3))) == []


CHANGES = [
    (
        "2.5.0 (2024-06-01)\n\nBugfixes\n\n• Fixed a crash when the cache directory is missing.\n\n"
        "• Fixed a leak of file handles on retry.",
        ["Release History", "2.5.0 (2024-06-01)"],
        1,
    ),
    (
        "2.4.1 (2024-05-02)\n\nBugfixes\n\n• Fixed a bug where proxies were ignored for redirected requests.\n\n"
        "• Fixed a bug where timeouts were not applied to streamed bodies.",
        ["Release History", "2.4.1 (2024-05-02)"],
        4,
    ),
    (
        "2.3.0 (2024-03-10)\n\nBugfixes\n\n• Fixed several bugs where request headers were sent twice.\n\n"
        "• Fixed requests hanging when the request body was empty.",
        ["Release History", "2.3.0 (2024-03-10)"],
        9,
    ),
]


def test_of_lists_named_alike_the_one_under_the_section_the_question_names_answers():
    evidence = _evidence(*CHANGES)
    for version, first in [("2.4.1", "proxies"), ("2.5.0", "cache directory"), ("2.3.0", "headers")]:
        question = classify(f"Which bugs were fixed in the {version} release of the request library?")
        best = best_list(question, evidence, 0.3, 0.5)
        assert best is not None and first in best.items[0][1], version
    # The headings of every section a chunk is in name its lists, the release as well as "Bugfixes".
    assert all(b.sections.startswith("Release History 2.") for b in find_lists(evidence))


def _compose(question: str, evidence: list[Evidence]) -> str:
    composer = ExtractiveComposer(use_embeddings=False)
    return "".join(
        p for p in composer.stream(ComposeRequest(question, evidence, language=detect(question))) if isinstance(p, str)
    )


TIDY = "\n\n".join(
    [
        "Example",
        "After *declaring* your fields, *tidy* gives you:",
        "- a readable summary of the record's fields,",
        "- comparison methods,",
        "- an initializer,",
        "*without* writing the same code again and again.",
    ]
)


def test_a_question_that_does_not_ask_for_a_list_gets_the_list_named_as_asked_when_no_sentence_answers():
    # "according to its README" names what no passage holds: no sentence passes the gate, the list's lead-in does.
    question = "After you declare your fields, what does tidy give you, according to its README?"
    assert classify(question).kind != "list"
    answer = _compose(question, _evidence((TIDY, ["Example"], 2)))
    assert answer.splitlines()[0].startswith("After *declaring* your fields, *tidy* gives you:")
    assert "- comparison methods, [1]" in answer and "- an initializer, [1]" in answer
    # A factoid still needs its item in one sentence: a list does not answer "how many".
    assert "comparison methods" not in _compose("How many fields does tidy give you?", _evidence((TIDY, ["E"], 2)))


def test_a_written_list_of_names_keeps_each_name_with_what_it_does():
    (block,) = find_lists(_evidence((FEATURES, ["Guide", "Features"], 3)))
    lines = written_list(block).splitlines()
    assert (
        lines[1]
        == "- **Retries** Failed calls are tried again with a growing pause, up to a limit you choose per route [1]."
    )
