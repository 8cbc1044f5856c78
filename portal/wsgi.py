from __future__ import annotations

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from portal.env import load_settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
load_settings_or_exit()
application = get_wsgi_application()

# Load the query embedding model in the background now, not in the first search (5–10 s measured).
if settings.PORTAL_WARM_UP:
    from apps.retrieval.search.service import warm_up

    warm_up()
