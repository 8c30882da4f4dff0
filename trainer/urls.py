from django.contrib import admin
from django.urls import include, path

from problems import sheets
from trainer import views
from trainer.dashboard import views as dashboard_views
from trainer.practice import views as practice_views

urlpatterns = [
    path("", dashboard_views.home, name="home"),
    path("help/", practice_views.help_page, name="help"),
    path("healthz/", views.healthz, name="healthz"),
    path("practice/", include("trainer.practice.urls")),
    path("plan/", include("trainer.plan.urls")),
    path("mock/", include("trainer.mock.urls")),
    path("author/", include("problems.urls")),
    path("catalogue/<str:kind>/<str:key>/", sheets.sheet, name="catalogue-sheet"),
    path("accounts/", include("trainer.accounts.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "trainer.views.not_found"
