from django.contrib import admin

from apps.citations.models import Conversation


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ["__str__", "user", "collection", "updated_at"]
    list_filter = ["collection"]
    raw_id_fields = ["user"]
