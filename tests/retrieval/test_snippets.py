"""Search-result snippets: escaping, highlights through the BM25 analyzer, the window around the rarest terms,
the length bound, and `analyzer.term_spans` agreeing with `analyzer.terms`. No database."""

from __future__ import annotations

import html
import random
import re
from html.parser import HTMLParser

import pytest

from apps.retrieval.keyword.analyzer import term_spans, terms
from apps.retrieval.snippets import make_snippet

MARK = re.compile(r"<mark>(.*?)</mark>")


def visible(snippet: str) -> str:
    """The text a reader sees: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"</?mark>", "", snippet))


def marked(snippet: str) -> list[str]:
    return [html.unescape(m) for m in MARK.findall(snippet)]


class _TagCheck(HTMLParser):
    """Fails on any tag but <mark>, and on marks that do not nest properly."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        assert tag == "mark" and not attrs, tag
        assert self.depth == 0, "nested mark"
        self.depth += 1

    def handle_endtag(self, tag):
        assert tag == "mark", tag
        assert self.depth == 1, "unbalanced mark"
        self.depth -= 1


def assert_well_formed(snippet: str) -> None:
    checker = _TagCheck()
    checker.feed(snippet)
    checker.close()
    assert checker.depth == 0, "a mark is left open"
    # Outside the mark tags there is no markup at all: every < > & of the text is escaped.
    bare = re.sub(r"</?mark>", "", snippet)
    assert "<" not in bare and ">" not in bare
    assert not re.search(r"&(?!(amp|lt|gt|quot|#x27|#39);)", bare)


# ---- term_spans ----------------------------------------------------------------------------------------------
SAMPLES = [
    "The Running studies of the cells",
    "In 2019, 3.5 mg of p53 and H1N1 for 1,000 patients; lists 1,2 and 1.5,2.5",
    "北京大学 猫 使用DNA测序。今天天气很好\uff0c我们去公园散步吧",
    "ＤＮＡ ２０１９年 café cafe\u0301 Straße ﬁsh naïve ΣΊΣΥΦΟΣ",
    "\u1112\u1161\u11ab 한국어 ひらがな カタカナ",
    "don't <script>alert('x')</script> &amp; e-mail foo_bar",
    "",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_term_spans_give_the_same_terms_as_terms(text):
    spans = term_spans(text)
    assert [term for _s, _e, term in spans] == terms(text)
    for start, end, _term in spans:
        assert 0 <= start < end <= len(text)
    assert [start for start, _e, _t in spans] == sorted(start for start, _e, _t in spans)


def test_term_spans_point_at_the_original_characters():
    text = "ＤＮＡ and cafe\u0301, 1,000 北京大学"
    found = [(text[s:e], term) for s, e, term in term_spans(text)]
    assert found == [
        ("ＤＮＡ", "dna"),
        ("cafe\u0301", "cafe"),  # the combining accent belongs to the word
        ("1,000", "1000"),
        ("北京", "北京"),
        ("京大", "京大"),
        ("大学", "大学"),
    ]
    ascii_text = "Running ran"
    assert [(ascii_text[s:e], t) for s, e, t in term_spans(ascii_text)] == [("Running", "run"), ("ran", "ran")]


# ---- escaping and highlights -----------------------------------------------------------------------------------
def test_html_in_the_text_is_escaped():
    text = "Before <script>alert('x')</script> & after: the protein <b>folds</b>."
    snippet = make_snippet(text, "protein", None, 300)
    assert "&lt;script&gt;" in snippet and "<script>" not in snippet and "<b>" not in snippet
    assert "&amp; after" in snippet
    assert marked(snippet) == ["protein"]
    assert visible(snippet) == text
    assert_well_formed(snippet)


def test_html_in_the_query_is_not_echoed_and_matches_only_as_words():
    text = "How to embed <script> tags safely in a page"
    snippet = make_snippet(text, "<script>alert(1)</script>", None, 300)
    assert snippet == "How to embed &lt;<mark>script</mark>&gt; tags safely in a page"
    snippet = make_snippet("A protein page", '<img src=x onerror="alert(1)"> protein', None, 300)
    assert "<img" not in snippet and "onerror" not in snippet
    assert marked(snippet) == ["protein"]
    assert_well_formed(snippet)


def test_stemmed_forms_are_marked():
    snippet = make_snippet("She kept running; the runner runs daily.", "runs", None, 300)
    assert marked(snippet) == ["running", "runs"]  # "runner" stems to "runner", not "run"
    assert make_snippet("Studies of cells", "study cell", None, 300) == "<mark>Studies</mark> of <mark>cells</mark>"


def test_stop_words_in_the_query_are_not_marked():
    assert make_snippet("The cat and the hat", "the cat", None, 300) == "The <mark>cat</mark> and the hat"


def test_chinese_bigrams_are_marked_as_one_run():
    snippet = make_snippet("我们在北京大学学习蛋白质结构。", "北京大学 蛋白质", None, 300)
    assert snippet == "我们在<mark>北京大学</mark>学习<mark>蛋白质</mark>结构。"
    # A query bigram inside a longer word is marked there (what BM25 matched), and nothing else is.
    assert marked(make_snippet("北京大学很大", "京大", None, 300)) == ["京大"]


def test_full_width_accented_and_mixed_script_text_is_marked():
    snippet = make_snippet("使用ＤＮＡ测序 in a café", "dna cafe", None, 300)
    assert marked(snippet) == ["ＤＮＡ", "café"]
    assert marked(make_snippet("une cafe\u0301 noire", "café", None, 300)) == ["cafe\u0301"]


def test_whitespace_runs_become_one_space():
    assert make_snippet("  one\n\n two\t\tthree  ", "two", None, 300) == "one <mark>two</mark> three"


# ---- the window ------------------------------------------------------------------------------------------------
COMMON = "The cell membrane protects the cell from its surroundings. "
LONG = COMMON * 40 + "A zebrafish model of regeneration was used in this study. " + COMMON * 40
IDF = {"cell": 0.2, "zebrafish": 6.0, "regener": 4.0}


@pytest.mark.parametrize("max_chars", [80, 120, 300, 500])
def test_the_window_goes_to_the_rarest_term_far_from_the_start(max_chars):
    snippet = make_snippet(LONG, "cell zebrafish", IDF.get, max_chars)
    assert "zebrafish" in marked(snippet)
    assert snippet.startswith("…") and snippet.endswith("…")
    assert len(visible(snippet)) <= max_chars
    assert_well_formed(snippet)


def test_with_equal_weights_a_window_with_more_distinct_terms_wins():
    text = "Alpha comes first here. " + "Filler words without any query term at all. " * 20
    text += "Later alpha and beta appear together. " + "More filler words without a query term. " * 10
    snippet = make_snippet(text, "alpha beta", None, 120)
    assert marked(snippet) == ["alpha", "beta"]
    assert visible(snippet).startswith("…Later alpha and beta")  # starts at the sentence, not mid-way
    # With idf, one rare term outweighs two common ones.
    snippet = make_snippet(text + "Gamma once.", "alpha beta gamma", {"alpha": 0.1, "beta": 0.1, "gamma": 3}.get, 80)
    assert marked(snippet) == ["Gamma"]


def test_idf_decides_between_two_single_term_windows():
    text = "Mitochondria are mentioned early. " + "Unrelated filler text goes on and on. " * 30 + "Rare ribozyme here."
    assert marked(make_snippet(text, "mitochondria ribozyme", None, 100)) == ["Mitochondria"]  # ties: earliest
    weights = {"mitochondria": 1.0, "ribozym": 5.0}
    snippet = make_snippet(text, "mitochondria ribozyme", weights.get, 100)
    assert marked(snippet) == ["ribozyme"]
    assert not snippet.endswith("…")  # the window reaches the end of the text


def test_cuts_fall_between_words():
    words = [f"word{i}" for i in range(300)]
    text = " ".join([*words[:150], "needle", *words[150:]])
    for max_chars in (80, 97, 150, 301):
        shown = visible(make_snippet(text, "needle", None, max_chars))
        assert len(shown) <= max_chars
        inner = shown.strip("…").split(" ")
        assert "needle" in inner and all(w in words or w == "needle" for w in inner), shown


def test_no_query_term_gives_the_start_of_the_text():
    text = "First sentence of the chunk. " + "Then a lot more text follows here. " * 20
    snippet = make_snippet(text, "absent words", None, 100)
    assert snippet.startswith("First sentence of the chunk.") and snippet.endswith("…")
    assert len(visible(snippet)) <= 100
    assert text.startswith(visible(snippet)[:-1].rstrip())
    assert make_snippet(text, "", None, 100) == snippet
    assert make_snippet("Short <i>text</i>.", "nothing", None, 100) == "Short &lt;i&gt;text&lt;/i&gt;."


def test_short_text_is_shown_whole():
    text = "A short chunk about protein folding."
    assert make_snippet(text, "folding", None, len(text)) == "A short chunk about protein <mark>folding</mark>."


@pytest.mark.parametrize("seed", range(40))
def test_random_texts_keep_every_promise(seed):
    """Whatever the text and query: bounded length, valid markup, marks only around query terms, text in order."""
    rng = random.Random(seed)
    vocabulary = ["protein", "cell", "zebrafish", "running", "runs", "<b>", "&", "a", "the", "3.5", "1,000"]
    vocabulary += ["ＤＮＡ", "café", "北京大学", "蛋白质", "结构", "研究。", "<script>", "x>y"]
    text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 150)))
    text = text.replace(" 。", "。").replace("x>y ", "x>y\n\n")
    query = " ".join(rng.sample(vocabulary, 3))
    weights = {t: rng.random() * 5 for t in terms(query)} if seed % 2 else None
    max_chars = rng.choice([20, 50, 80, 120, 300])
    snippet = make_snippet(text, query, weights.get if weights else None, max_chars)
    assert_well_formed(snippet)
    shown = visible(snippet)
    assert len(shown) <= max_chars
    plain = " ".join(text.split())
    assert shown.strip("…") in plain
    query_set = set(terms(query))
    for word in marked(snippet):
        assert set(terms(word)) <= query_set and terms(word), (word, query)
