from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from trainer.dashboard import services
from trainer.practice.services import get_profile


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home.html")
    now = timezone.now()
    context = services.dashboard(request.user, get_profile(request.user), now)
    return render(request, "dashboard/dashboard.html", context)
