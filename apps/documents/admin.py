from django.contrib import admin

from apps.documents.models import Chunk, Collection, Document, IngestJob, Membership


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


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    list_display = ["document", "chunk_index", "section", "page", "locator_precision"]
    list_filter = ["locator_precision", "chunk_type"]
    search_fields = ["text"]
    raw_id_fields = ["document"]
