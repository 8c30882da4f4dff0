from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from trainer.accounts.timezones import time_zone_or_default


class SignupForm(UserCreationForm):
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
