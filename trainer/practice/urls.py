from django.urls import path

from trainer.practice import views

urlpatterns = [
    path("", views.practice, name="practice"),
    path("start/", views.start, name="practice-start"),
    path("settings/", views.settings_page, name="practice-settings"),
    path("attempts/<int:attempt_id>/", views.attempt_detail, name="attempt"),
    path("attempts/<int:attempt_id>/answer/", views.answer, name="practice-answer"),
    path("reviews/<int:review_id>/rate/", views.rate, name="practice-rate"),
]
