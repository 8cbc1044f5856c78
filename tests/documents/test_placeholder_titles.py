"""A title a template, a program or a file left in the document's properties is no title (issue 16: a DOCX showed
everywhere as "标准名称", the title property of a Chinese standard's Word template; a PDF as its LaTeX template's
name): it is treated as absent, and the heading the document opens with is used instead, marked as guessed. Real
titles, those printed in the document, are kept; placeholder author fields ("Administrator", "XXX") are dropped."""

from __future__ import annotations

import io

import docx
import pymupdf
import pytest
from docx.oxml.ns import qn

from apps.documents.parsing import parse_document
from apps.documents.parsing.placeholders import is_placeholder_author, is_placeholder_title
from apps.documents.parsing.textutil import normalise_for_match

CITESEE = "CiteSee: Augmenting Citations in Scientific Papers with Persistent and Personalized Historical Context"
TEMPLATE_TITLES = ("标准名称", "Title", "Microsoft Word - 文档2.docx", "Document1", "Untitled", "Thesis Template")


def _docx_with_properties(path, **properties) -> bytes:
    document = docx.Document(str(path))
    for name, value in properties.items():
        setattr(document.core_properties, name, value)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("title", TEMPLATE_TITLES)
def test_a_docx_with_a_template_title_gets_its_opening_heading_as_a_guessed_title(shared_corpus, title):
    path = shared_corpus / "docx-pandoc-tests" / "headers" / "headers.docx"
    data = _docx_with_properties(path, title=title, author="Administrator")
    metadata = parse_document(data, "报告.docx").metadata
    assert (metadata["title"], metadata["title_guessed"]) == ("A Test of Headers", True)
    assert "authors" not in metadata  # an account name is nobody's name


def test_a_docx_template_title_over_a_section_heading_leaves_no_title(shared_corpus):
    """A document that opens with "References" or "Contents" has no title to guess: rather none than that."""
    path = shared_corpus / "docx-pandoc-tests" / "zotero_citations" / "zotero_citations.docx"
    metadata = parse_document(_docx_with_properties(path, title="标准名称"), "x.docx").metadata
    assert "title" not in metadata


def test_every_docx_of_the_corpora_keeps_a_title_it_prints(shared_corpus):
    """A title property that the document prints (in its body or a text box) is its title, guessed nowhere."""
    kept = 0
    for path in sorted(shared_corpus.glob("docx-*/**/*.docx")):
        document = docx.Document(str(path))
        props = document.core_properties
        body = " ".join(t.text or "" for t in document.element.body.iter(qn("w:t")))
        title = (props.title or "").strip()
        if len(title) >= 3 and normalise_for_match(title) in normalise_for_match(body):  # "U sing Microsoft Word"
            metadata = parse_document(path.read_bytes(), path.name).metadata
            assert metadata.get("title") == title and not metadata.get("title_guessed"), path
            kept += 1
    assert kept >= 1
    # and the "Title"-styled paragraph of a document whose properties name none is its title, not a guess
    metadata = parse_document((shared_corpus / "docx-pandoc-tests" / "metadata" / "metadata.docx").read_bytes(), "m")
    assert metadata.metadata["title"] == "This Is the Title" and not metadata.metadata.get("title_guessed")


@pytest.mark.parametrize(
    ("name", "placeholder", "printed"),
    [
        ("zh_paper_elegantpaper_cn.pdf", "elegantpaper", "ElegantPaper: 一个优美的LATEX 工作论文模板"),
        ("acm_chi2023_citesee_arxiv2302.07302.pdf", "Microsoft Word - citesee_final.docx", CITESEE),
        ("acm_chi2023_citesee_arxiv2302.07302.pdf", "XXX大学学位论文LaTeX模板", CITESEE),
        ("nips2008_image_denoising_cnn.pdf", "Thesis Template", "Natural Image Denoising with Convolutional Networks"),
    ],
)
def test_a_pdf_with_a_template_title_gets_the_first_page_title_as_a_guess(shared_corpus, name, placeholder, printed):
    with pymupdf.open(shared_corpus / "pdf-varied" / name) as doc:
        doc.set_metadata({**doc.metadata, "title": placeholder})
        data = doc.tobytes()
    metadata = parse_document(data, name).metadata
    assert (metadata["title"], metadata["title_guessed"]) == (printed, True)


def test_a_thesis_cover_gives_the_labelled_title_not_its_generic_heading(shared_corpus):
    """The cover sets "MASTER THESIS" in its largest type and the thesis's title beside the label "论文题目"."""
    name = "zh_thesis_dlnu_master_template.pdf"
    metadata = parse_document((shared_corpus / "pdf-varied" / name).read_bytes(), name).metadata
    assert (metadata["title"], metadata["title_guessed"]) == ("基于XƎLATEX 的大连民族大学硕士学位论文撰写模板", True)


def test_real_pdf_title_fields_are_kept(shared_corpus):
    for name, title in (
        ("acl2020_s2orc.pdf", "S2ORC: The Semantic Scholar Open Research Corpus"),
        ("ieeetran_arxiv1601.03642_creativity_ml.pdf", "Art in Machine Learning"),
        ("odd_form_irs_f1040nr.pdf", "2007 Form 1040NR"),
    ):
        metadata = parse_document((shared_corpus / "pdf-varied" / name).read_bytes(), name).metadata
        assert metadata["title"] == title and not metadata.get("title_guessed")


def test_the_placeholder_tests():
    opening = "正文 " * 100 + "Deep learning for image recognition"
    for title in (*TEMPLATE_TITLES, "Word Document", "<%Title%>", "elegantpaper", "MASTER THESIS", "硕士学位论文"):
        assert is_placeholder_title(title), title
    # a title printed nowhere in the opening text; one printed there, with its own spacing and case
    assert is_placeholder_title("北京理工大学本科生毕业设计（论文）LaTeX模板", opening)
    assert not is_placeholder_title("Deep Learning for Image Recognition", opening)
    assert not is_placeholder_title("Using Microsoft Word 2007/2010 for Writing Technical Documents")
    assert not is_placeholder_title("基于深度学习的图像识别研究")
    for author in ("XXX", "作者", "Administrator", "User", "Windows 用户", "Microsoft Office User", ""):
        assert is_placeholder_author(author), author
    for author in ("张三", "Jesse Rosenthal", "Friederike Range and Zsófia Virányi"):
        assert not is_placeholder_author(author), author
