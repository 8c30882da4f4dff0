from django.apps import AppConfig


class PracticeConfig(AppConfig):
    name = "trainer.practice"
    label = "practice"

    def ready(self) -> None:
        from trainer.accounts.signals import signed_up
        from trainer.practice import services

        signed_up.connect(services.create_profile, dispatch_uid="practice-create-profile")
