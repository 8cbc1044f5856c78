"""REST endpoints for collections and documents. Every object comes through apps.documents.access."""

from __future__ import annotations

import json

from django.db.models import Count
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, parser_classes, renderer_classes
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.citations.services.chains import reference_item
from apps.citations.services.related import related_documents
from apps.documents.access import get_collection_for_user, get_document_for_user
from apps.documents.api.serializers import (
    ChunkPreviewSerializer,
    CollectionSerializer,
    DocumentSerializer,
    PreviewSerializer,
)
from apps.documents.files import file_response
from apps.documents.models import Membership
from apps.documents.selectors import collections_with_counts
from apps.documents.services.documents import document_delete
from apps.documents.services.ingest import ingest_enqueue
from apps.documents.services.uploads import UploadRejected, document_add


def _int_param(request: Request, name: str, default: int, *, minimum: int = 0, maximum: int = 10**9) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({name: ["must be a whole number"]}) from None
    if not minimum <= value <= maximum:
        raise ValidationError({name: [f"must be between {minimum} and {maximum}"]})
    return value


@extend_schema(responses=CollectionSerializer(many=True))
@api_view(["GET"])
def collection_list(request: Request) -> Response:
    collections = collections_with_counts(request.user)
    roles = dict(Membership.objects.filter(user=request.user).values_list("collection_id", "role"))
    data = CollectionSerializer(collections, many=True, context={"roles": roles}).data
    return Response(data)


@extend_schema(
    methods=["GET"],
    parameters=[OpenApiParameter("collection", str, required=True, description="collection slug")],
    responses=DocumentSerializer(many=True),
)
@extend_schema(
    methods=["POST"],
    request={
        "multipart/form-data": {
            "type": "object",
            "properties": {
                "collection": {"type": "string"},
                "file": {"type": "string", "format": "binary"},
                "force": {"type": "boolean"},
            },
        }
    },
    responses={201: DocumentSerializer, 200: DocumentSerializer},
)
@api_view(["GET", "POST"])
@parser_classes([MultiPartParser, FormParser])
def document_list(request: Request) -> Response:
    params = request.query_params if request.method == "GET" else request.data
    slug = params.get("collection")
    if not slug:
        raise ValidationError({"collection": ["the collection's slug is required"]})
    collection, rights = get_collection_for_user(request.user, slug)
    if request.method == "GET":
        documents = collection.documents.prefetch_related("jobs").all()
        return Response(DocumentSerializer(documents, many=True).data)

    rights.require_edit()
    upload = request.FILES.get("file")
    if upload is None:
        raise ValidationError({"file": ["attach the file as multipart field 'file'"]})
    force = str(request.data.get("force", "")).lower() in {"1", "true", "yes"}
    try:
        result = document_add(collection=collection, name=upload.name, fileobj=upload, user=request.user, force=force)
    except UploadRejected as exc:
        raise ValidationError({"file": [str(exc)]}) from None
    body = DocumentSerializer(result.document).data | {"outcome": result.outcome, "message": result.message}
    code = status.HTTP_201_CREATED if result.outcome == "added" else status.HTTP_200_OK
    return Response(body, status=code)


@extend_schema(methods=["GET"], responses=DocumentSerializer)
@extend_schema(methods=["DELETE"], responses={204: None})
@api_view(["GET", "DELETE"])
def document_detail(request: Request, document_id: int) -> Response:
    document, rights = get_document_for_user(request.user, document_id)
    if request.method == "DELETE":
        rights.require_edit()
        document_delete(document=document)
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(DocumentSerializer(document).data)


@extend_schema(request=None, responses={202: DocumentSerializer})
@api_view(["POST"])
def document_reingest(request: Request, document_id: int) -> Response:
    document, rights = get_document_for_user(request.user, document_id)
    rights.require_edit()
    ingest_enqueue(document)
    document.refresh_from_db()
    return Response(DocumentSerializer(document).data, status=status.HTTP_202_ACCEPTED)


class AnyMediaRenderer(BaseRenderer):
    """Lets any Accept header through to the file endpoint (PDF.js, browsers and curl all ask differently)."""

    media_type = "*/*"
    format = "file"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return json.dumps(data).encode()  # only errors reach a renderer; the file itself is streamed


@extend_schema(
    parameters=[OpenApiParameter("download", bool, description="save the file instead of showing it")],
    responses={(200, "application/octet-stream"): bytes, (206, "application/octet-stream"): bytes},
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, AnyMediaRenderer])
def document_file(request: Request, document_id: int) -> HttpResponse:
    """The original file, streamed; a `Range: bytes=…` request gets 206 with that part."""
    document, _rights = get_document_for_user(request.user, document_id)
    return file_response(request, document, download=request.query_params.get("download") in ("1", "true"))


@extend_schema(
    parameters=[
        OpenApiParameter("chunk_index", int, description="the passage to centre on (default 0)"),
        OpenApiParameter("context", int, description="passages on each side (default 2, at most 20)"),
    ],
    responses=PreviewSerializer,
)
@api_view(["GET"])
def document_preview(request: Request, document_id: int) -> Response:
    document, _rights = get_document_for_user(request.user, document_id)
    total = document.chunks.count()
    target = _int_param(request, "chunk_index", 0, maximum=max(total - 1, 0))
    context = _int_param(request, "context", 2, maximum=20)
    chunks = document.chunks.filter(chunk_index__gte=target - context, chunk_index__lte=target + context)
    items = [
        # section, page and the whole locator also at the top level (issue 7), `metadata` as design.md has it
        item
        | {
            "is_target": item["chunk_index"] == target,
            "section": item["metadata"]["section"],
            "page": item["metadata"]["page"],
            "locator": item["metadata"],
        }
        for item in ChunkPreviewSerializer(chunks.order_by("chunk_index"), many=True).data
    ]
    return Response({"document_id": document.pk, "total_chunks": total, "target_index": target, "chunks": items})


@extend_schema(responses={200: dict})
@api_view(["GET"])
def document_references(request: Request, document_id: int) -> Response:
    """The document's reference list, each entry with its library link and how often the text cites it."""
    document, _rights = get_document_for_user(request.user, document_id)
    references = (
        document.references.select_related("matched_document", "document")
        .annotate(mention_count=Count("mentions"))
        .order_by("index")
    )
    items = [reference_item(r) | {"mentions": r.mention_count, "chunk_indices": r.chunk_indices} for r in references]
    return Response({"document_id": document.pk, "count": len(items), "references": items})


@extend_schema(responses={200: dict})
@api_view(["GET"])
def document_related(request: Request, document_id: int) -> Response:
    """Documents of the same collection that resemble this one (never mixed with its citation links)."""
    document, _rights = get_document_for_user(request.user, document_id)
    limit = _int_param(request, "limit", 5, minimum=1, maximum=50)
    return Response({"document_id": document.pk, "related": related_documents(document, limit)})
