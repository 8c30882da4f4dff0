"""Roles: learner (everyone), instructor (a group), staff (Django's is_staff).

The instructor group holds the permissions that authoring checks. Each app that needs one adds its
"app_label.codename" to INSTRUCTOR_PERMISSIONS; `ensure_instructor_group` (run by migrations and
by the make_instructor command) grants whichever of them exist.
"""

from django.contrib.auth.models import AnonymousUser, Group, Permission, User

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
