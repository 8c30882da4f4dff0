from django.urls import path

from trainer.plan import views

urlpatterns = [
    path("", views.index, name="plan"),
    path("start/", views.start, name="plan-start"),
    path("pages/<int:number>/", views.page, name="plan-page"),
    path("pages/<int:number>/demo/", views.demo, name="plan-demo"),
    path("blocks/<int:number>/goals/", views.goals, name="plan-goals"),
    path("problems/<int:number>/practice/", views.practice_problem, name="plan-practice"),
]
