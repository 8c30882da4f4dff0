from django.contrib.auth.backends import ModelBackend as DjangoModelBackend


class ModelBackend(DjangoModelBackend):
    """Django's backend, loading the learner's profile with the user on every request.

    Practice, the plan and the dashboard all read the profile (scheduler, time zone, limits):
    one join instead of one more query on every page.
    """

    def get_user(self, user_id):
        user_model = self.get_user_model()
        try:
            user = user_model._default_manager.select_related("learner_profile").get(pk=user_id)
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None

    @staticmethod
    def get_user_model():
        from django.contrib.auth import get_user_model

        return get_user_model()
