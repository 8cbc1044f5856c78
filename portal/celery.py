"""The Celery application. Tasks live in each app's tasks.py and take ids only."""

from __future__ import annotations

import os

from celery import Celery

from portal.env import load_settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
# Celery reads settings while parsing its command line; a bad one must stop it with one line, not a traceback.
load_settings_or_exit()

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
