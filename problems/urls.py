from django.urls import path

from problems import views

urlpatterns = [
    path("", views.index, name="author"),
    path("problems/new/", views.problem_new, name="author-problem-new"),
    path("problems/<int:number>/", views.problem_detail, name="author-problem"),
    path("problems/<int:number>/edit/", views.problem_edit, name="author-problem-edit"),
    path("problems/<int:number>/scenarios/new/", views.scenario_new, name="author-scenario-new"),
    path("problems/<int:number>/export/", views.problem_export, name="author-problem-export"),
    path("problems/<int:number>/stats/", views.problem_stats, name="author-problem-stats"),
    path("scenarios/<int:scenario_id>/draft/", views.scenario_draft, name="author-draft"),
    path("scenarios/<int:scenario_id>/export/", views.scenario_export, name="author-export"),
    path("versions/<int:version_id>/", views.version_detail, name="author-version"),
    path("versions/<int:version_id>/edit/", views.version_edit, name="author-version-edit"),
    path("versions/<int:version_id>/discard/", views.version_discard, name="author-discard"),
    path("versions/<int:version_id>/preview/", views.preview, name="author-preview"),
    path("versions/<int:version_id>/validate/", views.validate, name="author-validate"),
    path("versions/<int:version_id>/publish/", views.publish, name="author-publish"),
    path("validations/<int:run_id>/", views.validation_detail, name="author-validation"),
    path(
        "validations/<int:run_id>/cancel/",
        views.validation_cancel,
        name="author-validation-cancel",
    ),
    path("regrades/<int:regrade_id>/", views.regrade_detail, name="author-regrade"),
    path("reports/", views.report_list, name="author-reports"),
    path("reports/<int:report_id>/resolve/", views.report_resolve, name="author-report-resolve"),
    path("check/", views.check, name="author-check"),
    path("reference/", views.reference, name="author-reference"),
    path("import/", views.import_view, name="author-import"),
    path("stats/", views.stats_index, name="author-stats"),
    path("stats/refresh/", views.stats_refresh, name="author-stats-refresh"),
]
