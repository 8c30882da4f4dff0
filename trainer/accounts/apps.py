from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.core.signals import request_finished, request_started
from django.db.models.signals import post_migrate, post_save, pre_save


def _ensure_instructor_group(**kwargs: Any) -> None:
    from trainer.accounts.roles import ensure_instructor_group

    ensure_instructor_group()


class AccountsConfig(AppConfig):
    name = "trainer.accounts"
    label = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.models import User

        from trainer.accounts import checks, passwords, usernames  # noqa: F401 - checks register
        from trainer.accounts.roles import remember_role_at_log_in

        # After every migrate, so the group holds permissions that later apps add.
        post_migrate.connect(_ensure_instructor_group, dispatch_uid="ensure_instructor_group")
        user_logged_in.connect(remember_role_at_log_in, dispatch_uid="remember_role_at_log_in")
        # Every path that creates or renames an account: no two may read the same.
        pre_save.connect(usernames.refuse_a_taken_name, sender=User, dispatch_uid="account_name")
        post_save.connect(usernames.keep_the_normal_form, sender=User, dispatch_uid="account_name")
        # Password-reset e-mails leave after the response (trainer/accounts/passwords.py).
        request_started.connect(passwords.request_started, dispatch_uid="after_response")
        request_finished.connect(passwords.request_finished, dispatch_uid="after_response")
