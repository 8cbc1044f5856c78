"""What the document endpoints accept: query strings and upload forms, validated and described in one place.

drf-spectacular turns a serializer given as `parameters=[...]` into the operation's query parameters, so these
classes are the schema as well as the validation.
"""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.request import Request

from apps.documents.files import CONTENT_TYPES
from apps.documents.models import DocumentStatus
from apps.documents.selectors import DEFAULT_DOCUMENT_SORT, DOCUMENT_SORTS

DOC_TYPES = tuple(CONTENT_TYPES)  # pdf, docx, xlsx, md, txt, html: the types design.md names


class DocumentListQuerySerializer(serializers.Serializer):
    collection = serializers.CharField(max_length=100, help_text="the collection's slug")
    # Blank means "any", as an emptied filter field of a form sends it.
    status = serializers.ChoiceField(choices=DocumentStatus.choices, required=False, allow_blank=True)
    doc_type = serializers.ChoiceField(choices=DOC_TYPES, required=False, allow_blank=True)
    q = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="words of the title or file name (substring)"
    )
    sort = serializers.ChoiceField(
        choices=list(DOCUMENT_SORTS),
        required=False,
        default=DEFAULT_DOCUMENT_SORT,
        help_text="title, year, added (upload time) or status; a leading '-' reverses (default -added: newest first)",
    )


class DocumentUploadSerializer(serializers.Serializer):
    collection = serializers.CharField(max_length=100, help_text="the collection's slug")
    # The service checks emptiness, size and type itself, with messages that name the limit.
    file = serializers.FileField(allow_empty_file=True, use_url=False, help_text="the document")
    force = serializers.BooleanField(
        required=False, default=False, help_text="read the file again when the same bytes are already there"
    )


class PreviewQuerySerializer(serializers.Serializer):
    chunk_index = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=2**31 - 1, help_text="the passage to centre on (0-based)"
    )
    context = serializers.IntegerField(
        required=False, default=2, min_value=0, max_value=20, help_text="passages on each side"
    )


class FileQuerySerializer(serializers.Serializer):
    download = serializers.BooleanField(required=False, default=False, help_text="save the file instead of showing it")


def query(serializer_class: type[serializers.Serializer], request: Request) -> dict:
    """The request's query string validated by `serializer_class`; a 400 naming each bad parameter otherwise."""
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
