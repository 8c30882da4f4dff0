from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from problems import attempts, reports
from problems.engine import Variant
from problems.http import AuthenticatedRequest
from problems.models import Attempt, VariantReport
from problems.variants import attempt_variant, mark_regrade_seen
from trainer.accounts import ratelimit
from trainer.practice import services
from trainer.practice.forms import ProfileForm
from trainer.practice.help import help_html
from trainer.practice.models import LearnerProfile, Review

HOLD_ACTIONS = ("suspend", "unsuspend", "bury", "unbury")
REPORTS_PER_HOUR = 20


def _render_card(
    request: AuthenticatedRequest,
    context: dict[str, Any],
    status: int = 200,
    page: str = "practice/practice.html",
) -> HttpResponse:
    """The whole page, or only the swapped card for htmx."""
    template = "practice/practice.html#card" if request.htmx else page
    return render(request, template, context, status=status)


def _get_attempt_for_user(user: User, attempt_id: int) -> Attempt:
    attempt = services.get_own_attempt(user, attempt_id)
    if attempt is None:
        raise Http404("no such attempt")
    return attempt


def _question_parts(
    variant: Variant, typed: dict[str, str] | None = None, errors: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    typed, errors = typed or {}, errors or {}
    return [
        {
            "key": p.key,
            "prompt": p.prompt,
            "unit": p.unit,
            "typed": typed.get(p.key, ""),
            "error": errors.get(p.key),
        }
        for p in variant.parts
    ]


def _own_report(attempt: Attempt) -> VariantReport | None:
    try:
        return attempt.report
    except VariantReport.DoesNotExist:
        return None


def _result_context(
    user: User,
    attempt: Attempt,
    outcomes: list[attempts.PartOutcome] | None = None,
    review: Review | None = None,
) -> dict[str, Any]:
    """A graded attempt: its verdicts and worked solution, the rating buttons while it waits
    for its rating, and the learner's report on it if any."""
    context = attempts.solution_context(attempt, attempt_variant(attempt), outcomes)
    context.update(state="result", report=_own_report(attempt))
    if review is not None and services.awaiting_rating(review):
        context.update(review=review, ratings=services.rating_choices(user, review))
    return context


def _practice_context(
    request: AuthenticatedRequest, profile: LearnerProfile, now: datetime
) -> dict[str, Any]:
    queue = services.practice_queue(request.user, profile, now)
    context = {"queue": queue, "profile": profile, "state": "empty", "undo": queue.undo}
    card = queue.card
    if card is None:
        return context
    graded = card.open_attempt
    if graded is not None and graded.submitted_at is not None:
        # Graded and not yet rated: shown again until the learner rates it or moves on.
        review = Review.objects.select_related("card").filter(attempt=graded).first()
        context.update(_result_context(request.user, graded, review=review), card=card)
        return context
    attempt = services.open_attempt(card, now)
    variant = attempt_variant(attempt)
    context.update(
        state="question",
        card=card,
        attempt=attempt,
        problem=card.problem,
        text=variant.text,
        sheets=variant.catalogue_sheets(),
        parts=_question_parts(variant),
    )
    return context


@login_required
@require_GET
def practice(request: AuthenticatedRequest) -> HttpResponse:
    now = timezone.now()
    profile = services.get_profile(request.user)
    return _render_card(request, _practice_context(request, profile, now))


@login_required
@require_POST
def start(request: AuthenticatedRequest) -> HttpResponse:
    now = timezone.now()
    if request.POST.get("what") == "all":
        created = services.introduce_all(request.user, now)
        messages.success(request, f"Added {created} problems to your practice.")
    else:
        created = services.introduce(request.user, services.plan_order(), now)
        messages.success(request, f"Added {created} problems, in the order of the 24-hour plan.")
    return redirect("practice")


@login_required
@require_POST
def answer(request: AuthenticatedRequest, attempt_id: int) -> HttpResponse:
    now = timezone.now()
    if not ratelimit.allow("answer", request.user.pk, settings.ANSWER_RATE_LIMIT, 60):
        template = "practice/too_fast.html" + ("#card" if request.htmx else "")
        return render(request, template, status=429)
    try:
        submission = services.submit(
            request.user, attempt_id, services.answers_from_post(request.POST), now
        )
    except services.PracticeError as error:
        raise Http404(str(error)) from None
    attempt = submission.attempt
    if not submission.accepted:
        variant = attempt_variant(attempt)
        typed = {part.key: part.text for part in submission.parts}
        context = {
            "state": "question",
            "attempt": attempt,
            "problem": attempt.version.scenario.problem,
            "text": variant.text,
            "sheets": variant.catalogue_sheets(),
            "parts": _question_parts(variant, typed, submission.parse_errors),
            "profile": services.get_profile(request.user),
            # The learner was asked about blank boxes already, if there were any.
            "blank_confirmed": not all(typed.values()),
        }
        return _render_card(request, context, page=_page_of(attempt))
    context = _result_context(request.user, attempt, submission.parts, submission.review)
    return _render_card(request, context, page=_page_of(attempt))


def _page_of(attempt: Attempt) -> str:
    """Another variant lives on its attempt's page; a scheduled question on the practice page."""
    if attempt.purpose == Attempt.Purpose.FREE:
        return "practice/attempt.html"
    return "practice/practice.html"


def _card_with_error(request: AuthenticatedRequest, error: str, now: datetime) -> HttpResponse:
    """After a refused action: the card as it now is, with the reason (a page, or the swap)."""
    if not request.htmx:
        messages.error(request, error)
        return redirect("practice")
    profile = services.get_profile(request.user)
    context = _practice_context(request, profile, now)
    context["error"] = error
    return _render_card(request, context)


@login_required
@require_POST
def rate(request: AuthenticatedRequest, review_id: int) -> HttpResponse:
    now = timezone.now()
    rating = request.POST.get("rating")
    try:
        if rating:
            services.rate(request.user, review_id, rating, now)
        else:
            services.skip(request.user, review_id, now)
    except services.NotFound as error:
        raise Http404(str(error)) from None
    except services.PracticeError as error:
        return _card_with_error(request, str(error), now)
    return _practice_page(request, now)


@login_required
@require_POST
def undo(request: AuthenticatedRequest, review_id: int) -> HttpResponse:
    now = timezone.now()
    try:
        services.undo(request.user, review_id, now)
    except services.NotFound as error:
        raise Http404(str(error)) from None
    except services.PracticeError as error:
        return _card_with_error(request, str(error), now)
    return _practice_page(request, now)


def _practice_page(request: AuthenticatedRequest, now: datetime) -> HttpResponse:
    """Back to practice after a rating or an undo: the card swapped in, or the page."""
    if not request.htmx:
        return redirect("practice")
    profile = services.get_profile(request.user)
    return _render_card(request, _practice_context(request, profile, now))


@login_required
@require_GET
def attempt_detail(request: AuthenticatedRequest, attempt_id: int) -> HttpResponse:
    attempt = _get_attempt_for_user(request.user, attempt_id)
    if attempt.submitted_at is None:
        if attempt.purpose == Attempt.Purpose.FREE:
            variant = attempt_variant(attempt)
            context = {
                "state": "question",
                "attempt": attempt,
                "problem": attempt.version.scenario.problem,
                "text": variant.text,
                "sheets": variant.catalogue_sheets(),
                "parts": _question_parts(variant),
            }
            return render(request, "practice/attempt.html", context)
        return redirect("practice" if attempt.purpose == attempt.Purpose.PRACTICE else "mock")
    context = _result_context(request.user, attempt)
    mark_regrade_seen(attempt)
    return render(request, "practice/attempt.html", context)


# Practising freely.


def _problem_or_404(user: User, number: int, now: datetime, page: int | str = 1) -> dict[str, Any]:
    try:
        return services.problem_page(user, number, now, page)
    except services.NotFound as error:
        raise Http404(str(error)) from None


@login_required
@require_GET
def problem_detail(request: AuthenticatedRequest, number: int) -> HttpResponse:
    now = timezone.now()
    context = _problem_or_404(request.user, number, now, request.GET.get("page") or 1)
    context["now"] = now
    return render(request, "practice/problem.html", context)


@login_required
@require_POST
def another(request: AuthenticatedRequest, number: int) -> HttpResponse:
    now = timezone.now()
    if not ratelimit.allow("answer", request.user.pk, settings.ANSWER_RATE_LIMIT, 60):
        return render(request, "practice/too_fast.html", status=429)
    try:
        attempt = services.another_variant(request.user, number, now)
    except services.NotFound as error:
        raise Http404(str(error)) from None
    except services.PracticeError as error:
        messages.error(request, str(error))
        return redirect("practice-problem", number)
    return redirect("attempt", attempt.pk)


@login_required
@require_POST
def hold(request: AuthenticatedRequest, number: int) -> HttpResponse:
    """Suspend, unsuspend, bury or unbury the learner's card of a problem."""
    now = timezone.now()
    action = request.POST.get("action")
    if action not in HOLD_ACTIONS:
        messages.error(request, "Choose suspend, unsuspend, bury or unbury.")
        return redirect("practice-problem", number)
    try:
        if action in ("suspend", "unsuspend"):
            services.suspend(request.user, number, now, suspended=action == "suspend")
        else:
            services.bury(request.user, number, now, buried=action == "bury")
    except services.NotFound as error:
        raise Http404(str(error)) from None
    except services.PracticeError as error:
        messages.error(request, str(error))
        return redirect("practice-problem", number)
    messages.success(request, HOLD_MESSAGES[action].format(number=number))
    if request.POST.get("back") == "practice":
        return redirect("practice")
    if request.POST.get("back") == "settings":
        return redirect("practice-settings")
    return redirect("practice-problem", number)


HOLD_MESSAGES = {
    "suspend": "Problem {number} is suspended: out of your reviews until you unsuspend it.",
    "unsuspend": "Problem {number} is back in your reviews.",
    "bury": "Problem {number} is buried until tomorrow.",
    "unbury": "Problem {number} is back in today's reviews.",
}


# Reporting a problem with a variant.


@login_required
@require_POST
def report(request: AuthenticatedRequest, attempt_id: int) -> HttpResponse:
    now = timezone.now()
    attempt = _get_attempt_for_user(request.user, attempt_id)
    error = None
    if not ratelimit.allow("report", request.user.pk, REPORTS_PER_HOUR, 3600):
        error = "You have sent many reports in the last hour; try again later."
    else:
        try:
            reports.report_variant(request.user, attempt.pk, request.POST.get("message"), now)
        except Attempt.DoesNotExist:
            raise Http404("no such attempt") from None
        except reports.ReportError as exc:
            error = str(exc)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, "Thank you: an instructor will look at this question.")
        return redirect("attempt", attempt.pk)
    context = {
        "attempt": attempt,
        "report": VariantReport.objects.filter(attempt=attempt).first(),
        "report_error": error,
        "typed_message": request.POST.get("message", "")[: VariantReport.MAX_MESSAGE],
    }
    return render(request, "practice/_report.html#report", context)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: AuthenticatedRequest) -> HttpResponse:
    profile = services.get_profile(request.user)
    form = ProfileForm(request.POST or None, instance=profile, now=timezone.now())
    if request.method == "POST" and form.is_valid():
        services.save_settings(request.user, form)
        messages.success(request, "Saved. Your schedule has been recomputed from your reviews.")
        return redirect("practice-settings")
    held = services.held_cards(request.user, timezone.now())
    return render(request, "practice/settings.html", {"form": form, "held": held})


@require_GET
def help_page(request: HttpRequest) -> HttpResponse:
    return render(request, "practice/help.html", {"help_html": help_html()})
