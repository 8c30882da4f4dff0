from typing import Any

from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest

from trainer.accounts import usernames


class ModelBackend(DjangoModelBackend):
    """Django's backend, finding the account by its name as people read it (`Ross` is `ross`:
    trainer.accounts.usernames) and loading the learner's profile with the user on every
    request.

    Practice, the plan and the dashboard all read the profile (scheduler, time zone, limits):
    one join instead of one more query on every page.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = usernames.find(username)
        if user is None:
            # As Django's backend: hash anyway, so the time taken does not tell who exists.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

    def get_user(self, user_id: int) -> User | None:
        try:
            user = User._default_manager.select_related("learner_profile").get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
