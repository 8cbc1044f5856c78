"""The Django admin for administrators. Deletes go through the same services as the portal's own pages, so
search indexes, caches, reference links and stored files follow; passages are derived data and only shown."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied

from apps.documents.models import Chunk, Collection, Document, IngestJob, Membership
from apps.documents.services.documents import collection_delete, document_delete


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def delete_model(self, request, obj: Collection) -> None:
        collection_delete(collection=obj)

    def delete_queryset(self, request, queryset) -> None:
        for collection in queryset:
            collection_delete(collection=collection)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "collection", "role", "created_at"]
    list_filter = ["role", "collection"]
    search_fields = ["user__username", "user__email", "collection__name"]
    autocomplete_fields = ["user", "collection"]


class IngestJobInline(admin.TabularInline):
    model = IngestJob
    extra = 0
    can_delete = False
    readonly_fields = ["stage", "done", "total", "error", "created_at", "started_at", "finished_at"]


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ["display_title", "collection", "doc_type", "status", "chunk_count", "created_at"]
    list_filter = ["status", "doc_type", "collection"]
    search_fields = ["title", "original_name", "sha256"]
    readonly_fields = ["sha256", "size", "status", "error", "chunk_count", "page_count", "file"]
    inlines = [IngestJobInline]

    def save_model(self, request, obj: Document, form, change: bool) -> None:
        # A title or authors a person wrote are no longer the guess ingestion read off the first page.
        obj.guessed = [name for name in obj.guessed if name not in form.changed_data]
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj: Document) -> None:
        document_delete(document=obj)

    def delete_queryset(self, request, queryset) -> None:
        for document in queryset:
            document_delete(document=document)


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    list_display = ["document", "chunk_index", "section", "page", "locator_precision"]
    list_filter = ["locator_precision", "chunk_type"]
    search_fields = ["text"]
    raw_id_fields = ["document"]

    # Made by ingestion from the file: an edit or a delete here would not reach the search indexes. Re-read or
    # delete the document instead. (Delete permission itself stays: the admin checks it for the passages a
    # document's delete takes with it.)
    actions = None

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def delete_view(self, request, object_id, extra_context=None):
        raise PermissionDenied("Passages are deleted with their document.")
