from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from problems.http import AuthenticatedRequest
from trainer.curriculum import Block, Page, load_curriculum
from trainer.plan import demos, services
from trainer.practice.models import Card


def _page_or_404(number: int) -> Page:
    try:
        return load_curriculum().page(number)
    except KeyError:
        raise Http404("no such page") from None


def _block_or_404(number: int) -> Block:
    try:
        return load_curriculum().block(number)
    except KeyError:
        raise Http404("no such block") from None


def _safe_next(request: AuthenticatedRequest, fallback: str) -> str:
    """Where to go back to after a form: a path of the plan only."""
    target = request.POST.get("next", "")
    return target if target.startswith(reverse("plan")) and "//" not in target else fallback


@login_required
@require_GET
def index(request: AuthenticatedRequest) -> HttpResponse:
    progress = services.progress(request.user)
    return render(request, "plan/index.html", {"progress": progress})


@login_required
@require_GET
def page(request: AuthenticatedRequest, number: int) -> HttpResponse:
    page = _page_or_404(number)
    progress = services.progress(request.user)
    carded = set(
        Card.objects.filter(user=request.user, problem__number__in=page.problems).values_list(
            "problem__number", flat=True
        )
    )
    context = {
        "page": page,
        "progress": progress,
        "here": progress.page(number),
        "blocks": [progress.block(block) for block in progress.page(number).blocks],
        "carded": carded,
        "previous": number - 1 if number > 1 else None,
        "following": number + 1 if number < 10 else None,
        **demos.run(page.demo, request.GET),
    }
    return render(request, "plan/page.html", context)


@login_required
@require_GET
def demo(request: AuthenticatedRequest, number: int) -> HttpResponse:
    """The demo's results alone, for htmx: no query beyond the session and the user."""
    page = _page_or_404(number)
    if not request.htmx:
        query = request.GET.urlencode()
        return redirect(reverse("plan-page", args=[number]) + (f"?{query}" if query else ""))
    context = {"page": page, **demos.run(page.demo, request.GET)}
    # Rendered without the request's context processors: the role check would cost queries.
    return HttpResponse(render_to_string("plan/page.html#demo", context))


@login_required
@require_POST
def start(request: AuthenticatedRequest) -> HttpResponse:
    _, added = services.start_plan(request.user, timezone.now())
    messages.success(
        request,
        f"Plan started. {added} problem{'s' if added != 1 else ''} added to your practice, in "
        "the order of the plan.",
    )
    return redirect("plan")


@login_required
@require_POST
def goals(request: AuthenticatedRequest, number: int) -> HttpResponse:
    block = _block_or_404(number)
    services.save_goals(request.user, block, request.POST.getlist("goal"), timezone.now())
    if not request.htmx:
        messages.success(request, f"Goals of block {block.number} saved.")
        return redirect(_safe_next(request, reverse("plan")))
    progress = services.progress(request.user)
    context = {
        "block": progress.block(number),
        "progress": progress,
        "next": _safe_next(request, reverse("plan")),
        "saved": True,
    }
    return render(request, "plan/index.html#goals-response", context)


@login_required
@require_POST
def practice_problem(request: AuthenticatedRequest, number: int) -> HttpResponse:
    if not any(number in page.problems for page in load_curriculum().pages):
        raise Http404("no such problem in the course")
    try:
        services.practice_problem(request.user, number, timezone.now())
    except services.PlanError as error:
        messages.error(request, str(error))
        return redirect(_safe_next(request, reverse("plan")))
    return redirect("practice")
