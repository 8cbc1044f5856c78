"""The Celery application. Tasks live in each app's tasks.py and take ids only."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from celery import Celery

from portal.env import load_settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")


def _started_as_celery_program() -> bool:
    main_spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return Path(sys.argv[0]).name == "celery" or getattr(main_spec, "name", "") == "celery.__main__"


if _started_as_celery_program():
    # Celery reads settings while parsing its command line: a bad one must stop it with one line, not a
    # traceback. (Other importers, such as the launcher, must not load settings before they set the environment.)
    load_settings_or_exit()

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Ingest jobs that could not be queued while the broker was away are sent once the worker (re)connects.
app.steps["consumer"].add("apps.documents.worker_steps:RequeueUnsentIngest")
# Every worker says it is alive every few seconds, so pages and /healthz know whether ingestion can run.
app.steps["consumer"].add("portal.heartbeat:WorkerHeartbeat")
