from django.apps import AppConfig


class CitationsConfig(AppConfig):
    name = "apps.citations"
    label = "citations"
    verbose_name = "Answers, conversations and citations"
