from django.contrib import admin
from django.urls import include, path

from trainer import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz/", views.healthz, name="healthz"),
    path("accounts/", include("trainer.accounts.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "trainer.views.not_found"
