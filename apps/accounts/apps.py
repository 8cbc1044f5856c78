from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """A person's own settings (the interface language). The lowest layer: it imports none of the other apps."""

    name = "apps.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from apps.accounts import receivers  # noqa: F401  (connects the login receiver)
