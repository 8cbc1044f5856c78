from django.urls import path

from apps.retrieval import views

urlpatterns = [
    path("c/<slug:slug>/search/", views.collection_search, name="collection-search"),
]
