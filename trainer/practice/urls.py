from django.urls import path

from trainer.practice import views

urlpatterns = [
    path("", views.practice, name="practice"),
    path("start/", views.start, name="practice-start"),
    path("settings/", views.settings_page, name="practice-settings"),
    path("attempts/<int:attempt_id>/", views.attempt_detail, name="attempt"),
    path("attempts/<int:attempt_id>/answer/", views.answer, name="practice-answer"),
    path("attempts/<int:attempt_id>/report/", views.report, name="practice-report"),
    path("reviews/<int:review_id>/rate/", views.rate, name="practice-rate"),
    path("reviews/<int:review_id>/undo/", views.undo, name="practice-undo"),
    path("problems/<int:number>/", views.problem_detail, name="practice-problem"),
    path("problems/<int:number>/another/", views.another, name="practice-another"),
    path("problems/<int:number>/hold/", views.hold, name="practice-hold"),
]
