"""Make sure an administrator account exists and say how to log in (the embedded default's first start)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the 'admin' superuser if missing (password from PORTAL_ADMIN_PASSWORD or generated)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", default="admin")
        parser.add_argument("--url", default="http://127.0.0.1:8000/")

    def handle(self, *args, username: str, url: str, **options) -> None:
        password_file = Path(settings.VAR_DIR) / "admin-password"
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            password = os.environ.get("PORTAL_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
            User.objects.create_superuser(username=username, email="", password=password)
            password_file.parent.mkdir(parents=True, exist_ok=True)
            password_file.write_text(password + "\n")
            password_file.chmod(0o600)
        if password_file.exists():
            where = f"password {password_file.read_text().strip()} (kept in {password_file})"
        else:
            where = "the password you set for it"
        self.stdout.write(f"Log in at {url} as {username} with {where}")
