from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from problems import attempts
from problems.variants import attempt_variant, mark_regrade_seen
from trainer.accounts import ratelimit
from trainer.practice import services
from trainer.practice.forms import ProfileForm
from trainer.practice.help import help_html

RATINGS = [(1, "Again"), (2, "Hard"), (3, "Good"), (4, "Easy")]


def _render_card(request, context, status=200):
    """The whole page, or only the swapped card for htmx."""
    template = "practice/practice.html" + ("#card" if request.htmx else "")
    return render(request, template, context, status=status)


def _get_attempt_for_user(user, attempt_id):
    attempt = services.get_own_attempt(user, attempt_id)
    if attempt is None:
        raise Http404("no such attempt")
    return attempt


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
            parts=[{"key": p.key, "prompt": p.prompt, "unit": p.unit} for p in variant.parts],
        )
    return context


@login_required
@require_GET
def practice(request):
    now = timezone.now()
    profile = services.get_profile(request.user)
    return _render_card(request, _question_context(request, profile, now))


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
    return redirect("practice")


@login_required
@require_POST
def answer(request, attempt_id):
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
    variant = attempt_variant(attempt)
    if not submission.accepted:
        typed = {part.key: part.text for part in submission.parts}
        context = {
            "state": "question",
            "attempt": attempt,
            "problem": attempt.version.scenario.problem,
            "text": variant.text,
            "parts": [
                {
                    "key": p.key,
                    "prompt": p.prompt,
                    "unit": p.unit,
                    "typed": typed.get(p.key, ""),
                    "error": submission.parse_errors.get(p.key),
                }
                for p in variant.parts
            ],
            "profile": services.get_profile(request.user),
        }
        return _render_card(request, context)
    context = attempts.solution_context(attempt, variant, submission.parts)
    context.update(state="result", review=submission.review, ratings=RATINGS)
    return _render_card(request, context)


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
        return redirect("practice")
    profile = services.get_profile(request.user)
    return _render_card(request, _question_context(request, profile, now))


@login_required
@require_GET
def attempt_detail(request, attempt_id):
    attempt = _get_attempt_for_user(request.user, attempt_id)
    if attempt.submitted_at is None:
        return redirect("practice" if attempt.purpose == attempt.Purpose.PRACTICE else "mock")
    context = attempts.solution_context(attempt, attempt_variant(attempt))
    mark_regrade_seen(attempt)
    return render(request, "practice/attempt.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    profile = services.get_profile(request.user)
    before = (profile.scheduler, profile.interview_date, profile.timezone)
    form = ProfileForm(request.POST or None, instance=profile, now=timezone.now())
    if request.method == "POST" and form.is_valid():
        profile = form.save()
        if (profile.scheduler, profile.interview_date, profile.timezone) != before:
            services.recompute_cards(request.user)
        messages.success(request, "Saved. Your schedule has been recomputed from your reviews.")
        return redirect("practice-settings")
    return render(request, "practice/settings.html", {"form": form})


@require_GET
def help_page(request):
    return render(request, "practice/help.html", {"help_html": help_html()})
