"""Roles: learner (everyone), instructor (a group), staff (Django's is_staff).

The instructor group holds the permissions that authoring checks. Each app that needs one adds its
"app_label.codename" to INSTRUCTOR_PERMISSIONS; `ensure_instructor_group` (run by migrations and
by the make_instructor command) grants whichever of them exist.

Pages show the authoring link from the role kept in the session (`session_is_instructor`): checked
at log-in, then again at most every ROLE_CHECK_SECONDS, rather than loading every permission (two
queries) on every page. Authoring views check the permission itself on each request; only the
link can lag behind a change of role.
"""

import time
from typing import Any

from django.contrib.auth.models import AnonymousUser, Group, Permission, User
from django.http import HttpRequest

INSTRUCTOR_GROUP = "Instructors"
INSTRUCTOR_PERMISSIONS = [
    "problems.author_problems",
    "problems.view_statistics",
]


def ensure_instructor_group() -> Group:
    group, _ = Group.objects.get_or_create(name=INSTRUCTOR_GROUP)
    for dotted in INSTRUCTOR_PERMISSIONS:
        app_label, codename = dotted.split(".")
        permission = Permission.objects.filter(
            content_type__app_label=app_label, codename=codename
        ).first()
        if permission is not None:
            group.permissions.add(permission)
    return group


def make_instructor(user: User) -> None:
    user.groups.add(ensure_instructor_group())


def is_instructor(user: User | AnonymousUser) -> bool:
    return user.is_authenticated and user.has_perm("problems.author_problems")


ROLE_CHECK_SECONDS = 300
SESSION_KEY = "roles"


def remember_role(request: HttpRequest, user: User) -> dict[str, Any]:
    """Check the user's role now and keep it in the session."""
    role = {"user": user.pk, "instructor": is_instructor(user), "at": time.time()}
    request.session[SESSION_KEY] = role
    return role


def remember_role_at_log_in(
    sender: object, request: HttpRequest | None, user: User, **kwargs: object
) -> None:
    """`user_logged_in` receiver: the first page after log-in already knows the role."""
    if request is not None and hasattr(request, "session"):
        remember_role(request, user)


def session_is_instructor(request: HttpRequest) -> bool:
    """The role kept in the session, checked again when older than ROLE_CHECK_SECONDS (or kept
    for another user, or from before log-ins kept it)."""
    user = request.user
    if not user.is_authenticated:
        return False
    role = request.session.get(SESSION_KEY)
    if role is None or role.get("user") != user.pk or time.time() - role["at"] > ROLE_CHECK_SECONDS:
        role = remember_role(request, user)
    return bool(role["instructor"])
