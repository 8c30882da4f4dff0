from django.urls import path

from trainer.plan import views

urlpatterns = [
    path("", views.index, name="plan"),
]
