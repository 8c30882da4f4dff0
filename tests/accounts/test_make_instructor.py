import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from trainer.accounts.roles import INSTRUCTOR_GROUP


def test_it_makes_an_instructor(learner):
    call_command("make_instructor", "learner")
    assert learner.groups.filter(name=INSTRUCTOR_GROUP).exists()


def test_it_grants_the_authoring_permissions(learner):
    call_command("make_instructor", "learner")
    group = Group.objects.get(name=INSTRUCTOR_GROUP)
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"author_problems", "view_statistics"} <= codenames


def test_it_is_idempotent(learner):
    call_command("make_instructor", "learner")
    call_command("make_instructor", "learner")
    assert learner.groups.count() == 1


@pytest.mark.django_db
def test_it_explains_an_unknown_user():
    with pytest.raises(CommandError, match="No user named 'ghost'"):
        call_command("make_instructor", "ghost")
