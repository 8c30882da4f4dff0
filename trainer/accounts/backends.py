from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.auth.backends import UserModel


class ModelBackend(DjangoModelBackend):
    """Django's backend, loading the learner's profile with the user on every request.

    Practice, the plan and the dashboard all read the profile (scheduler, time zone, limits):
    one join instead of one more query on every page.
    """

    def get_user(self, user_id):
        try:
            user = UserModel._default_manager.select_related("learner_profile").get(pk=user_id)
        except UserModel.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
