"""The request the views see, for the type checker.

`@login_required` guarantees a signed-in user, and django-htmx's middleware adds `request.htmx`;
Django's own `HttpRequest` knows neither. Views annotate their request with this class instead.
"""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class AuthenticatedRequest(HttpRequest):
    user: User
    htmx: HtmxDetails


class HtmxRequest(HttpRequest):
    htmx: HtmxDetails
