from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.auth.models import User


class ModelBackend(DjangoModelBackend):
    """Django's backend, loading the learner's profile with the user on every request.

    Practice, the plan and the dashboard all read the profile (scheduler, time zone, limits):
    one join instead of one more query on every page.
    """

    def get_user(self, user_id: int) -> User | None:
        try:
            user = User._default_manager.select_related("learner_profile").get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
