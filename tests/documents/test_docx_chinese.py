"""Chinese DOCX: headings from styles named "标题 N" (and custom styles based on them) drive the heading path."""

from __future__ import annotations

import io

import docx
from docx.enum.style import WD_STYLE_TYPE

from apps.documents.parsing import chunk_document, parse_document


def _chinese_docx() -> bytes:
    document = docx.Document()
    chapter = document.styles.add_style("标题 1", WD_STYLE_TYPE.PARAGRAPH)
    section = document.styles.add_style("论文小节", WD_STYLE_TYPE.PARAGRAPH)
    section.base_style = document.styles.add_style("标题 2", WD_STYLE_TYPE.PARAGRAPH)
    document.add_paragraph("引言", style=chapter)
    document.add_paragraph("深度学习模型需要大量的标注数据进行训练。", style="Normal")
    document.add_paragraph("数据来源", style=section)
    document.add_paragraph("我们从三个公开数据集中收集了样本。", style="Normal")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_chinese_heading_styles_make_the_heading_path():
    parsed = parse_document(_chinese_docx(), "论文.docx")
    headings = [(b.text, b.kind) for b in parsed.blocks if b.kind == "heading"]
    assert headings == [("引言", "heading"), ("数据来源", "heading")]
    body = [b for b in parsed.blocks if b.text.startswith("我们")]
    assert body[0].heading_path == ("引言", "数据来源")
    chunks = chunk_document(parsed)
    # shown as printed, recognised as the canonical Introduction for weights and filters
    assert any(c.section == "引言" and c.section_key == "Introduction" and "深度学习" in c.text for c in chunks)
