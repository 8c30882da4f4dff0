"""The authoring area (/author/): browse, edit, preview, validate, publish, import/export,
statistics and regrades. Every view needs the `problems.author_problems` permission (anonymous
users are sent to log in, learners get 403); the rules are in `problems.authoring`,
`problems.regrade` and `problems.stats`."""

import functools
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Q, Subquery
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from problems import authoring, background, budget, jobs, regrade, reports, stats
from problems.attempts import worked_solution
from problems.authoring import DefinitionCheck
from problems.engine import EngineError, Part, Variant, draw_variant
from problems.engine import Scenario as CompiledScenario
from problems.engine.budget import OutOfTime, deadline
from problems.forms import (
    ImportForm,
    ProblemForm,
    PublishForm,
    ScenarioForm,
    SeedForm,
    ValidateForm,
)
from problems.http import AuthenticatedRequest
from problems.models import (
    AuthoringLog,
    Problem,
    Regrade,
    Scenario,
    ScenarioVersion,
    ValidationRun,
    VariantReport,
)
from problems.variants import compiled_scenario, new_seed

AUTHOR = "problems.author_problems"
STATISTICS = "problems.view_statistics"
PREVIEW_VARIANTS = 3
LOG_LINES = 50
REPORTS_PAGE = 25
PROBLEM_REPORTS = 20

Status = ScenarioVersion.Status


def _render(
    request: AuthenticatedRequest,
    template: str,
    context: dict[str, Any],
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The whole page, or only the swapped region for htmx."""
    if partial and request.htmx:
        template += "#" + partial
    return render(request, template, context, status=status)


def _problem(number: int) -> Problem:
    return get_object_or_404(Problem, number=number)


def _version(version_id: int) -> ScenarioVersion:
    return get_object_or_404(
        ScenarioVersion.objects.select_related("scenario__problem", "created_by", "published_by"),
        pk=version_id,
    )


# Browsing.


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def index(request: AuthenticatedRequest) -> HttpResponse:
    last_log = AuthoringLog.objects.filter(problem=OuterRef("pk")).order_by("-at", "-id")
    last_version = ScenarioVersion.objects.filter(scenario__problem=OuterRef("pk")).order_by(
        "-created_at", "-id"
    )
    annotated = Problem.objects.annotate(
        scenario_count=Count("scenarios", distinct=True),
        version_count=Count("scenarios__versions", distinct=True),
        draft_count=Count(
            "scenarios__versions",
            filter=Q(scenarios__versions__status=Status.DRAFT),
            distinct=True,
        ),
        last_log_at=Subquery(last_log.values("at")[:1]),
        last_log_by=Subquery(last_log.values("actor__username")[:1]),
        last_log_action=Subquery(last_log.values("action")[:1]),
        last_version_at=Subquery(last_version.values("created_at")[:1]),
        last_version_by=Subquery(last_version.values("created_by__username")[:1]),
    ).order_by("number")
    labels = dict(AuthoringLog.Action.choices)
    problems = list(annotated)
    for problem in problems:
        problem.last_log_label = labels.get(problem.last_log_action, "")  # type: ignore[attr-defined]
    return render(request, "author/index.html", {"problems": problems})


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def problem_detail(request: AuthenticatedRequest, number: int) -> HttpResponse:
    problem = _problem(number)
    scenarios = list(
        Scenario.objects.filter(problem=problem)
        .prefetch_related("versions__created_by")
        .order_by("id")
    )
    latest_runs = {}
    for run in ValidationRun.objects.filter(version__scenario__problem=problem).order_by(
        "created_at", "id"
    ):
        latest_runs[run.version_id] = run
    # Rows for the template, on the scenarios it lists.
    for scenario in scenarios:
        scenario.version_rows = [  # type: ignore[attr-defined]
            {
                "version": version,
                "run": latest_runs.get(version.pk),
                "mine": version.status == Status.DRAFT and version.created_by_id == request.user.pk,
            }
            for version in scenario.versions.all()
        ]
        scenario.own_draft = next(  # type: ignore[attr-defined]
            (row["version"] for row in scenario.version_rows if row["mine"]),  # type: ignore[attr-defined]
            None,
        )
    log = (
        AuthoringLog.objects.filter(problem=problem)
        .select_related("actor", "scenario", "version")
        .order_by("-at", "-id")[:LOG_LINES]
    )
    open_reports = (
        reports.reports(VariantReport.Status.OPEN, problem)
        .select_related("attempt__key_version")
        .prefetch_related("attempt__answers")[:PROBLEM_REPORTS]
    )
    return render(
        request,
        "author/problem.html",
        {"problem": problem, "scenarios": scenarios, "log": log, "reports": open_reports},
    )


# Learners' reports of a wrong variant.


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def report_list(request: AuthenticatedRequest) -> HttpResponse:
    status: str | None = request.GET.get("status", VariantReport.Status.OPEN)
    if status not in VariantReport.Status.values:
        status = None  # every report
    found = (
        reports.reports(status)
        .select_related("attempt__key_version")
        .prefetch_related("attempt__answers")
    )
    page = Paginator(found, REPORTS_PAGE).get_page(request.GET.get("page") or 1)
    return render(
        request,
        "author/reports.html",
        {"page": page, "reports": page.object_list, "status": status or "all"},
    )


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_POST
def report_resolve(request: AuthenticatedRequest, report_id: int) -> HttpResponse:
    report = get_object_or_404(
        VariantReport.objects.select_related("attempt__version__scenario__problem"), pk=report_id
    )
    if reports.resolve(report.pk, request.user, timezone.now()):
        messages.success(request, f"Report {report.pk} marked resolved.")
    if request.POST.get("back") == "problem":
        return redirect("author-problem", report.attempt.version.scenario.problem.number)
    return redirect("author-reports")


# Problems.


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_http_methods(["GET", "POST"])
def problem_new(request: AuthenticatedRequest) -> HttpResponse:
    now = timezone.now()
    taken = Problem.objects.order_by("-number").values_list("number", flat=True).first() or 0
    initial = {"number": max(taken + 1, authoring.FIRST_AUTHORED_NUMBER)}
    form = ProblemForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            problem = authoring.create_problem(request.user, form.cleaned_data, now)
        except authoring.AuthoringError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Problem {problem.number} created. Now add a scenario.")
            return redirect("author-scenario-new", problem.number)
    return render(request, "author/problem_form.html", {"form": form, "problem": None})


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_http_methods(["GET", "POST"])
def problem_edit(request: AuthenticatedRequest, number: int) -> HttpResponse:
    now = timezone.now()
    problem = _problem(number)
    initial = {name: getattr(problem, name) for name in ("number", *authoring.PROBLEM_COLUMNS)}
    form = ProblemForm(request.POST or None, initial=initial, editing=True)
    if request.method == "POST" and form.is_valid():
        try:
            authoring.update_problem(request.user, problem, form.cleaned_data, now)
        except authoring.AuthoringError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Problem {problem.number} saved.")
            return redirect("author-problem", problem.number)
    return render(request, "author/problem_form.html", {"form": form, "problem": problem})


# Scenarios: the editor.


def _editor_context(
    form: Form,
    problem: Problem,
    scenario: Scenario | None = None,
    version: ScenarioVersion | None = None,
    check: DefinitionCheck | None = None,
) -> dict[str, Any]:
    return {
        "form": form,
        "problem": problem,
        "scenario": scenario,
        "version": version,
        "check": check,
        "reference_html": _reference_html(),
    }


@functools.cache
def _reference_html() -> str:
    return render_to_string("author/_reference.html", {"reference": authoring.reference()})


def _check_form(form: Form, problem_number: int, seeds: int) -> DefinitionCheck:
    data = form.data
    return budget.check_definition(
        data.get("key", ""),
        data.get("title", ""),
        data.get("body", ""),
        problem_number=problem_number,
        seeds=seeds,
    )


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_http_methods(["GET", "POST"])
def scenario_new(request: AuthenticatedRequest, number: int) -> HttpResponse:
    now = timezone.now()
    problem = _problem(number)
    form = ScenarioForm(request.POST or None, initial={"body": NEW_SCENARIO_BODY})
    check = None
    if request.method == "POST":
        check = _check_form(form, problem.number, authoring.LIVE_CHECK_SEEDS)
        if (
            request.POST.get("action") == "save"
            and form.is_valid()
            and _savable(form, check)
            and check.definition is not None
        ):
            try:
                version = authoring.create_scenario(
                    request.user, problem, check.definition, form.cleaned_data["note"], now
                )
            except authoring.AuthoringError as error:
                form.add_error("key", str(error))
            else:
                messages.success(
                    request, f"Draft v{version.number} saved. Preview it, then validate."
                )
                return redirect("author-version", version.pk)
    return render(request, "author/scenario_form.html", _editor_context(form, problem, check=check))


def _savable(form: Form, check: DefinitionCheck) -> bool:
    if check.failing_draws:
        form.add_error(
            None,
            "Not saved: a formula fails when it is evaluated on the sampled variants (see the "
            "check below). Fix it, then save.",
        )
    return check.savable


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_POST
def scenario_draft(request: AuthenticatedRequest, scenario_id: int) -> HttpResponse:
    now = timezone.now()
    scenario = get_object_or_404(Scenario.objects.select_related("problem"), pk=scenario_id)
    try:
        draft = authoring.start_draft(request.user, scenario, now)
    except authoring.AuthoringError as error:
        messages.error(request, str(error))
        return redirect("author-problem", scenario.problem.number)
    return redirect("author-version-edit", draft.pk)


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_http_methods(["GET", "POST"])
def version_edit(request: AuthenticatedRequest, version_id: int) -> HttpResponse:
    now = timezone.now()
    version = _version(version_id)
    scenario, problem = version.scenario, version.scenario.problem
    if version.status != Status.DRAFT or version.created_by_id != request.user.pk:
        messages.error(
            request,
            f"v{version.number} is not your draft; published versions never change. Start a "
            "draft of your own to revise it.",
        )
        return redirect("author-version", version.pk)
    initial = {
        "key": scenario.key,
        "title": version.definition.get("title", scenario.title),
        "note": version.note,
        "body": authoring.editor_yaml(version.definition),
    }
    data = None
    if request.method == "POST":
        data = request.POST.copy()
        data["key"] = scenario.key  # a scenario keeps its key in every version
    form = ScenarioForm(data, initial=initial, key_fixed=True)
    check = None
    if request.method == "POST":
        check = _check_form(form, problem.number, authoring.LIVE_CHECK_SEEDS)
        if (
            request.POST.get("action") == "save"
            and form.is_valid()
            and _savable(form, check)
            and check.definition is not None
        ):
            try:
                authoring.save_draft(
                    request.user, version, check.definition, form.cleaned_data["note"], now
                )
            except authoring.AuthoringError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, f"Draft v{version.number} saved.")
                return redirect("author-version", version.pk)
    return render(
        request,
        "author/scenario_form.html",
        _editor_context(form, problem, scenario, version, check),
    )


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_POST
def check(request: AuthenticatedRequest) -> HttpResponse:
    """Validation as you type: the engine's errors for the editor's current text."""
    try:
        problem_number = int(request.POST.get("problem", ""))
    except ValueError:  # absent, or not a number ("²" passes isdigit() but not int())
        problem_number = None
    result = budget.check_definition(
        request.POST.get("key", ""),
        request.POST.get("title", ""),
        request.POST.get("body", ""),
        problem_number=problem_number,
        seeds=authoring.LIVE_CHECK_SEEDS,
    )
    return _render(request, "author/check.html", {"check": result}, partial="result")


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def reference(request: AuthenticatedRequest) -> HttpResponse:
    return render(request, "author/reference.html", {"reference_html": _reference_html()})


# Versions: the page, preview, validation, publishing.


def _publish_candidates(version: ScenarioVersion) -> list[tuple[ScenarioVersion, str | None]]:
    """Earlier published or retired versions, each with why it cannot be regraded (or None)."""
    earlier = version.scenario.versions.exclude(status=Status.DRAFT).exclude(pk=version.pk)
    return [(old, regrade.refusal(old, version)) for old in earlier.order_by("-number")]


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def version_detail(request: AuthenticatedRequest, version_id: int) -> HttpResponse:
    version = _version(version_id)
    background.end_abandoned(timezone.now())
    runs = list(version.validation_runs.select_related("requested_by")[:10])
    passing = authoring.passing_run(version)
    return render(
        request,
        "author/version.html",
        {
            "version": version,
            "scenario": version.scenario,
            "problem": version.scenario.problem,
            "yaml": authoring.dump_yaml(authoring.scenario_document(version)),
            "runs": runs,
            "passing": passing,
            "validate_form": ValidateForm(),
            "candidates": _publish_candidates(version) if version.status == Status.DRAFT else [],
            "regrades": version.regrades.select_related("corrected"),
            "mine": version.status == Status.DRAFT and version.created_by_id == request.user.pk,
            "min_seeds": authoring.MIN_PUBLISH_SEEDS,
        },
    )


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_POST
def version_discard(request: AuthenticatedRequest, version_id: int) -> HttpResponse:
    now = timezone.now()
    version = _version(version_id)
    number = version.scenario.problem.number
    try:
        authoring.discard_draft(request.user, version, now)
    except authoring.AuthoringError as error:
        messages.error(request, str(error))
        return redirect("author-version", version.pk)
    messages.success(request, f"Draft v{version.number} discarded.")
    return redirect("author-problem", number)


def _preview_variant(scenario: CompiledScenario, problem: Problem, seed: int) -> dict[str, Any]:
    try:
        variant = draw_variant(scenario, seed)
        parts = []
        for index, part in enumerate(scenario.parts, start=1):
            parts.append(
                {
                    "index": index,
                    "key": part.key,
                    "prompt": variant.prompts[part.key],
                    "unit": part.unit.text,
                    "key_text": variant.key_text(part.key),
                    "accepted": variant.accepted(part.key),
                    "misconceptions": _misconception_rows(variant, part),
                }
            )
        return {
            "seed": seed,
            "parts": parts,
            "attempts": variant.attempts,
            **worked_solution(variant, problem),
        }
    except EngineError as error:
        return {"seed": seed, "error": error.message}


def _misconception_rows(variant: Variant, part: Part) -> list[dict[str, Any]]:
    unit = part.unit.text
    rows = []
    for entry in variant.misconceptions(part.key):
        if "error" in entry:
            rows.append({"tag": entry["tag"], "error": entry["error"]})
            continue
        values = [
            {"text": f"{value:.4g} {unit}".strip(), "suppressed": suppressed}
            for value, suppressed in zip(entry["values"], entry["suppressed"], strict=True)
        ]
        rows.append({"tag": entry["tag"], "values": values})
    return rows


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def preview(request: AuthenticatedRequest, version_id: int) -> HttpResponse:
    version = _version(version_id)
    problem = version.scenario.problem
    form = SeedForm(request.GET or None)
    pinned = form.cleaned_data.get("seed") if form.is_valid() else None
    seeds = [pinned] if pinned is not None else [new_seed() for _ in range(PREVIEW_VARIANTS)]
    try:
        with deadline(settings.AUTHORING_TIME_LIMIT):
            scenario = compiled_scenario(version)
            variants = [_preview_variant(scenario, problem, seed) for seed in seeds]
        compile_error = None
    except EngineError as error:
        variants, compile_error = [], error.message
    except OutOfTime as error:
        variants, compile_error = [], budget.too_slow(error, "The preview")
    return render(
        request,
        "author/preview.html",
        {
            "version": version,
            "problem": problem,
            "variants": variants,
            "form": form,
            "pinned": pinned,
            "compile_error": compile_error,
        },
    )


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_POST
def validate(request: AuthenticatedRequest, version_id: int) -> HttpResponse:
    now = timezone.now()
    version = _version(version_id)
    form = ValidateForm(request.POST)
    if not form.is_valid():
        errors = form.errors.get("seeds") or ["Give a number of seeds."]
        messages.error(request, " ".join(str(error) for error in errors))
        return redirect("author-version", version.pk)
    try:
        run = jobs.validate(request.user, version, form.cleaned_data["seeds"], now)
    except authoring.AuthoringError as error:
        messages.error(request, str(error))
        return redirect("author-version", version.pk)
    return redirect("author-validation", run.pk)


def _validation_run(run_id: int) -> ValidationRun:
    return get_object_or_404(
        ValidationRun.objects.select_related("version__scenario__problem", "requested_by"),
        pk=run_id,
    )


def _validation_page(
    request: AuthenticatedRequest, run: ValidationRun, error: str = ""
) -> HttpResponse:
    version = run.version
    context = {
        "run": run,
        "version": version,
        "problem": version.scenario.problem,
        "current": run.content_hash == version.content_hash,
        "can_publish": (
            version.status == Status.DRAFT
            and run.status == ValidationRun.Status.PASSED
            and run.content_hash == version.content_hash
            and run.seeds >= authoring.MIN_PUBLISH_SEEDS
        ),
        "can_cancel": not run.finished and run.requested_by_id == request.user.pk,
        "error": error,
    }
    return _render(request, "author/validation.html", context, partial="progress")


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def validation_detail(request: AuthenticatedRequest, run_id: int) -> HttpResponse:
    background.end_abandoned(timezone.now())
    return _validation_page(request, _validation_run(run_id))


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_POST
def validation_cancel(request: AuthenticatedRequest, run_id: int) -> HttpResponse:
    run = _validation_run(run_id)
    try:
        run = authoring.cancel_validation(request.user, run, timezone.now())
    except authoring.AuthoringError as error:
        if request.htmx:
            return _validation_page(request, run, error=str(error))
        messages.error(request, str(error))
    return _validation_page(request, run) if request.htmx else redirect("author-validation", run.pk)


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_POST
def publish(request: AuthenticatedRequest, version_id: int) -> HttpResponse:
    now = timezone.now()
    version = _version(version_id)
    form = PublishForm(request.POST, candidates=[old for old, _ in _publish_candidates(version)])
    if not form.is_valid():
        messages.error(request, "Choose versions of this scenario to regrade.")
        return redirect("author-version", version.pk)
    try:
        result = jobs.publish(request.user, version, now, form.cleaned_data["corrects"])
    except authoring.AuthoringError as error:
        messages.error(request, str(error))
        return redirect("author-version", version.pk)
    text = f"v{result.version.number} is published; learners draw from it now."
    if result.retired:
        text += " Retired: " + ", ".join(f"v{old.number}" for old in result.retired) + "."
    if result.regrades:
        text += " Regrading the attempts of " + ", ".join(
            f"v{r.corrected.number}" for r in result.regrades
        )
        text += "."
    messages.success(request, text)
    return redirect("author-version", version.pk)


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def regrade_detail(request: AuthenticatedRequest, regrade_id: int) -> HttpResponse:
    item = get_object_or_404(
        Regrade.objects.select_related(
            "corrected__scenario__problem", "key_version", "requested_by"
        ),
        pk=regrade_id,
    )
    users = dict(
        get_user_model()
        .objects.filter(pk__in={change["user"] for change in item.changes})
        .values_list("pk", "username")
    )
    changes = [{**change, "username": users.get(change["user"], "?")} for change in item.changes]
    return render(
        request,
        "author/regrade.html",
        {"regrade": item, "problem": item.corrected.scenario.problem, "changes": changes},
    )


# Import and export.


def _yaml_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def problem_export(request: AuthenticatedRequest, number: int) -> HttpResponse:
    now = timezone.now()
    problem = _problem(number)
    try:
        text = authoring.export_problem(request.user, problem, now)
    except authoring.AuthoringError as error:
        messages.error(request, str(error))
        return redirect("author-problem", problem.number)
    return _yaml_response(text, f"{problem.number:02d}-problem.yaml")


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_GET
def scenario_export(request: AuthenticatedRequest, scenario_id: int) -> HttpResponse:
    now = timezone.now()
    scenario = get_object_or_404(Scenario.objects.select_related("problem"), pk=scenario_id)
    try:
        text = authoring.export_scenario(request.user, scenario, now)
    except authoring.AuthoringError as error:
        messages.error(request, str(error))
        return redirect("author-problem", scenario.problem.number)
    return _yaml_response(text, f"{scenario.problem.number:02d}-{scenario.key}.yaml")


@login_required
@permission_required(AUTHOR, raise_exception=True)
@require_http_methods(["GET", "POST"])
def import_view(request: AuthenticatedRequest) -> HttpResponse:
    now = timezone.now()
    form = ImportForm(request.POST or None, request.FILES or None)
    reasons = []
    if request.method == "POST" and form.is_valid():
        number = form.cleaned_data.get("problem")
        into = Problem.objects.filter(number=number).first() if number else None
        if number and into is None:
            form.add_error("problem", f"There is no problem {number}.")
        else:
            try:
                report = budget.import_yaml(
                    request.user, form.cleaned_data["document"], now, into_problem=into
                )
            except authoring.ImportRejected as error:
                reasons = error.reasons
            else:
                messages.success(request, f"Imported: {report.summary()}.")
                return redirect("author-problem", report.problem.number)
    return render(
        request,
        "author/import.html",
        {"form": form, "reasons": reasons, "seeds": authoring.IMPORT_SEEDS},
        status=400 if reasons else 200,
    )


# Statistics.


@login_required
@permission_required(AUTHOR, raise_exception=True)
@permission_required(STATISTICS, raise_exception=True)
@require_GET
def stats_index(request: AuthenticatedRequest) -> HttpResponse:
    rows = stats.overview()
    return render(
        request,
        "author/stats_index.html",
        {"rows": rows, "computed_at": max((row.computed_at for row in rows), default=None)},
    )


@login_required
@permission_required(AUTHOR, raise_exception=True)
@permission_required(STATISTICS, raise_exception=True)
@require_POST
def stats_refresh(request: AuthenticatedRequest) -> HttpResponse:
    now = timezone.localtime()
    jobs.recompute_statistics(request.user)
    messages.success(
        request,
        f"Statistics recomputation requested at {now:%H:%M:%S} "
        f"({timezone.get_current_timezone_name()}); the figures below are replaced when it "
        "finishes.",
    )
    back = request.POST.get("next", "")
    if not (back.startswith(reverse("author")) and "//" not in back):
        back = reverse("author-stats")
    return redirect(back)


@login_required
@permission_required(AUTHOR, raise_exception=True)
@permission_required(STATISTICS, raise_exception=True)
@require_GET
def problem_stats(request: AuthenticatedRequest, number: int) -> HttpResponse:
    problem = _problem(number)
    result = stats.problem_statistics(problem)
    return render(
        request,
        "author/stats.html",
        {"problem": problem, "stats": result, "min_attempts": stats.MIN_ATTEMPTS},
    )


NEW_SCENARIO_BODY = """\
params:
  model: {model: [llama-3-8b, llama-3-70b]}
  kv_format: {format: [bf16, fp8]}
  context: {values: [4096, 8192, 16384]}
  users: {int: [10, 100], step: 10}
text: |
  You serve {model} ({model.layers} layers, {model.kv_heads} KV heads of dimension
  {model.head_dim}) to {users} users, each holding {context} tokens, with the KV cache in
  {kv_format}.
parts:
  - key: kv_total
    prompt: How much KV cache do they hold together?
    unit: GB
    answer: kv_bytes_per_token(model, kv_format) * context * users
steps:
  - "All users: {kv_bytes_per_token(model, kv_format):KiB} × {context} × {users} = {kv_total}"
"""
