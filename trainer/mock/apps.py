from django.apps import AppConfig


class MockConfig(AppConfig):
    name = "trainer.mock"
    label = "mock"
