from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from problems.variants import attempt_variant, mark_regrade_seen
from trainer.accounts import ratelimit
from trainer.mock.services import is_over, running_mock
from trainer.practice import dashboard as dashboard_numbers
from trainer.practice import services
from trainer.practice.forms import ProfileForm

RATINGS = [(1, "Again"), (2, "Hard"), (3, "Good"), (4, "Easy")]


def _render_card(request, context, partial):
    """The whole page, or only the swapped region for htmx."""
    template = "practice/practice.html"
    if request.htmx:
        template += "#" + partial
    return render(request, template, context)


def _question_context(request, profile, now):
    queue = services.practice_queue(request.user, profile, now)
    context = {"queue": queue, "profile": profile, "state": "empty"}
    if queue.card is not None:
        attempt = services.open_attempt(queue.card, now)
        variant = attempt_variant(attempt)
        context.update(
            state="question",
            card=queue.card,
            attempt=attempt,
            problem=queue.card.problem,
            text=variant.text,
            sheets=variant.catalogue_sheets(),
            parts=[{"key": p.key, "prompt": p.prompt, "unit": p.unit} for p in variant.parts],
        )
    return context


def _mock_in_progress(request, now):
    """While a mock interview runs, practice (with its worked solutions) waits: otherwise the
    same problem's solution would be one tab away."""
    mock = running_mock(request.user)
    if mock is None or is_over(mock, now):
        return None
    return _render_card(request, {"state": "mock", "mock": mock}, "card")


@login_required
@require_GET
def practice(request):
    now = timezone.now()
    if blocked := _mock_in_progress(request, now):
        return blocked
    profile = services.get_profile(request.user)
    context = _question_context(request, profile, now)
    return _render_card(request, context, "card")


@login_required
@require_POST
def start(request):
    now = timezone.now()
    if request.POST.get("what") == "all":
        created = services.introduce_all(request.user, now)
        messages.success(request, f"Added {created} problems to your practice.")
    else:
        created = services.introduce(request.user, services.plan_order(), now)
        messages.success(request, f"Added {created} problems, in the order of the 24-hour plan.")
    return redirect("/practice/")


@login_required
@require_POST
def answer(request, attempt_id):
    now = timezone.now()
    if blocked := _mock_in_progress(request, now):
        return blocked
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
    variant = attempt_variant(attempt)
    problem = attempt.version.scenario.problem
    context = {
        "attempt": attempt,
        "problem": problem,
        "text": variant.text,
        "sheets": variant.catalogue_sheets(),
    }
    if not submission.accepted:
        typed = {part.key: part.text for part in submission.parts}
        context.update(
            state="question",
            parts=[
                {
                    "key": p.key,
                    "prompt": p.prompt,
                    "unit": p.unit,
                    "typed": typed.get(p.key, ""),
                    "error": submission.parse_errors.get(p.key),
                }
                for p in variant.parts
            ],
            profile=services.get_profile(request.user),
        )
        return _render_card(request, context, "card")
    context.update(_result_context(attempt, variant, submission.parts, submission.review))
    return _render_card(request, context, "card")


def _result_context(attempt, variant, parts, review):
    scenario = variant.scenario
    problem = attempt.version.scenario.problem
    return {
        "state": "result",
        "results": parts,
        "score": attempt.score,
        "steps": variant.steps,
        "tradeoffs": scenario.tradeoffs if scenario.tradeoffs is not None else problem.tradeoffs,
        "model_answer": (
            scenario.model_answer if scenario.model_answer is not None else problem.model_answer
        ),
        "self_check": problem.self_check,
        "review": review,
        "ratings": RATINGS,
    }


@login_required
@require_POST
def rate(request, review_id):
    now = timezone.now()
    rating = request.POST.get("rating")
    if rating:
        try:
            services.rate(request.user, review_id, rating, now)
        except services.NotFound as error:
            raise Http404(str(error)) from None
        except services.PracticeError as error:
            messages.error(request, str(error))
    if not request.htmx:
        return redirect("/practice/")
    profile = services.get_profile(request.user)
    return _render_card(request, _question_context(request, profile, now), "card")


@login_required
@require_GET
def attempt_detail(request, attempt_id):
    attempt = services.get_own_attempt(request.user, attempt_id)
    if attempt is None:
        raise Http404("no such attempt")
    if attempt.submitted_at is None:
        return redirect("/practice/" if attempt.purpose == attempt.Purpose.PRACTICE else "/mock/")
    variant = attempt_variant(attempt)
    context = {
        "attempt": attempt,
        "problem": attempt.version.scenario.problem,
        "text": variant.text,
        "notice": attempt.regrade_notice,
    }
    context.update(_result_context(attempt, variant, services.stored_outcomes(attempt), None))
    mark_regrade_seen(attempt)
    return render(request, "practice/attempt.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    profile = services.get_profile(request.user)
    before = (profile.scheduler, profile.interview_date, profile.timezone)
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        profile = form.save()
        if (profile.scheduler, profile.interview_date, profile.timezone) != before:
            services.recompute_cards(request.user)
        messages.success(request, "Saved. Your schedule has been recomputed from your reviews.")
        return redirect("/practice/settings/")
    return render(request, "practice/settings.html", {"form": form})


@require_GET
def home(request):
    if not request.user.is_authenticated:
        return render(request, "home.html")
    now = timezone.now()
    profile = services.get_profile(request.user)
    context = dashboard_numbers.dashboard(request.user, profile, now)
    return render(request, "practice/dashboard.html", context)


@require_GET
def help_page(request):
    from trainer.practice.help import help_html

    return render(request, "practice/help.html", {"help_html": help_html()})
