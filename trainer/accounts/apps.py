from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_migrate


def _ensure_instructor_group(**kwargs: Any) -> None:
    from trainer.accounts.roles import ensure_instructor_group

    ensure_instructor_group()


class AccountsConfig(AppConfig):
    name = "trainer.accounts"
    label = "accounts"

    def ready(self) -> None:
        # After every migrate, so the group holds permissions that later apps add.
        post_migrate.connect(_ensure_instructor_group, dispatch_uid="ensure_instructor_group")
        from trainer.accounts.roles import remember_role_at_log_in

        user_logged_in.connect(remember_role_at_log_in, dispatch_uid="remember_role_at_log_in")
