"""Placeholder until the document renderer lands (issue 7): every non-PDF document as escaped paragraphs."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from apps.documents.models import Document
from apps.documents.parsing.registry import parse_document


def document_html(document: Document) -> SafeString:
    with document.file.open("rb") as handle:
        parsed = parse_document(handle.read(), document.original_name)
    return format_html_join(
        "\n", '<p id="{}">{}</p>', ((block.para_id or f"p{block.para_no}", block.text) for block in parsed.blocks)
    ) or format_html("<p>{}</p>", "This document has no text.")
