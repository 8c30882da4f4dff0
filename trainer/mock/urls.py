from django.urls import path

from trainer.mock import views

urlpatterns = [
    path("", views.index, name="mock"),
]
