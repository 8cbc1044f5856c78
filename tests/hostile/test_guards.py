"""The cheap checks before a parser opens a file, and the libraries' own behaviour behind them."""

from __future__ import annotations

import io
import re

import docx
import openpyxl
import pytest
from lxml import etree

from apps.documents.parsing import ParseError, ReadLimits, parse_document
from apps.documents.parsing.guards import check_before_parse
from tests.hostile import builders


def _refusal(data: bytes, name: str, limits: ReadLimits | None = None) -> str:
    with pytest.raises(ParseError) as info:
        parse_document(data, name, limits=limits)
    return str(info.value)


def test_a_word_file_that_would_unpack_past_the_limit_is_refused_unread():
    bomb = builders.replace_parts(builders.docx_bytes(["bomb"]), {}, extra={"word/media/bomb.bin": 40})
    reason = _refusal(bomb, "bomb.docx", ReadLimits(max_unzipped_mb=32))
    unpacked = re.match(r"The file would unpack to (\d+) MB, more than the 32 MB allowed;", reason)
    assert unpacked and 40 <= int(unpacked.group(1)) <= 41  # the 40 MB part and the document's own parts
    assert "zip bomb" in reason


def test_a_part_compressed_beyond_any_real_document_is_refused():
    bomb = builders.replace_parts(builders.xlsx_bytes([["ratio"]]), {}, extra={"xl/media/ratio.bin": 20})
    reason = _refusal(bomb, "ratio.xlsx")
    assert reason.startswith("A part of the file (xl/media/ratio.bin) is compressed more than 100 to 1")


def test_ordinary_office_files_pass_the_checks():
    check_before_parse("docx", builders.docx_bytes(["An ordinary paragraph."] * 200), ReadLimits())
    check_before_parse("xlsx", builders.xlsx_bytes([["a", "b"]] * 500), ReadLimits())
    assert parse_document(builders.docx_bytes(["An ordinary paragraph."]), "fine.docx").blocks


@pytest.mark.parametrize(
    ("data", "name", "part"),
    [
        (builders.docx_billion_laughs(), "laughs.docx", "word/document.xml"),
        (builders.xlsx_billion_laughs(), "laughs.xlsx", "xl/worksheets/sheet1.xml"),
    ],
)
def test_xml_with_a_doctype_is_refused_with_the_part_named(data, name, part):
    assert _refusal(data, name).startswith(f"A part of the file ({part}) carries an XML DOCTYPE declaration")


def test_the_libraries_do_not_expand_entities_even_without_the_check():
    # python-docx's parser resolves no entities and libxml2 caps amplification; openpyxl's expat does too.
    with pytest.raises(etree.XMLSyntaxError, match="amplification"):
        docx.Document(io.BytesIO(builders.docx_billion_laughs()))
    with pytest.raises(Exception, match="amplification"):
        workbook = openpyxl.load_workbook(io.BytesIO(builders.xlsx_billion_laughs()), read_only=True)
        list(workbook.active.iter_rows(values_only=True))


def test_a_pdf_above_the_page_limit_is_refused_before_its_pages_are_read():
    reason = _refusal(builders.pdf_many_pages(12, "twelve pages"), "long.pdf", ReadLimits(max_pdf_pages=10))
    assert reason == "The PDF has 12 pages, more than the 10 allowed; split it into smaller files and upload those."
    assert parse_document(builders.pdf_many_pages(10, "ten pages"), "ok.pdf", limits=ReadLimits(max_pdf_pages=10))


def test_an_encrypted_pdf_asks_for_the_password_to_be_removed():
    assert _refusal(builders.pdf_encrypted("secret"), "locked.pdf") == (
        "The PDF is password-protected; remove the password and upload it again."
    )


def test_a_pdf_of_images_only_is_read_as_pages_that_need_ocr():
    parsed = parse_document(builders.pdf_image_only(90), "scan.pdf")
    assert parsed.needs_ocr_pages == [1]
    assert parsed.blocks == []


def test_a_part_name_from_the_file_reaches_the_reason_cut_short_and_without_control_characters():
    name = "word/<b>\x07" + "x" * 200 + ".xml"
    package = builders.with_part(builders.docx_bytes(["named"]), name, builders.billion_laughs(b"<root/>"))
    reason = _refusal(package, "named.docx")
    shown = reason.split("(", 1)[1].split(")", 1)[0]
    assert shown.startswith("word/<b>xxx") and shown.endswith("…") and len(shown) == 80
