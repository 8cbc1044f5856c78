"""A list of one entry labelled with a bare number (issue 16, the ninth fresh set's seuthesis sample: "1 东南大学
研究生院. …[EB/OL]. 2011. http://…" alone under 参考文献). Read only when the section holds no list of any kind, and
only when the one entry is a reference on its own; a bare "1 " before a sentence under the heading is none."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect
from apps.citations.refparse.entries_lines import RefLine


def _section(*entry_lines: str) -> list[RefLine]:
    body = [f"正文第 {k} 行，论文的主体文字。" for k in range(30)]
    rows = [(text, 12.0, {}) for text in body] + [("参考文献", 16.0, {"heading": True, "ref_heading": True})]
    rows += [(text, 12.0, {"in_references": True}) for text in entry_lines]
    rows += [("附录 A 第一个附录", 16.0, {"heading": True})]
    return [
        RefLine(text, page=17, bbox=(90, 80 + 16 * k, 500, 92 + 16 * k), size=size, block=k, **flags)
        for k, (text, size, flags) in enumerate(rows)
    ]


def test_a_lone_entry_with_a_bare_number_is_the_list() -> None:
    entries = _detect(
        _section(
            "1 东南大学研究生院. 东南大学研究生学位论文的格式规定（试行）[EB/OL]. 2011.",
            "http://seugs.seu.edu.cn/s/97/t/1707/aa/64/info43620.htm.",
        )
    )
    assert [(e.number, e.lines[0].text[:10]) for e in entries] == [(1, "1 东南大学研究生院")]
    assert "info43620.htm." in entries[0].lines[-1].text


def test_a_bare_number_before_a_sentence_is_no_entry() -> None:
    assert _detect(_section("1 本章列出的文献均按国家标准著录，请在正文中按顺序引用。")) == []
