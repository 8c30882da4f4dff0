"""Usernames compared as people read them: `ross`, `Ross`, `ＲＯＳＳ`, `ⓡoss` and `roß` are one
name.

`normalise` (Unicode NFKC, then case folding) is the one comparison wherever a name is matched:
sign-up and the admin refuse a name whose normal form is another account's, log-in finds the
account by it, and the log-in limiter (trainer/accounts/lockout.py) counts failures under it.
Were two accounts allowed one normal form, a log-in to the one would look like a log-in to the
other, to the limiter as to the person typing.

Each account's normal form is kept in `AccountName`, unique in the database, so two sign-ups
racing for `ross` and `roß` cannot both win; it is written whenever a user is saved with a new
name, by any path (sign-up, the admin, `createsuperuser`, a shell).
"""

import unicodedata
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError

from trainer.accounts.models import AccountName

MAX_LENGTH = 255  # of the normal form: AccountName.name, and django-axes's username column


def normalise(name: str) -> str:
    """The form two names are compared in (NFKC, then case folding)."""
    return unicodedata.normalize("NFKC", name).casefold()


def taken(name: str, *, by_other_than: int | None = None) -> bool:
    """Whether an account (other than the one with pk `by_other_than`) has `name`'s normal
    form."""
    found = AccountName.objects.filter(name=normalise(name)[:MAX_LENGTH])
    if by_other_than is not None:
        found = found.exclude(user_id=by_other_than)
    return found.exists()


def find(name: str) -> User | None:
    """The account `name` logs in to: the one with exactly that name, else the one whose name
    reads the same (`Ross` logs in to `ross`)."""
    users = User._default_manager.all()
    exact = users.filter(username=name).first()
    if exact is not None:
        return exact
    return users.filter(account_name__name=normalise(name)).first()


def owns(user: User, name: str) -> bool:
    """Whether `name` (a normal form) is `user`'s own: failures counted under it are theirs."""
    return AccountName.objects.filter(user=user, name=name).exists()


def refuse_a_taken_name(
    sender: type[User], instance: User, raw: bool = False, **kwargs: Any
) -> None:
    """`pre_save` of users: a new or renamed account must not read as another's. Forms refuse
    it first with a message; this stops every other path before anything is written."""
    if raw:
        return
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and "username" not in update_fields:
        return
    if len(normalise(instance.username)) > MAX_LENGTH:
        raise IntegrityError(f"the username {instance.username!r} is too long")
    if taken(instance.username, by_other_than=instance.pk):
        raise IntegrityError(f"the username {instance.username!r} reads as another account's")


def keep_the_normal_form(
    sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """`post_save` of users: record the account's normal form (unique: a racing sign-up for a
    look-alike fails here, inside its transaction)."""
    if raw:
        return
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and "username" not in update_fields:
        return
    name = normalise(instance.username)
    if created:
        AccountName.objects.create(user=instance, name=name)
    else:
        AccountName.objects.update_or_create(user=instance, defaults={"name": name})
