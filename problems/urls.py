from django.urls import path

from problems import views

urlpatterns = [
    path("", views.index, name="author"),
]
