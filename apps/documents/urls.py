from django.urls import path

from apps.documents.views import collections, documents, viewer

urlpatterns = [
    path("collections/", collections.collection_list, name="collection-list"),
    path("c/<slug:slug>/", collections.collection_detail, name="collection-detail"),
    path("c/<slug:slug>/upload", collections.collection_upload, name="collection-upload"),
    path("c/<slug:slug>/members/", collections.collection_members, name="collection-members"),
    path(
        "c/<slug:slug>/members/<int:membership_id>",
        collections.membership_update,
        name="membership-update",
    ),
    path("documents/<int:document_id>/", documents.document_detail, name="document-detail"),
    path("documents/<int:document_id>/view/", viewer.document_viewer, name="document-viewer"),
    path("documents/<int:document_id>/status", documents.document_status, name="document-status"),
    path("documents/<int:document_id>/file", documents.document_file, name="document-file"),
    path("documents/<int:document_id>/reingest", documents.document_reingest, name="document-reingest"),
    path("documents/<int:document_id>/delete", documents.document_remove, name="document-delete"),
]
