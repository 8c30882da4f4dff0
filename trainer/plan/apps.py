from django.apps import AppConfig


class PlanConfig(AppConfig):
    name = "trainer.plan"
    label = "plan"
