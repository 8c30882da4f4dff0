from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional; only used if you forget your password."
    )

    class Meta:
        model = User
        fields = ("username", "email")
