from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    """The measuring harnesses (evaluate, evaluate_reading, evaluate_references) and their scores: they read the
    portal through its own code paths and are never imported by it."""

    name = "apps.evaluation"
    label = "evaluation"
    verbose_name = "Evaluation"
