"""Settings of the web server a fault test starts: the portal's own, with static files served from the source
folders (production serves them from a collectstatic manifest that a test run does not build)."""

from portal.settings import *  # noqa: F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
