from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from trainer.accounts import usernames
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
