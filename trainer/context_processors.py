from django.http import HttpRequest
from django.utils import timezone

from trainer.accounts.roles import session_is_instructor


def roles(request: HttpRequest) -> dict[str, bool]:
    return {"is_instructor": session_is_instructor(request)}


def navigation(request: HttpRequest) -> dict[str, str | None]:
    """The part of the site a page belongs to (the first segment of its route: "practice",
    "plan", "mock", "author"; "" for the dashboard), so the navigation can mark it."""
    match = request.resolver_match
    route = match.route if match is not None else None
    return {"section": route.split("/", 1)[0] if route is not None else None}


def time_zone(request: HttpRequest) -> dict[str, str]:
    """The name of the zone the page's times are shown in (the learner's, see
    `trainer.middleware.LearnerTimeZoneMiddleware`), to label them."""
    return {"time_zone_name": timezone.get_current_timezone_name()}
