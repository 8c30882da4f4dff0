from django.apps import AppConfig


class MockConfig(AppConfig):
    name = "trainer.mock"
    label = "mock"

    def ready(self) -> None:
        from problems.signals import attempt_rescored
        from trainer.mock import services

        attempt_rescored.connect(services.rescore, dispatch_uid="mock-rescore")
