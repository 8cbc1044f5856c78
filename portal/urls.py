from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView

from apps.accounts.views import set_language
from apps.citations import api as conversation_api
from apps.citations import document_api
from apps.retrieval import api
from portal import views
from portal.api_docs import api_docs
from portal.throttle import throttled_login

api_v1 = [
    path("", include("apps.documents.api.urls")),
    # What citations knows about a document, beside documents' own endpoints.
    path(
        "documents/<int:document_id>/references", document_api.ReferenceList.as_view(), name="api-document-references"
    ),
    path("documents/<int:document_id>/related", document_api.document_related, name="api-document-related"),
    path("conversations/", conversation_api.ConversationList.as_view(), name="api-conversation-list"),
    path(
        "conversations/<int:conversation_id>/",
        conversation_api.conversation_detail,
        name="api-conversation-detail",
    ),
    path("search", api.search, name="api-search"),
    path("ask", conversation_api.ask, name="api-ask"),
    path("ask/stream", conversation_api.ask_stream, name="api-ask-stream"),
]

# Both logins count failures per account and address (portal/throttle.py). The admin's login is wrapped on the
# site itself, so its URL and its name (admin:login) stay the admin's own.
admin.site.login = throttled_login(admin.site.login)

urlpatterns = [
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        throttled_login(auth_views.LoginView.as_view(redirect_authenticated_user=True)),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/token/", views.api_token, name="api-token"),
    path("accounts/language/", set_language, name="set-language"),
    # The JavaScript side of the translations (static/js/*.js call gettext): a script file, no inline code (CSP).
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("healthz", views.healthz, name="healthz"),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("", include("apps.retrieval.urls")),
    path("", include("apps.citations.urls")),
    path("", include("apps.documents.urls")),
]
