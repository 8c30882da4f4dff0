"""The application's URLs, plus `/bench/bare/`: the framework's floor for the load benchmark."""

from django.http import HttpResponse
from django.urls import path

from trainer.urls import handler404
from trainer.urls import urlpatterns as application_urlpatterns

__all__ = ["handler404", "urlpatterns"]


def bare(request):
    """A tiny response through the full middleware stack: no database, no template."""
    return HttpResponse(b"ok\n", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), *application_urlpatterns]
