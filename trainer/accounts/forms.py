import functools
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm as DjangoPasswordResetForm
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from trainer.accounts import passwords, tasks, usernames
from trainer.accounts.timezones import time_zone_or_default


class NameReadsAsNoOtherMixin:
    """A username form field refusing a name that reads as another account's (see
    `trainer.accounts.usernames`): on the sign-up form and the admin's user forms."""

    cleaned_data: dict[str, Any]
    instance: User

    def clean_username(self) -> str:
        name: str = self.cleaned_data["username"]
        if len(usernames.normalise(name)) > usernames.MAX_LENGTH:
            raise ValidationError("Choose a shorter username.")
        if usernames.taken(name, by_other_than=self.instance.pk):
            raise ValidationError(self.instance.unique_error_message(User, ["username"]))
        return name


class SignupForm(NameReadsAsNoOtherMixin, UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional; only used if you forget your password."
    )
    # Filled by static/js/app.js from the browser; without JavaScript it stays empty (UTC), and
    # the learner can choose a zone in the practice settings.
    timezone = forms.CharField(
        required=False,
        max_length=60,
        widget=forms.HiddenInput(attrs={"data-detect-timezone": ""}),
    )

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_timezone(self) -> str:
        return time_zone_or_default(self.cleaned_data.get("timezone"))


class PasswordResetForm(DjangoPasswordResetForm):
    """Django's form, finding whom to write to and leaving the writing until after the response
    (trainer.accounts.passwords): the `send_password_reset` task, or without a broker a thread
    of this process."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        for user in self.get_users(self.cleaned_data["email"]):
            transaction.on_commit(functools.partial(passwords.after_response, _send, user.pk))


def _send(user_id: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        passwords.in_thread(passwords.send_reset_link, user_id)
    else:
        tasks.send_password_reset.apply_async((user_id,), ignore_result=True)
