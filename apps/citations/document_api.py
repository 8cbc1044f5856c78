"""GET /api/v1/documents/{id}/references and /related: what citations knows about one document, served beside
documents' own endpoints (same paths; routed in portal/urls.py). Every document comes through
apps.documents.access."""

from __future__ import annotations

from django.db.models import Count, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from apps.citations.models import Reference
from apps.citations.services.chains import reference_item
from apps.citations.services.related import related_documents
from apps.documents.access import get_document_for_user
from apps.documents.api.params import query
from portal.api_errors import error_responses


class CitedInSerializer(serializers.Serializer):
    document_id = serializers.IntegerField()
    title = serializers.CharField()


class ReferenceSerializer(serializers.Serializer):
    """One entry of a document's reference list with its library link (apps.citations.services.chains), and how
    often the text cites it. Expects references annotated with `mention_count`."""

    ref_no = serializers.IntegerField(help_text="the printed number, or the position in an author-year list")
    label = serializers.CharField()
    text = serializers.CharField()
    doi = serializers.CharField()
    year = serializers.IntegerField(allow_null=True)
    first_author = serializers.CharField()
    title = serializers.CharField()
    in_library = serializers.IntegerField(allow_null=True, help_text="the id of the same work in this collection")
    library_title = serializers.CharField(allow_null=True)
    match_method = serializers.CharField(help_text="how the library link was found; empty when there is none")
    cited_in = CitedInSerializer()
    mentions = serializers.IntegerField(help_text="in-text citations of this entry")
    chunk_indices = serializers.ListField(child=serializers.IntegerField(), help_text="passages that cite it")

    def to_representation(self, reference: Reference) -> dict:
        # One shape with the answers and the document page: reference_item builds it for all of them.
        return reference_item(reference) | {
            "mentions": reference.mention_count,
            "chunk_indices": reference.chunk_indices,
        }


class RelatedDocumentSerializer(serializers.Serializer):
    document_id = serializers.IntegerField()
    title = serializers.CharField()
    score = serializers.FloatField()
    similarity = serializers.FloatField(allow_null=True, help_text="cosine similarity of the documents' centroids")
    shared_authors = serializers.ListField(child=serializers.CharField())
    same_journal = serializers.BooleanField()
    reasons = serializers.ListField(child=serializers.CharField())


class RelatedSerializer(serializers.Serializer):
    """The shape of GET /api/v1/documents/{id}/related (schema only)."""

    document_id = serializers.IntegerField()
    related = RelatedDocumentSerializer(many=True)


class RelatedQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(required=False, default=5, min_value=1, max_value=50)


@extend_schema(responses={200: ReferenceSerializer(many=True), **error_responses(400, 401, 404)})
class ReferenceList(ListAPIView):
    """The document's reference list in order, each entry with its library link and how often the text cites it."""

    serializer_class = ReferenceSerializer

    def get_queryset(self) -> QuerySet[Reference]:
        document, _rights = get_document_for_user(self.request.user, self.kwargs["document_id"])
        return (
            document.references.select_related("matched_document", "document")
            .annotate(mention_count=Count("mentions"))
            .order_by("index")
        )


@extend_schema(
    parameters=[RelatedQuerySerializer], responses={200: RelatedSerializer, **error_responses(400, 401, 404)}
)
@api_view(["GET"])
def document_related(request: Request, document_id: int) -> Response:
    """Documents of the same collection that resemble this one (never mixed with its citation links)."""
    params = query(RelatedQuerySerializer, request)
    document, _rights = get_document_for_user(request.user, document_id)
    return Response({"document_id": document.pk, "related": related_documents(document, params["limit"])})
