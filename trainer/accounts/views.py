from django.conf import settings
from django.contrib import auth
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from problems.http import AuthenticatedRequest
from trainer.accounts import lockout, ratelimit
from trainer.accounts.addresses import client_address
from trainer.accounts.forms import PasswordResetForm, SignupForm
from trainer.accounts.signals import signed_up

HOUR = 60 * 60


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


def _too_many(request: HttpRequest, what: str, window: int) -> HttpResponse:
    minutes = max(1, round(ratelimit.seconds_left(window) / 60))
    context = {"what": what, "minutes": minutes}
    return render(request, "accounts/too_many.html", context, status=429)


@sensitive_post_parameters("password")
@never_cache
@require_http_methods(["GET", "POST"])
def login(request: HttpRequest) -> HttpResponse:
    """Failed log-ins are limited by django-axes (trainer.accounts.lockout): a refused attempt's
    response is replaced by its lockout page, here as on the admin's log-in."""
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        auth.login(request, form.get_user())
        return redirect(_next_url(request))
    context = {"form": form, "next": _next_url(request)}
    return render(request, "accounts/login.html", context)


@require_POST
def logout(request: HttpRequest) -> HttpResponse:
    auth.logout(request)
    return redirect("home")


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not ratelimit.allow("signup", client_address(request), settings.SIGNUP_RATE_LIMIT, HOUR):
            return _too_many(request, "accounts created from your address", HOUR)
        try:
            with transaction.atomic():
                user = form.save()
                signed_up.send(
                    sender=SignupForm, user=user, time_zone=form.cleaned_data["timezone"]
                )
        except IntegrityError:  # a look-alike name was taken by a sign-up in between
            form.add_error("username", form.instance.unique_error_message(User, ["username"]))
        else:
            auth.login(request, user, backend="trainer.accounts.backends.ModelBackend")
            return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


_password_change = auth_views.PasswordChangeView.as_view(
    template_name="accounts/password_change.html", success_url=reverse_lazy("password_change_done")
)


@login_required
def password_change(request: AuthenticatedRequest) -> HttpResponseBase:
    """Django's password change, with the old password's guesses limited like log-ins: a
    stolen session must not become a way to find the password. Every submission counts,
    before the old password is checked, so parallel guesses are limited too."""
    if request.method == "POST" and not ratelimit.allow(
        "password-change",
        request.user.pk,
        settings.LOGIN_FAILURE_LIMIT,
        settings.LOGIN_FAILURE_WINDOW,
    ):
        return _too_many(request, "password changes", settings.LOGIN_FAILURE_WINDOW)
    return _password_change(request)


_password_reset = auth_views.PasswordResetView.as_view(
    form_class=PasswordResetForm,
    template_name="accounts/password_reset.html",
    success_url=reverse_lazy("password_reset_done"),
)


def password_reset(request: HttpRequest) -> HttpResponseBase:
    """Django's password reset by e-mail, the mail sent after the response from SITE_URL
    (trainer.accounts.passwords), so the page never tells who has an account; requests per
    address are limited, so the form cannot be used to flood someone's inbox."""
    if request.method == "POST" and not ratelimit.allow(
        "password-reset", client_address(request), settings.PASSWORD_RESET_RATE_LIMIT, HOUR
    ):
        return _too_many(request, "password-reset e-mails asked for from your address", HOUR)
    return _password_reset(request)


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """Django's last step of a reset, which also lifts the account's log-in locks: whoever
    reset it holds its e-mail, and the guesses were at a password that is no longer its."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        lockout.lift(form.user)
        return response
