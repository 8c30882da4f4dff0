from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.validators import ProhibitNullCharactersValidator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from problems.http import AuthenticatedRequest
from problems.variants import mark_regrade_seen
from trainer.accounts import ratelimit
from trainer.mock import integrity, services
from trainer.mock.models import Mock


def _get_mock_for_user(user: User, mock_id: int) -> Mock:
    mock = services.get_mock(user, mock_id)
    if mock is None:
        raise Http404("no such mock")
    return mock


def _report_url(mock: Mock) -> str:
    return reverse("mock-report", args=[mock.pk])


def _problem_url(mock: Mock, position: int) -> str:
    return reverse("mock-problem", args=[mock.pk, position])


@login_required
@require_GET
def index(request: AuthenticatedRequest) -> HttpResponse:
    now = timezone.now()
    services.end_expired(now, user=request.user)
    past = services.past_mocks(request.user)
    context = {
        "formats": services.mock_formats(),
        "running": services.running_mock(request.user),
        "past": past,
        "history_chart": services.history_chart(past) if len(past) > 1 else "",
        "grace_seconds": int(services.GRACE.total_seconds()),
    }
    return render(request, "mock/index.html", context)


@login_required
@require_POST
def start(request: AuthenticatedRequest) -> HttpResponse:
    now = timezone.now()
    try:
        page = int(request.POST.get("page", ""))
    except ValueError:  # absent, or not a number ("²" passes isdigit() but not int())
        page = None
    try:
        mock, created = services.start(request.user, request.POST.get("format", ""), now, page=page)
    except services.MockError as error:
        messages.error(request, str(error))
        return redirect("mock")
    if not created:
        messages.info(request, "You have a mock running: here it is. Finish it to start another.")
    return redirect("mock-detail", mock.pk)


@login_required
@require_GET
def mock_detail(request: AuthenticatedRequest, mock_id: int) -> HttpResponse:
    now = timezone.now()
    mock = services.end_if_due(_get_mock_for_user(request.user, mock_id), now)
    if services.is_over(mock, now):
        return redirect(_report_url(mock))
    position = mock.current_item.position if mock.current_item is not None else 1
    return redirect(_problem_url(mock, position))


@login_required
@require_GET
def problem(request: AuthenticatedRequest, mock_id: int, position: int) -> HttpResponse:
    now = timezone.now()
    mock = services.end_if_due(_get_mock_for_user(request.user, mock_id), now)
    if services.is_over(mock, now):
        return redirect(_report_url(mock))
    if services.open_problem(mock, position, now) is None:
        raise Http404("no such problem in this mock")
    context = services.running_context(mock, position, now)
    return render(request, "mock/mock.html", context)


TOO_FAST = "You have sent more than a minute's worth of answers; wait a minute."


def _too_fast(
    request: AuthenticatedRequest,
    mock: Mock,
    position: int,
    part_key: str,
    text: str,
    now: datetime,
) -> HttpResponse:
    """Over the answer rate limit (shared with practice): nothing is recorded, and the box keeps
    what was typed, with the reason."""
    item = services.get_item(mock, position)
    if (
        item is None
        or part_key not in services.variants.attempt_variant(item.attempt).answer_values
    ):
        raise Http404("no such part in this mock")
    if services.is_over(mock, now):
        return redirect(_report_url(mock))
    if request.htmx:
        part = services.answer_box(item, part_key, recorded=False, typed=text[:200], error=TOO_FAST)
        context = {"mock": mock, "item": item, "part": part}
        return render(request, "mock/mock.html#part", context, status=429)
    page = services.running_context(
        mock, position, now, part_errors={part_key: (text[:200], TOO_FAST)}
    )
    return render(request, "mock/mock.html", page, status=429)


@login_required
@require_POST
def answer(
    request: AuthenticatedRequest, mock_id: int, position: int, part_key: str
) -> HttpResponse:
    now = timezone.now()
    text = request.POST.get("answer", "")
    if not ratelimit.allow("answer", request.user.pk, settings.ANSWER_RATE_LIMIT, 60):
        mock = _get_mock_for_user(request.user, mock_id)
        return _too_fast(request, mock, position, part_key, text, now)
    outcome = services.record_answer(request.user, mock_id, position, part_key, text, now)
    if outcome.status == services.MISSING or outcome.mock is None:
        raise Http404("no such part in this mock")
    mock = outcome.mock
    if outcome.status == services.CLOSED:
        response = render(
            request,
            "mock/closed.html",
            {"mock": mock, "grace_seconds": int(services.GRACE.total_seconds())},
            status=409,
        )
        if request.htmx:
            response["HX-Redirect"] = _report_url(mock)
        return response
    item = outcome.item
    recorded = outcome.status in (services.RECORDED, services.ALREADY)
    note = (
        "A part is answered once: this second answer was not recorded."
        if outcome.status == services.ALREADY
        else ""
    )
    if not request.htmx:
        if recorded:
            if note:
                messages.info(request, note)
            return redirect(_problem_url(mock, position))
        context = services.running_context(
            mock, position, now, part_errors={part_key: (text[:200], outcome.message)}
        )
        return render(request, "mock/mock.html", context)
    if item is None:  # only a closed mock has no item, and it returned above
        raise Http404("no such part in this mock")
    part = services.answer_box(
        item,
        part_key,
        recorded=recorded,
        typed="" if recorded else text[:200],
        error="" if recorded else outcome.message,
        note=note,
    )
    context = {"mock": mock, "item": item, "part": part}
    if outcome.status == services.RECORDED:
        context["items"] = services.progress(mock)
    return render(request, "mock/_answered.html", context)


@login_required
@require_POST
def design_answer(request: AuthenticatedRequest, mock_id: int, position: int) -> HttpResponse:
    now = timezone.now()
    text = request.POST.get("design_answer", "")
    if "\x00" in text:  # PostgreSQL cannot store one: refused like a text too long
        mock = _get_mock_for_user(request.user, mock_id)
        item = get_object_or_404(mock.items, position=position)
        message = str(ProhibitNullCharactersValidator.message)
        outcome = services.AnswerOutcome(services.EMPTY, message, mock=mock, item=item)
    else:
        outcome = services.save_design_answer(request.user, mock_id, position, text, now)
    if outcome.status == services.MISSING or outcome.mock is None:
        raise Http404("no such problem in this mock")
    mock = outcome.mock
    if outcome.status == services.CLOSED:
        if request.htmx:
            response = HttpResponse(status=409)
            response["HX-Redirect"] = _report_url(mock)
            return response
        messages.error(request, "The rehearsal is over: your answer is kept as it was at the end.")
        return redirect(_report_url(mock))
    saved = outcome.status == services.RECORDED
    if not request.htmx:
        if saved:
            messages.success(request, "Design answer saved.")
        else:
            messages.error(request, outcome.message)
        return redirect(_problem_url(mock, position))
    design = {
        "text": outcome.item.design_answer if saved and outcome.item is not None else text,
        "saved_at": now if saved else None,
        "error": "" if saved else outcome.message,
    }
    context = {"mock": mock, "item": outcome.item, "design": design}
    return render(request, "mock/mock.html#design", context, status=200 if saved else 422)


@login_required
@require_POST
def finish(request: AuthenticatedRequest, mock_id: int) -> HttpResponse:
    now = timezone.now()
    mock = services.finish(request.user, _get_mock_for_user(request.user, mock_id).pk, now)
    return redirect(_report_url(mock))


@login_required
@require_GET
def report(request: AuthenticatedRequest, mock_id: int) -> HttpResponse:
    now = timezone.now()
    mock = services.end_if_due(_get_mock_for_user(request.user, mock_id), now)
    if mock.ended_at is None:
        return redirect("mock-detail", mock.pk)
    problem_ids = mock.items.values_list("problem_id", flat=True)
    if running := integrity.running_mock_covering(request.user, problem_ids, now):
        return integrity.hidden_response(request, running)
    context = services.report(mock)
    context.update(capstone=Mock.Format.CAPSTONE)
    return render(request, "mock/report.html", context)


@login_required
@require_GET
def solution(request: AuthenticatedRequest, mock_id: int, position: int) -> HttpResponse:
    now = timezone.now()
    mock = services.end_if_due(_get_mock_for_user(request.user, mock_id), now)
    if mock.ended_at is None:
        return redirect("mock-detail", mock.pk)
    context = services.solution_context(mock, position)
    if context is None:
        raise Http404("no such problem in this mock")
    problem_id = context["attempt"].version.scenario.problem_id
    if running := integrity.running_mock_covering(request.user, [problem_id], now):
        return integrity.hidden_response(request, running)
    mark_regrade_seen(context["attempt"])
    return render(request, "mock/solution.html", context)


@login_required
@require_POST
def rubric(request: AuthenticatedRequest, mock_id: int) -> HttpResponse:
    now = timezone.now()
    mock = services.end_if_due(_get_mock_for_user(request.user, mock_id), now)
    try:
        services.save_rubric(mock, services.rubric_from_post(request.POST))
    except services.MockError as error:
        messages.error(request, str(error))
        return redirect("mock-detail", mock.pk)
    messages.success(request, "Self-assessment saved.")
    return redirect(_report_url(mock) + "#rubric")
