"""A front-matter name in a plain line once the body has begun (issue 16, the sixth and third fresh sets): the
Chinese LaTeX manual's table of name commands ("Abstract" over "\\abstractname") in chapter 8 labelled the table
and the passages after it "Abstract"; a thesis appendix quoting a paper ("Abstract: As one of …") labelled the
appendix "Abstract" under its Chinese heading. Before the body, a plain "Abstract" line still opens the abstract."""

from __future__ import annotations

from apps.documents.parsing import Block
from apps.documents.parsing.section_map import map_sections


def _doc(*items: tuple[str, str, tuple[str, ...]]) -> list[Block]:
    return [Block(kind=kind, text=text, heading_path=path, para_no=i) for i, (kind, text, path) in enumerate(items)]


def test_an_abstract_line_in_a_later_chapter_opens_no_abstract() -> None:
    ch1, ch8 = ("第一章 简介",), ("第八章 自定义命令", "8.4 可定制的命令")
    blocks = _doc(
        ("heading", "第一章 简介", ch1),
        ("paragraph", "本章介绍排版的基本概念和用法。", ch1),
        ("heading", "第八章 自定义命令", ch8[:1]),
        ("heading", "8.4 可定制的命令", ch8),
        ("paragraph", "Abstract", ch8),
        ("paragraph", "\\abstractname", ch8),
        ("paragraph", "Abstract: As one of the most widely used techniques, programming is defined here.", ch8),
    )
    sections = map_sections(blocks)
    assert [s.printed for s in sections[4:]] == ["第八章 自定义命令"] * 3
    assert not any(s.canonical for s in sections[4:])


def test_an_abstract_line_before_the_body_still_opens_the_abstract() -> None:
    blocks = _doc(
        ("heading", "A Study of Reading", ("A Study of Reading",)),
        ("paragraph", "Abstract", ("A Study of Reading",)),
        ("paragraph", "We study how documents are read by people and by programs alike.", ("A Study of Reading",)),
        ("heading", "1 Introduction", ("A Study of Reading", "1 Introduction")),
    )
    sections = map_sections(blocks)
    assert sections[2].name == "Abstract" and sections[2].printed == "Abstract"


def test_an_english_name_in_a_plain_line_under_a_chinese_heading_opens_nothing() -> None:
    # The same manual's table of name commands: "Appendix" over "\appendixname" in 8.4 labelled the rest of the
    # chapter "Appendix"; a Chinese document names its own appendix 附录.
    ch1, ch8 = ("第一章 简介",), ("第八章 自定义命令", "8.4 可定制的命令")
    blocks = _doc(
        ("heading", "第一章 简介", ch1),
        ("paragraph", "本章介绍排版的基本概念和用法。", ch1),
        ("heading", "第八章 自定义命令", ch8[:1]),
        ("heading", "8.4 可定制的命令", ch8),
        ("paragraph", "Appendix", ch8),
        ("paragraph", "\\appendixname", ch8),
        ("heading", "附录 A 安装", ("附录 A 安装",)),
        ("paragraph", "安装步骤如下。", ("附录 A 安装",)),
    )
    sections = map_sections(blocks)
    assert not any(s.canonical for s in sections[4:6])
    assert sections[7].key == "Appendix"  # the Chinese heading 附录 still opens the appendix


def test_an_english_name_in_a_plain_line_opens_its_section_in_an_english_document() -> None:
    path = ("4 Discussion",)
    blocks = _doc(
        ("heading", "1 Introduction", ("1 Introduction",)),
        ("paragraph", "We read documents.", ("1 Introduction",)),
        ("heading", "4 Discussion", path),
        ("paragraph", "Acknowledgements", path),
        ("paragraph", "We thank the library for its help.", path),
    )
    assert map_sections(blocks)[4].key == "Acknowledgements"
