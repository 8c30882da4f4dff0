from django.apps import AppConfig


class PracticeConfig(AppConfig):
    name = "trainer.practice"
    label = "practice"
