from django.urls import path

from apps.documents.api import views

urlpatterns = [
    path("collections/", views.CollectionList.as_view(), name="api-collection-list"),
    path("documents/", views.DocumentList.as_view(), name="api-document-list"),
    path("documents/<int:document_id>/", views.document_detail, name="api-document-detail"),
    path("documents/<int:document_id>/reingest", views.document_reingest, name="api-document-reingest"),
    path("documents/<int:document_id>/file", views.document_file, name="api-document-file"),
    path("documents/<int:document_id>/preview", views.document_preview, name="api-document-preview"),
]
