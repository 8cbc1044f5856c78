from django.urls import path

from apps.citations import home, views

urlpatterns = [
    path("", home.home, name="home"),
    path("c/<slug:slug>/ask/", views.collection_ask, name="collection-ask"),
    path("conversations/", views.conversation_list, name="conversation-list"),
    path("conversations/<int:conversation_id>/", views.conversation_detail, name="conversation-detail"),
    path(
        "conversations/<int:conversation_id>/messages/<int:message_id>/",
        views.message_detail,
        name="message-detail",
    ),
    path(
        "conversations/<int:conversation_id>/messages/<int:message_id>/regenerate",
        views.message_regenerate,
        name="message-regenerate",
    ),
]
