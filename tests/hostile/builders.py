"""Byte builders for hostile files: PDFs written in raw syntax, Word and Excel packages with chosen parts, bombs.

Everything is generated at test time (nothing binary is committed); bombs are built in a few milliseconds from
one compressed block repeated, so a gigabyte bomb costs a megabyte of memory to make.
"""

from __future__ import annotations

import functools
import io
import zipfile
import zlib

import docx
import openpyxl
import pymupdf

MB = 1024 * 1024
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
S_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def pdf_from_objects(objects: list[bytes], *, trailer_extra: bytes = b"") -> bytes:
    """A PDF with these objects numbered 1.. (object 1 is the catalog), a correct xref table and trailer."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, trailer_extra, xref)
    )
    return out.getvalue()


def pdf_stream(raw: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n%s\nendstream" % (len(raw), extra, raw)


@functools.cache
def deflated_zeros(megabytes: int) -> bytes:
    """zlib data that inflates to `megabytes` MB of NUL bytes. Raw deflate blocks, each 1 MB fully flushed so
    that every block after the first compresses to the same bytes (compress two, repeat the second), wrapped in
    a zlib header and the Adler-32 of n zeros, which is 1 + (n mod 65521) << 16."""
    block = b"\0" * MB
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    body = first + repeated * (megabytes - 1) + compressor.flush()
    adler = (((megabytes * MB) % 65521) << 16) | 1
    return b"\x78\xda" + body + adler.to_bytes(4, "big")


_CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"
_PAGES_1 = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
_PAGE = (
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
)
_HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def pdf_text(line: str) -> bytes:
    """A one-page PDF that shows `line` (ASCII) in Helvetica."""
    text = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")
    content = b"BT /F1 12 Tf 72 720 Td (%s) Tj ET" % text
    return pdf_from_objects([_CATALOG, _PAGES_1, _PAGE, pdf_stream(content), _HELVETICA])


def pdf_content_bomb(megabytes: int) -> bytes:
    """A page whose content stream inflates to `megabytes` MB of NULs: CPU time, no text, little memory."""
    content = pdf_stream(deflated_zeros(megabytes), b"/Filter /FlateDecode")
    return pdf_from_objects([_CATALOG, _PAGES_1, _PAGE, content, _HELVETICA])


def pdf_font_bomb(megabytes: int) -> bytes:
    """A page whose embedded font program inflates to `megabytes` MB: MuPDF loads a font program whole."""
    font = (
        b"<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 /Widths [] "
        b"/FontDescriptor 6 0 R >>"
    )
    descriptor = (
        b"<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 "
        b"/Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>"
    )
    program = pdf_stream(deflated_zeros(megabytes), b"/Filter /FlateDecode")
    content = pdf_stream(b"BT /F1 12 Tf 72 720 Td (Hello bomb) Tj ET")
    return pdf_from_objects([_CATALOG, _PAGES_1, _PAGE, content, font, descriptor, program])


def pdf_lying_page_count(count: int) -> bytes:
    """One real page under a page tree that claims `count` pages."""
    pages = b"<< /Type /Pages /Kids [3 0 R] /Count %d >>" % count
    content = pdf_stream(b"BT /F1 12 Tf 72 720 Td (One real page) Tj ET")
    return pdf_from_objects([_CATALOG, pages, _PAGE, content, _HELVETICA])


def pdf_many_pages(count: int, text: str) -> bytes:
    doc = pymupdf.open()
    for number in range(count):
        page = doc.new_page()
        if number == 0:
            page.insert_text((72, 72), text)
    return doc.tobytes(garbage=0)


def pdf_encrypted(text: str) -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text)
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner-secret", user_pw="user-secret")


def pdf_image_only(shade: int) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 300, 400), False)
    pixmap.clear_with(shade)
    page.insert_image(pymupdf.Rect(72, 72, 372, 472), pixmap=pixmap)
    return doc.tobytes()


def pdf_with_metadata(title: str, lines: list[str]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(lines):
        page.insert_text((72, 72 + 18 * i), line)
    doc.set_metadata({"title": title})
    return doc.tobytes()


def docx_bytes(paragraphs: list[str], *, title: str = "", heading: str = "") -> bytes:
    document = docx.Document()
    if heading:
        document.add_heading(heading, level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    if title:
        document.core_properties.title = title
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def xlsx_bytes(rows: list[list[str]]) -> bytes:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def replace_parts(package: bytes, parts: dict[str, bytes], *, extra: dict[str, int] | None = None) -> bytes:
    """The ZIP `package` with some parts replaced, plus `extra` parts of N MB of spaces each (streamed)."""
    source = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info.filename, parts.get(info.filename, source.read(info.filename)))
        for name, megabytes in (extra or {}).items():
            with target.open(name, "w", force_zip64=True) as member:
                block = b" " * MB
                for _ in range(megabytes):
                    member.write(block)
    return out.getvalue()


def with_part(package: bytes, name: str, data: bytes) -> bytes:
    """The ZIP `package` with one more part."""
    out = io.BytesIO(package)
    with zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED) as target:
        target.writestr(name, data)
    return out.getvalue()


def billion_laughs(root: bytes) -> bytes:
    """An XML part whose DOCTYPE defines ten levels of tenfold entities (10^9 "lol"s) and uses the last."""
    entities = b'<!ENTITY lol "lol">' + b"".join(
        b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10) for i in range(1, 10)
    )
    return b'<?xml version="1.0"?>\n<!DOCTYPE lolz [' + entities + b"]>\n" + root


def docx_billion_laughs() -> bytes:
    body = (
        b'<w:document xmlns:w="' + W_NS.encode() + b'"><w:body><w:p><w:r><w:t>start &lol9; end</w:t></w:r></w:p>'
        b"</w:body></w:document>"
    )
    return replace_parts(docx_bytes(["placeholder"]), {"word/document.xml": billion_laughs(body)})


def xlsx_billion_laughs() -> bytes:
    sheet = (
        b'<worksheet xmlns="' + S_NS.encode() + b'"><sheetData><row r="1"><c r="A1" t="inlineStr"><is>'
        b"<t>start &lol9; end</t></is></c></row></sheetData></worksheet>"
    )
    return replace_parts(xlsx_bytes([["placeholder"]]), {"xl/worksheets/sheet1.xml": billion_laughs(sheet)})


def multipart_body(fields: dict[str, str], filename: str, content: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body carrying `filename` exactly as given (Django's test client would reduce it to
    its base name before sending, hiding what a hostile client can send). Quotes and line breaks are
    percent-encoded as browsers do; everything else, NUL and control characters included, goes raw."""
    boundary = "hostileBoundary7MA4YWxkTrZu0gW"
    escaped = filename.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
    lines: list[bytes] = []
    for key, value in fields.items():
        lines += [
            f"--{boundary}".encode(),
            f'Content-Disposition: form-data; name="{key}"'.encode(),
            b"",
            value.encode(),
        ]
    lines += [
        f"--{boundary}".encode(),
        f'Content-Disposition: form-data; name="file"; filename="{escaped}"'.encode(),
        b"Content-Type: application/octet-stream",
        b"",
        content,
        f"--{boundary}--".encode(),
        b"",
    ]
    return b"\r\n".join(lines), f"multipart/form-data; boundary={boundary}"
