from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

from portal.env import load_settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
load_settings_or_exit()
application = get_asgi_application()
