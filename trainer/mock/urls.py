from django.urls import path

from trainer.mock import views

urlpatterns = [
    path("", views.index, name="mock"),
    path("start/", views.start, name="mock-start"),
    path("<int:mock_id>/", views.mock_detail, name="mock-detail"),
    path("<int:mock_id>/problems/<int:position>/", views.problem, name="mock-problem"),
    path(
        "<int:mock_id>/problems/<int:position>/parts/<slug:part_key>/",
        views.answer,
        name="mock-answer",
    ),
    path(
        "<int:mock_id>/problems/<int:position>/design/",
        views.design_answer,
        name="mock-design",
    ),
    path("<int:mock_id>/finish/", views.finish, name="mock-finish"),
    path("<int:mock_id>/report/", views.report, name="mock-report"),
    path("<int:mock_id>/report/<int:position>/", views.solution, name="mock-solution"),
    path("<int:mock_id>/rubric/", views.rubric, name="mock-rubric"),
]
