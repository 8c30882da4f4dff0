"""System checks of the settings accounts need in production (`manage.py check --deploy`)."""

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register


@register(Tags.security, deploy=True)
def site_url_is_set(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Password-reset links are built from SITE_URL alone (trainer/accounts/passwords.py)."""
    if settings.DEBUG:
        return []
    if not settings.SITE_URL:
        return [
            Error(
                "SITE_URL is not set, so no password-reset e-mail can be sent.",
                hint="Set SITE_URL to the site's address, like https://trainer.example.com.",
                id="accounts.E001",
            )
        ]
    if not settings.SITE_URL.startswith("https://"):
        return [
            Warning(
                "SITE_URL is not an https:// address: password-reset links would travel in clear.",
                id="accounts.W001",
            )
        ]
    return []
