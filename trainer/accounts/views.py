from django.contrib import auth
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from trainer.accounts import ratelimit
from trainer.accounts.forms import SignupForm
from trainer.accounts.signals import signed_up


def _next_url(request):
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


@sensitive_post_parameters("password")
@never_cache
@require_http_methods(["GET", "POST"])
def login(request):
    form = AuthenticationForm(request, data=request.POST or None)
    status = 200
    if request.method == "POST":
        username = request.POST.get("username", "")
        address = ratelimit.client_address(request)
        wait = ratelimit.seconds_locked(username, address)
        if wait:
            minutes = max(1, round(wait / 60))
            form.errors.clear()
            form.add_error(
                None,
                f"Too many failed log-ins. For your safety, try again in about {minutes} "
                f"minute{'s' if minutes != 1 else ''}.",
            )
            status = 429
        elif form.is_valid():
            ratelimit.clear_failures(username, address)
            auth.login(request, form.get_user())
            return redirect(_next_url(request))
        else:
            ratelimit.record_failure(username, address)
    context = {"form": form, "next": _next_url(request)}
    return render(request, "accounts/login.html", context, status=status)


@require_POST
def logout(request):
    auth.logout(request)
    return redirect("home")


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        signed_up.send(sender=SignupForm, user=user, time_zone=form.cleaned_data["timezone"])
        auth.login(request, user, backend="trainer.accounts.backends.ModelBackend")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})
