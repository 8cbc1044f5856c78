"""A URL broken at a line end is joined without a space (a reference's link stays one link), and only a URL: the
word after a URL on the next line keeps its space."""

from __future__ import annotations

from apps.documents.parsing.textutil import join_lines


def test_a_url_cut_at_a_line_end_is_joined_whole() -> None:
    lines = ["Line spacing. https:", "//practicaltypography.com/line-", "spacing.html, 访问日期: 2018/10/28."]
    assert join_lines(lines) == "Line spacing. https://practicaltypography.com/line-spacing.html, 访问日期: 2018/10/28."
    assert join_lines(["see https://example.org/docs/", "index.html for details"]) == (
        "see https://example.org/docs/index.html for details"
    )


def test_words_after_a_url_keep_their_space() -> None:
    assert join_lines(["see https://example.org/", "and then the next"]) == "see https://example.org/ and then the next"
    assert join_lines(["at http://x.org/a/b.", "The next sentence."]) == "at http://x.org/a/b. The next sentence."
    assert join_lines(["a well-known perfor-", "mance"]) == "a well-known performance"


def test_a_url_whose_last_segment_is_alone_on_the_next_line_is_joined_whole() -> None:
    # JACoW's reference [3]: "https://woodward.library.ubc.ca/researchhelp/" | "journal-abbreviations/".
    assert join_lines(["[3] https://woodward.library.ubc.ca/researchhelp/", "journal-abbreviations/"]) == (
        "[3] https://woodward.library.ubc.ca/researchhelp/journal-abbreviations/"
    )
    assert join_lines(["at https://example.org/", "word/ and more"]) == "at https://example.org/word/ and more"
    assert join_lines(["at https://example.org/", "Smith."]) == "at https://example.org/ Smith."
