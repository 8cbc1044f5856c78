"""REST endpoints for collections and documents. Every object comes through apps.documents.access.

Lists are paginated (REST_FRAMEWORK's portal.api_pagination) and every error has the shared body (portal.api_errors).
"""

from __future__ import annotations

import json
from types import SimpleNamespace

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, renderer_classes
from rest_framework.exceptions import ValidationError
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.documents.access import get_collection_for_user, get_document_for_user, get_ready_document_for_user
from apps.documents.api.params import (
    DocumentListQuerySerializer,
    DocumentUploadSerializer,
    FileQuerySerializer,
    PreviewQuerySerializer,
    query,
)
from apps.documents.api.serializers import (
    ChunkPreviewSerializer,
    CollectionSerializer,
    DocumentSerializer,
    DocumentUploadResultSerializer,
    PreviewSerializer,
)
from apps.documents.files import CONTENT_TYPES, file_response
from apps.documents.locators import locator_label
from apps.documents.models import Collection, Document, Membership
from apps.documents.selectors import attach_queue_positions, collection_documents, collections_with_counts
from apps.documents.services.documents import document_delete
from apps.documents.services.ingest import ingest_enqueue
from apps.documents.services.uploads import UploadRejected, document_add
from portal.api_errors import error_responses


@extend_schema(responses={200: CollectionSerializer(many=True), **error_responses(400, 401)})
class CollectionList(ListAPIView):
    """The collections the caller may read, with their document counts and the caller's role."""

    serializer_class = CollectionSerializer

    def get_queryset(self) -> QuerySet[Collection]:
        return collections_with_counts(self.request.user).order_by("name", "pk")

    def get_serializer_context(self) -> dict:
        roles = Membership.objects.filter(user=self.request.user).values_list("collection_id", "role")
        return super().get_serializer_context() | {"roles": dict(roles)}


class DocumentList(GenericAPIView):
    serializer_class = DocumentSerializer
    parser_classes = [MultiPartParser, FormParser]

    def get_queryset(self) -> QuerySet[Document]:
        params = query(DocumentListQuerySerializer, self.request)
        collection, _rights = get_collection_for_user(self.request.user, params["collection"])
        return collection_documents(
            collection,
            status=params.get("status", ""),
            doc_type=params.get("doc_type", ""),
            text=params.get("q", ""),
            sort=params["sort"],
        )

    @extend_schema(
        parameters=[DocumentListQuerySerializer],
        responses={200: DocumentSerializer(many=True), **error_responses(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        """A collection's documents, filtered and sorted (newest first unless `sort` says otherwise), with their
        status, ingest progress and, while queued, how many jobs wait ahead of theirs."""
        documents = self.get_queryset()
        page = self.paginate_queryset(documents)
        page = list(documents) if page is None else page
        attach_queue_positions(document.latest_job() for document in page)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(
        request={"multipart/form-data": DocumentUploadSerializer},
        responses={
            201: OpenApiResponse(DocumentUploadResultSerializer, description="added; the worker reads it now"),
            200: OpenApiResponse(
                DocumentUploadResultSerializer,
                description="the same bytes were already there: `duplicate`, or `reingested` with force",
            ),
            **error_responses(400, 401, 403, 404, 415),
        },
    )
    def post(self, request: Request) -> Response:
        """Upload a file into a collection (editors and managers); ingestion runs on the worker."""
        body = DocumentUploadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        collection, rights = get_collection_for_user(request.user, body.validated_data["collection"])
        rights.require_edit()
        upload = body.validated_data["file"]
        try:
            result = document_add(
                collection=collection,
                name=upload.name,
                fileobj=upload,
                user=request.user,
                force=body.validated_data["force"],
            )
        except UploadRejected as exc:
            raise ValidationError({"file": [str(exc)]}) from None
        data = DocumentSerializer(result.document).data | {"outcome": result.outcome, "message": result.message}
        code = status.HTTP_201_CREATED if result.outcome == "added" else status.HTTP_200_OK
        return Response(data, status=code)


@extend_schema(methods=["GET"], responses={200: DocumentSerializer, **error_responses(401, 404)})
@extend_schema(
    methods=["DELETE"],
    responses={
        204: OpenApiResponse(description="deleted, with its file and passages"),
        **error_responses(401, 403, 404),
    },
)
@api_view(["GET", "DELETE"])
def document_detail(request: Request, document_id: int) -> Response:
    """One document with its status and ingest progress; DELETE removes it (editors and managers)."""
    document, rights = get_document_for_user(request.user, document_id)
    if request.method == "DELETE":
        rights.require_edit()
        document_delete(document=document)
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(DocumentSerializer(document).data)


@extend_schema(
    request=None,
    responses={
        202: OpenApiResponse(DocumentSerializer, description="queued; poll the document for progress"),
        **error_responses(401, 403, 404),
    },
)
@api_view(["POST"])
def document_reingest(request: Request, document_id: int) -> Response:
    """Read the document again (editors and managers), replacing its passages when the worker is done."""
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
        # Only errors reach a renderer (the file itself is streamed); they are JSON whatever the client asked for.
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return json.dumps(data).encode()


_FILE_TYPES = sorted({value.split(";")[0] for value in CONTENT_TYPES.values()})
_RANGE_HEADERS = [
    OpenApiParameter(
        "Range",
        str,
        OpenApiParameter.HEADER,
        description="one range, `bytes=START-END`, `bytes=START-` or `bytes=-SUFFIX`; others get the whole file",
    ),
    OpenApiParameter(
        "Content-Range",
        str,
        OpenApiParameter.HEADER,
        response=[206, 416],
        description="`bytes START-END/SIZE` (206), `bytes */SIZE` (416)",
    ),
    OpenApiParameter(
        "If-Range",
        str,
        OpenApiParameter.HEADER,
        description="the ETag of the copy being completed; any other value gets the whole file instead of the range",
    ),
    OpenApiParameter(
        "If-None-Match", str, OpenApiParameter.HEADER, description="the ETag of a cached copy: 304 when unchanged"
    ),
    OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        response=[200, 206, 304],
        description="the file's content hash, quoted",
    ),
]


def _binary(description: str, code: int) -> dict:
    return {(code, media): OpenApiResponse(OpenApiTypes.BINARY, description=description) for media in _FILE_TYPES}


@extend_schema(
    parameters=[FileQuerySerializer, *_RANGE_HEADERS],
    responses={
        **_binary("the whole file", 200),
        **_binary("the requested range (Content-Range says which)", 206),
        304: OpenApiResponse(description="If-None-Match named this file's ETag: the cached copy is current; no body"),
        416: OpenApiResponse(description="the range lies beyond the file (Content-Range: bytes */SIZE); no body"),
        **{(code, "application/json"): response for code, response in error_responses(400, 401, 404).items()},
    },
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, AnyMediaRenderer])
def document_file(request: Request, document_id: int) -> HttpResponse:
    """The original file, streamed with its own content type; a `Range: bytes=…` request gets 206 with that part."""
    params = query(FileQuerySerializer, request)
    document, _rights = get_document_for_user(request.user, document_id)
    return file_response(request, document, download=params["download"])


@extend_schema(
    parameters=[PreviewQuerySerializer],
    responses={200: PreviewSerializer, **error_responses(400, 401, 404)},
)
@api_view(["GET"])
def document_preview(request: Request, document_id: int) -> Response:
    """The passages around one passage of a document, each with its locator."""
    params = query(PreviewQuerySerializer, request)
    return Response(preview_data(request.user, document_id, **params))


def preview_data(user, document_id: int, *, chunk_index: int, context: int) -> dict:
    """The preview's body for `user` (the REST endpoint and the MCP tool alike): Http404 for a document they may
    not read or that is not READY (its passages are the old or half-written ones meanwhile), ValidationError for
    a chunk_index past the last passage."""
    document, _rights = get_ready_document_for_user(user, document_id)
    total = document.chunks.count()
    if chunk_index > max(total - 1, 0):
        raise ValidationError({"chunk_index": [f"must be between 0 and {max(total - 1, 0)}"]})
    chunks = document.chunks.filter(chunk_index__gte=chunk_index - context, chunk_index__lte=chunk_index + context)
    items = [
        # section, page and the whole locator also at the top level (issue 7), `metadata` as design.md has it
        item
        | {
            "is_target": item["chunk_index"] == chunk_index,
            "section": item["metadata"]["section"],
            "page": item["metadata"]["page"],
            "locator": item["metadata"],
            # the words of the source cards, so the viewer's panel and MCP need no copy of the rule
            "place": locator_label(SimpleNamespace(**item["metadata"], doc_type=document.doc_type)),
        }
        for item in ChunkPreviewSerializer(chunks.order_by("chunk_index"), many=True).data
    ]
    return {
        "document_id": document.pk,
        "doc_type": document.doc_type,
        "total_chunks": total,
        "target_index": chunk_index,
        "chunks": items,
    }
