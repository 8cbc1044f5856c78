#!/usr/bin/env python
"""Django's command-line utility for the knowledge portal."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    from django.core.exceptions import ImproperlyConfigured

    try:
        from django.conf import settings

        settings.INSTALLED_APPS  # noqa: B018 - load settings now, so a bad one stops here with one line
    except ImproperlyConfigured as exc:
        sys.exit(f"configuration error: {exc}")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
