"""A hard-wrapped Chinese text file is read as the text it is: its visual lines are joined without a space where
CJK text meets, as the PDF and DOCX readers already do (textutil.join_line_breaks).

Before, the text reader joined every line of a paragraph with a space, so a Chinese .txt wrapped at a fixed width
(as editors and many exports write them) became "澳洲南部岛 屿": the passages, the answer's quoted claims and the
search's Chinese bigrams all carried spaces the author never wrote. English lines still join with one space.
"""

from __future__ import annotations

from apps.documents.parsing.formats.text import PARSER

# CMRC 2018 trial text (../shared/corpus/zh-cmrc2018, CC BY-SA 4.0), wrapped at fixed widths for this test.
WRAPPED_ZH = (
    "尤金袋鼠分布在澳洲南部岛\n"
    "屿及西岸地区。由于牠们每季在袋鼠岛都大量繁殖，\n"
    "破坏了针鼹岛上的生活环境而被认为是害虫。\n"
)


def _paragraphs(text: str, name: str = "notes.txt", codec: str = "utf-8") -> list[str]:
    return [b.text for b in PARSER.parse(text.encode(codec), name).blocks]


def test_wrapped_chinese_lines_join_without_a_space_in_every_encoding_and_keep_their_line_range():
    joined = (
        "尤金袋鼠分布在澳洲南部岛屿及西岸地区。由于牠们每季在袋鼠岛都大量繁殖，破坏了针鼹岛上的生活环境而被认为是害虫。"
    )
    for codec in ("utf-8", "gbk"):
        (block,) = PARSER.parse(WRAPPED_ZH.encode(codec), "notes.txt").blocks
        assert (block.text, block.line_start, block.line_end) == (joined, 1, 3)


def test_chinese_wrapped_at_a_fixed_width_joins_numbers_and_latin_words_as_written():
    # CMRC 2018 trial TRIAL_502, wrapped every 30 characters as a fixed-width export does
    text = (
        "她曾获得10次WTA赛事女子单打冠军，并带领义大利队在200\n6年联合会杯决赛中以3胜2负击败比利时队。"
        "佩内塔在\n2010年法国网球公开赛后首度跻身单打世界排名前十。\n"
    )
    assert _paragraphs(text) == [
        "她曾获得10次WTA赛事女子单打冠军，并带领义大利队在2006年联合会杯决赛中以3胜2负击败比利时队。"
        "佩内塔在2010年法国网球公开赛后首度跻身单打世界排名前十。"
    ]


def test_wrapped_chinese_markdown_list_items_and_setext_headings_join_without_a_space():
    text = "袋鼠的\n分布\n====\n\n- 澳洲南部\n  岛屿\n"
    assert _paragraphs(text, "notes.md") == ["袋鼠的分布", "- 澳洲南部岛屿"]


def test_english_and_mixed_lines_still_join_with_one_space():
    text = "The quick brown\n  fox jumps.\n\n尤金袋鼠（Macropus\neugenii）是袋鼠科中细小的成员。\n"
    assert _paragraphs(text) == ["The quick brown fox jumps.", "尤金袋鼠（Macropus eugenii）是袋鼠科中细小的成员。"]


def test_wrapped_korean_lines_keep_the_space_between_words():
    text = "서울시는 오늘 발표했다.\n시장은 기자회견에서\n말했다.\n"
    assert _paragraphs(text) == ["서울시는 오늘 발표했다. 시장은 기자회견에서 말했다."]
