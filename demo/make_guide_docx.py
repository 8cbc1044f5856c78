"""Write demo/portal-guide.docx, the short user guide shipped in the demo collection.

Run with the project's Python:  .venv/bin/python demo/make_guide_docx.py

The text is original to this project (Apache-2.0, like the rest of the repository).
The output is deterministic: the core-properties dates are fixed and the ZIP entries
get a fixed timestamp, so re-running the script produces the same file byte for byte.
"""

from __future__ import annotations

import datetime as dt
import io
import sys
import zipfile
from pathlib import Path

from docx import Document
from docx.shared import Pt

OUT = Path(__file__).resolve().parent / "portal-guide.docx"

TITLE = "The team knowledge portal: a short user guide"
AUTHOR = "Knowledge Portal team"
FIXED_DATE = dt.datetime(2025, 1, 1, 0, 0, 0)
ZIP_DATE = (2025, 1, 1, 0, 0, 0)

ROLES = [
    # role, can read, can upload, can manage members
    ("Viewer", "Yes", "No", "No"),
    ("Editor", "Yes", "Yes", "No"),
    ("Manager", "Yes", "Yes", "Yes"),
]


def build() -> Document:
    doc = Document()

    doc.add_heading(TITLE, level=0)
    doc.add_paragraph(
        "The knowledge portal keeps the papers, reports and notes that the team relies on in one place, "
        "lets you ask questions about them in plain language, and answers with citations that open the "
        "exact place in the source. This guide explains the few ideas you need to use it well."
    )

    doc.add_heading("Collections", level=1)
    doc.add_paragraph(
        "A collection is a shelf of documents that belong together, for example the papers behind one "
        "project or the procedures of one lab. Every document lives in exactly one collection, and a "
        "question is always asked of one collection: the portal only searches and cites documents you "
        "are allowed to read there."
    )
    doc.add_paragraph("A collection can hold these kinds of files:")
    doc.add_paragraph("PDF files, such as published papers and reports;", style="List Bullet")
    doc.add_paragraph("Word documents (DOCX), such as this guide;", style="List Bullet")
    doc.add_paragraph("plain text and Markdown files, such as notes and README files.", style="List Bullet")
    doc.add_paragraph(
        "After an upload the portal reads the file, splits it into passages and indexes them. The "
        "document page shows the progress; a document can be cited as soon as it is marked Ready."
    )

    doc.add_heading("Roles", level=1)
    doc.add_paragraph(
        "Access is granted per collection. Each member of a collection has one role, and a person can "
        "have different roles in different collections."
    )
    table = doc.add_table(rows=1, cols=4)
    table.style = "Table Grid"
    header = table.rows[0].cells
    for cell, text in zip(header, ("Role", "Can read", "Can upload", "Can manage members"), strict=True):
        cell.text = ""
        cell.paragraphs[0].add_run(text).bold = True
    for row in ROLES:
        cells = table.add_row().cells
        for cell, text in zip(cells, row, strict=True):
            cell.text = text
    doc.add_paragraph(
        "Viewers read documents and ask questions. Editors also add and remove documents. Managers also "
        "invite people, change their roles and edit the collection's name and description."
    )

    doc.add_heading("Answers and citations", level=1)
    doc.add_paragraph(
        "Every statement in an answer should carry a numbered citation such as [1]. A citation names the "
        "document and points to a precise location in it, so that you can read the original words "
        "instead of trusting a summary."
    )
    doc.add_heading("Where a citation points", level=2)
    doc.add_paragraph(
        "PDF: a page number, and the passage is highlighted on that page of the original file.",
        style="List Bullet",
    )
    doc.add_paragraph(
        "DOCX: a paragraph number, counted from the start of the document, and the cited paragraphs are highlighted.",
        style="List Bullet",
    )
    doc.add_paragraph(
        "Text and Markdown: a range of line numbers, for example lines 12 to 18.",
        style="List Bullet",
    )
    doc.add_paragraph("If the portal cannot place a passage more precisely it cites the whole file, and says so.")

    doc.add_heading("How to check an answer", level=2)
    doc.add_paragraph("An answer is a starting point, not a source. Before you rely on it, check it:")
    doc.add_paragraph("Read the answer once and note which sentences matter for your work.", style="List Number")
    doc.add_paragraph(
        "Open the citation attached to each of those sentences; the source opens at the cited page, "
        "paragraph or lines.",
        style="List Number",
    )
    doc.add_paragraph(
        "Compare the highlighted passage with the sentence: it should say the same thing, with the "
        "same numbers, units and conditions.",
        style="List Number",
    )
    doc.add_paragraph(
        "Treat a sentence without a citation, or with a citation that does not support it, as "
        "unverified, and ask again or read the document yourself.",
        style="List Number",
    )
    doc.add_paragraph(
        "When you quote the portal in your own work, cite the original document, not the portal.",
        style="List Number",
    )

    doc.add_heading("Getting help", level=1)
    doc.add_paragraph(
        "If a document stays in the Failed state, or a citation opens the wrong place, tell an editor or "
        "a manager of the collection: the document page shows the error, and they can replace the file."
    )

    for para in doc.paragraphs:
        if para.style.name == "Normal":
            para.paragraph_format.space_after = Pt(6)

    props = doc.core_properties
    props.title = TITLE
    props.author = AUTHOR
    props.last_modified_by = AUTHOR
    props.subject = "User guide"
    props.keywords = "knowledge portal; collections; roles; citations"
    props.comments = "Generated by demo/make_guide_docx.py"
    props.language = "en"
    props.revision = 1
    props.created = FIXED_DATE
    props.modified = FIXED_DATE
    props.last_printed = FIXED_DATE
    return doc


def normalised_zip(data: bytes) -> bytes:
    """Rewrite the package with fixed entry timestamps and order, so the bytes are reproducible."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            dst.writestr(entry, src.read(info.filename))
    return out.getvalue()


def main() -> int:
    buf = io.BytesIO()
    build().save(buf)
    OUT.write_bytes(normalised_zip(buf.getvalue()))
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
