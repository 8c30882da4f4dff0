from django.urls import path, register_converter
from django.urls.converters import IntConverter

from trainer.practice import views


class IdConverter(IntConverter):
    """A row id as the database's 64-bit integer column holds it: a larger number matches no
    URL (a 404) instead of reaching a query that SQLite cannot bind."""

    LARGEST = 2**63 - 1

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > self.LARGEST:
            raise ValueError(value)
        return number


register_converter(IdConverter, "id")

urlpatterns = [
    path("", views.practice, name="practice"),
    path("start/", views.start, name="practice-start"),
    path("settings/", views.settings_page, name="practice-settings"),
    path("attempts/<id:attempt_id>/", views.attempt_detail, name="attempt"),
    path("attempts/<id:attempt_id>/answer/", views.answer, name="practice-answer"),
    path("attempts/<id:attempt_id>/report/", views.report, name="practice-report"),
    path("reviews/<id:review_id>/rate/", views.rate, name="practice-rate"),
    path("reviews/<id:review_id>/undo/", views.undo, name="practice-undo"),
    path("problems/<id:number>/", views.problem_detail, name="practice-problem"),
    path("problems/<id:number>/another/", views.another, name="practice-another"),
    path("problems/<id:number>/hold/", views.hold, name="practice-hold"),
]
