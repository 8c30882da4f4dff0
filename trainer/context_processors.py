import time

from django.http import HttpRequest
from django.utils import timezone

from trainer.accounts.roles import is_instructor

# The navigation shows the authoring link from a flag kept in the session for this long, rather
# than loading every permission (two queries) on every page. Authoring views check the
# permission itself on each request; only the link can lag behind a change of role.
ROLE_CHECK_SECONDS = 300


def roles(request: HttpRequest) -> dict[str, bool]:
    user = request.user
    if not user.is_authenticated:
        return {"is_instructor": False}
    cached = request.session.get("roles")
    if (
        cached is None
        or cached.get("user") != user.pk
        or time.time() - cached["at"] > ROLE_CHECK_SECONDS
    ):
        cached = {"user": user.pk, "instructor": is_instructor(user), "at": time.time()}
        request.session["roles"] = cached
    return {"is_instructor": cached["instructor"]}


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
