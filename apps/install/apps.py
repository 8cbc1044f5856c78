from django.apps import AppConfig


class InstallConfig(AppConfig):
    """What an install runs once and the portal never imports: the default embedding model assembled from its wheels
    (`manage.py prepare_models`, run by portalctl before the worker and the web process start)."""

    name = "apps.install"
    label = "install"
    verbose_name = "Install"
