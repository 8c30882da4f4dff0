"""Who may open what: every URL pattern of the project, with real object ids, for an anonymous
visitor, the learner who owns the objects, another learner and an instructor.

The patterns are read from the URL resolver, so a new URL without an entry here fails
`test_every_url_pattern_has_an_entry`. Expected answers:

- "login": a redirect to the log-in page (anonymous visitors of pages behind a log-in);
- "admin": a redirect to the admin's log-in page (everyone but staff);
- a status code; a 302 that is not to a log-in page.

Objects belong to `learner`: another learner (and an instructor, who is just another user on
the learner's side) gets a 404 for them, as for an id that does not exist.
"""

import re
from dataclasses import dataclass, field

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from trainer.practice.models import Review

PERSONAS = ("anonymous", "learner", "other", "instructor")
# The owner acts last, so what it changes (a mock finished, an answer recorded) cannot change
# what the others get.
ORDER = ("anonymous", "other", "learner", "instructor")

LOGIN = "login"
ADMIN = "admin"


@dataclass
class Row:
    url: object  # world -> path
    get: tuple  # expected for PERSONAS, in that order
    post: tuple
    data: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)


def everyone(expected):
    return (expected,) * 4


def logged_in(expected):
    return (LOGIN, expected, expected, expected)


def own(expected):
    """The learner's object: served to the owner, a 404 to every other user."""
    return (LOGIN, expected, 404, 404)


def author(expected):
    return (LOGIN, 403, 403, expected)


def fixed(path):
    return lambda world: path


ADMIN_GET = everyone(ADMIN)
ADMIN_POST = everyone(ADMIN)

MATRIX = {
    # Public pages and the health check.
    "": Row(fixed("/"), everyone(200), everyone(405)),
    "help/": Row(fixed("/help/"), everyone(200), everyone(405)),
    "healthz/": Row(fixed("/healthz/"), everyone(200), everyone(200)),
    # Practice.
    "practice/": Row(fixed("/practice/"), logged_in(200), logged_in(405)),
    "practice/start/": Row(fixed("/practice/start/"), logged_in(405), logged_in(302)),
    "practice/settings/": Row(fixed("/practice/settings/"), logged_in(200), logged_in(200)),
    # The world's running mock has the attempt's problem: its solution waits for the mock's end
    # (tests/security/test_mock_integrity.py).
    "practice/attempts/<id:attempt_id>/": Row(
        lambda w: f"/practice/attempts/{w.attempt.pk}/", own(403), logged_in(405)
    ),
    "practice/attempts/<id:attempt_id>/answer/": Row(
        lambda w: f"/practice/attempts/{w.open_attempt.pk}/answer/",
        logged_in(405),
        own(200),
        data={"part-kv_per_token": "320 KiB"},
    ),
    # Rating shows the next question and undoing shows the graded answer again: both wait
    # while the learner's mock runs (the owner gets the waiting page; others, as ever, a 404).
    "practice/reviews/<id:review_id>/rate/": Row(
        lambda w: f"/practice/reviews/{w.review_id}/rate/",
        logged_in(405),
        own(200),
        data={"rating": "2"},
    ),
    "practice/reviews/<id:review_id>/undo/": Row(
        lambda w: f"/practice/reviews/{w.review_id}/undo/", logged_in(405), own(200)
    ),
    "practice/attempts/<id:attempt_id>/report/": Row(
        lambda w: f"/practice/attempts/{w.attempt.pk}/report/",
        logged_in(405),
        own(302),
        data={"message": "The key looks wrong."},
    ),
    # The learner's running mock asks problem 3: its history (keys and solutions) waits.
    "practice/problems/<id:number>/": Row(
        fixed("/practice/problems/3/"), (LOGIN, 403, 200, 200), logged_in(405)
    ),
    # The learner's mock is running: another variant waits until it ends.
    "practice/problems/<id:number>/another/": Row(
        fixed("/practice/problems/3/another/"), logged_in(405), (LOGIN, 200, 302, 302)
    ),
    "practice/problems/<id:number>/hold/": Row(
        fixed("/practice/problems/3/hold/"),
        logged_in(405),
        logged_in(302),
        data={"action": "bury"},
    ),
    # The plan.
    "plan/": Row(fixed("/plan/"), logged_in(200), logged_in(405)),
    "plan/start/": Row(fixed("/plan/start/"), logged_in(405), logged_in(302)),
    "plan/pages/<int:number>/": Row(fixed("/plan/pages/1/"), logged_in(200), logged_in(405)),
    "plan/pages/<int:number>/demo/": Row(
        fixed("/plan/pages/1/demo/"),
        logged_in(200),
        logged_in(405),
        headers={"HX-Request": "true"},
    ),
    "plan/blocks/<int:number>/goals/": Row(
        fixed("/plan/blocks/1/goals/"), logged_in(405), logged_in(302)
    ),
    "plan/problems/<int:number>/practice/": Row(
        fixed("/plan/problems/3/practice/"), logged_in(405), logged_in(302)
    ),
    # Catalogue sheets: figures a question takes as known, for anyone logged in.
    "catalogue/<str:kind>/<str:key>/": Row(
        fixed("/catalogue/gpu/h100-sxm/"), logged_in(200), logged_in(405)
    ),
    # Mock interviews: the running one for its pages, the ended one for its report.
    "mock/": Row(fixed("/mock/"), logged_in(200), logged_in(405)),
    "mock/start/": Row(
        fixed("/mock/start/"), logged_in(405), logged_in(302), data={"format": "standard"}
    ),
    "mock/<int:mock_id>/": Row(lambda w: f"/mock/{w.running_mock.pk}/", own(302), logged_in(405)),
    "mock/<int:mock_id>/problems/<int:position>/": Row(
        lambda w: f"/mock/{w.running_mock.pk}/problems/1/", own(200), logged_in(405)
    ),
    "mock/<int:mock_id>/problems/<int:position>/parts/<slug:part_key>/": Row(
        lambda w: f"/mock/{w.running_mock.pk}/problems/1/parts/{w.part_key}/",
        logged_in(405),
        own(302),
        data={"answer": "320"},
    ),
    "mock/<int:mock_id>/problems/<int:position>/design/": Row(
        lambda w: f"/mock/{w.running_mock.pk}/problems/1/design/",
        logged_in(405),
        own(302),
        data={"design_answer": "Requirements first."},
    ),
    "mock/<int:mock_id>/finish/": Row(
        lambda w: f"/mock/{w.running_mock.pk}/finish/", logged_in(405), own(302)
    ),
    # Keys of the running mock's problem: hidden until it ends, as above.
    "mock/<int:mock_id>/report/": Row(
        lambda w: f"/mock/{w.ended_mock.pk}/report/", own(403), logged_in(405)
    ),
    "mock/<int:mock_id>/report/<int:position>/": Row(
        lambda w: f"/mock/{w.ended_mock.pk}/report/1/", own(403), logged_in(405)
    ),
    "mock/<int:mock_id>/rubric/": Row(
        lambda w: f"/mock/{w.ended_mock.pk}/rubric/", logged_in(405), own(302)
    ),
    # Authoring: instructors only; learners are refused whatever the object.
    "author/": Row(fixed("/author/"), author(200), author(405)),
    "author/problems/new/": Row(fixed("/author/problems/new/"), author(200), author(200)),
    "author/problems/<int:number>/": Row(
        lambda w: f"/author/problems/{w.problem_number}/", author(200), author(405)
    ),
    "author/problems/<int:number>/edit/": Row(
        lambda w: f"/author/problems/{w.authored_number}/edit/", author(200), author(200)
    ),
    "author/problems/<int:number>/scenarios/new/": Row(
        lambda w: f"/author/problems/{w.authored_number}/scenarios/new/",
        author(200),
        author(200),
    ),
    "author/problems/<int:number>/export/": Row(
        lambda w: f"/author/problems/{w.problem_number}/export/", author(200), author(405)
    ),
    "author/problems/<int:number>/stats/": Row(
        lambda w: f"/author/problems/{w.problem_number}/stats/", author(200), author(405)
    ),
    "author/scenarios/<int:scenario_id>/draft/": Row(
        lambda w: f"/author/scenarios/{w.scenario.pk}/draft/", author(405), author(302)
    ),
    "author/scenarios/<int:scenario_id>/export/": Row(
        lambda w: f"/author/scenarios/{w.published.scenario_id}/export/", author(200), author(405)
    ),
    "author/versions/<int:version_id>/": Row(
        lambda w: f"/author/versions/{w.draft.pk}/", author(200), author(405)
    ),
    "author/versions/<int:version_id>/edit/": Row(
        lambda w: f"/author/versions/{w.draft.pk}/edit/", author(200), author(200)
    ),
    "author/versions/<int:version_id>/discard/": Row(
        lambda w: f"/author/versions/{w.draft.pk}/discard/", author(405), author(302)
    ),
    "author/versions/<int:version_id>/preview/": Row(
        lambda w: f"/author/versions/{w.draft.pk}/preview/", author(200), author(405)
    ),
    "author/versions/<int:version_id>/validate/": Row(
        lambda w: f"/author/versions/{w.draft.pk}/validate/", author(405), author(302)
    ),
    "author/versions/<int:version_id>/publish/": Row(
        lambda w: f"/author/versions/{w.draft.pk}/publish/", author(405), author(302)
    ),
    "author/validations/<int:run_id>/": Row(
        lambda w: f"/author/validations/{w.run.pk}/", author(200), author(405)
    ),
    "author/validations/<int:run_id>/cancel/": Row(
        lambda w: f"/author/validations/{w.run.pk}/cancel/", author(405), author(302)
    ),
    "author/regrades/<int:regrade_id>/": Row(
        lambda w: f"/author/regrades/{w.regrade.pk}/", author(200), author(405)
    ),
    "author/reports/": Row(fixed("/author/reports/"), author(200), author(405)),
    "author/reports/<int:report_id>/resolve/": Row(
        lambda w: f"/author/reports/{w.report.pk}/resolve/", author(405), author(302)
    ),
    "author/check/": Row(fixed("/author/check/"), author(405), author(200)),
    "author/reference/": Row(fixed("/author/reference/"), author(200), author(405)),
    "author/import/": Row(fixed("/author/import/"), author(200), author(200)),
    "author/stats/": Row(fixed("/author/stats/"), author(200), author(405)),
    "author/stats/refresh/": Row(fixed("/author/stats/refresh/"), author(405), author(302)),
    # Accounts.
    "accounts/login/": Row(fixed("/accounts/login/"), everyone(200), everyone(200)),
    "accounts/logout/": Row(fixed("/accounts/logout/"), everyone(405), everyone(302)),
    "accounts/signup/": Row(fixed("/accounts/signup/"), (200, 302, 302, 302), (200, 302, 302, 302)),
    "accounts/password/": Row(fixed("/accounts/password/"), logged_in(200), logged_in(200)),
    "accounts/password/done/": Row(
        fixed("/accounts/password/done/"), logged_in(200), logged_in(405)
    ),
    # Django's admin: staff only (none of the personas is staff).
    "admin/": Row(fixed("/admin/"), ADMIN_GET, ADMIN_POST),
    "admin/login/": Row(fixed("/admin/login/"), everyone(200), everyone(200)),
    # Logging out of the admin without being staff goes to the admin's index (and from there to
    # its log-in page).
    "admin/logout/": Row(fixed("/admin/logout/"), everyone(302), everyone(302)),
    "admin/password_change/": Row(fixed("/admin/password_change/"), ADMIN_GET, ADMIN_POST),
    "admin/password_change/done/": Row(
        fixed("/admin/password_change/done/"), ADMIN_GET, ADMIN_POST
    ),
    "admin/autocomplete/": Row(fixed("/admin/autocomplete/"), ADMIN_GET, ADMIN_POST),
    "admin/jsi18n/": Row(fixed("/admin/jsi18n/"), ADMIN_GET, ADMIN_POST),
    "admin/r/<path:content_type_id>/<path:object_id>/": Row(
        lambda w: f"/admin/r/1/{w.learner_id}/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/group/": Row(fixed("/admin/auth/group/"), ADMIN_GET, ADMIN_POST),
    "admin/auth/group/add/": Row(fixed("/admin/auth/group/add/"), ADMIN_GET, ADMIN_POST),
    "admin/auth/group/<path:object_id>/history/": Row(
        lambda w: f"/admin/auth/group/{w.group_id}/history/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/group/<path:object_id>/delete/": Row(
        lambda w: f"/admin/auth/group/{w.group_id}/delete/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/group/<path:object_id>/change/": Row(
        lambda w: f"/admin/auth/group/{w.group_id}/change/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/group/<path:object_id>/": Row(
        lambda w: f"/admin/auth/group/{w.group_id}/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/user/<id>/password/": Row(
        lambda w: f"/admin/auth/user/{w.learner_id}/password/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/user/": Row(fixed("/admin/auth/user/"), ADMIN_GET, ADMIN_POST),
    "admin/auth/user/add/": Row(fixed("/admin/auth/user/add/"), ADMIN_GET, ADMIN_POST),
    "admin/auth/user/<path:object_id>/history/": Row(
        lambda w: f"/admin/auth/user/{w.learner_id}/history/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/user/<path:object_id>/delete/": Row(
        lambda w: f"/admin/auth/user/{w.learner_id}/delete/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/user/<path:object_id>/change/": Row(
        lambda w: f"/admin/auth/user/{w.learner_id}/change/", ADMIN_GET, ADMIN_POST
    ),
    "admin/auth/user/<path:object_id>/": Row(
        lambda w: f"/admin/auth/user/{w.learner_id}/", ADMIN_GET, ADMIN_POST
    ),
    "admin/(?P<app_label>auth|axes)/$": Row(fixed("/admin/axes/"), ADMIN_GET, ADMIN_POST),
    "admin/(?P<url>.*)$": Row(fixed("/admin/no-such-page/"), ADMIN_GET, ADMIN_POST),
    # Password reset by e-mail: open to everyone (a bad link says so).
    "accounts/password/reset/": Row(
        fixed("/accounts/password/reset/"), everyone(200), everyone(200)
    ),
    "accounts/password/reset/sent/": Row(
        fixed("/accounts/password/reset/sent/"), everyone(200), everyone(405)
    ),
    "accounts/password/reset/<uidb64>/<token>/": Row(
        fixed("/accounts/password/reset/MQ/bad-token/"), everyone(200), everyone(200)
    ),
    "accounts/password/reset/done/": Row(
        fixed("/accounts/password/reset/done/"), everyone(200), everyone(405)
    ),
}
# django-axes's records of failed log-ins in the admin: staff only, like the rest of it.
for _model in ("accessattempt", "accesslog", "accessfailurelog"):
    _base = f"admin/axes/{_model}/"
    MATRIX[_base] = Row(fixed(f"/{_base}"), ADMIN_GET, ADMIN_POST)
    MATRIX[_base + "add/"] = Row(fixed(f"/{_base}add/"), ADMIN_GET, ADMIN_POST)
    for _suffix in ("history/", "delete/", "change/", ""):
        MATRIX[f"{_base}<path:object_id>/{_suffix}"] = Row(
            fixed(f"/{_base}1/{_suffix}"), ADMIN_GET, ADMIN_POST
        )


def url_patterns(patterns=None, prefix=""):
    """Every URL pattern of the project as its full route, e.g. 'mock/<int:mock_id>/', joined as
    Django's resolver joins them (a nested regex loses its leading ^)."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern).removeprefix("^" if prefix else "")
        if isinstance(entry, URLResolver):
            yield from url_patterns(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route


def test_every_url_pattern_has_an_entry():
    routes = list(url_patterns())
    assert len(routes) == len(set(routes))
    missing = sorted(set(routes) - set(MATRIX))
    stale = sorted(set(MATRIX) - set(routes))
    assert not missing, f"URL patterns with no entry in the access matrix: {missing}"
    assert not stale, f"entries for URL patterns that no longer exist: {stale}"


def _client(persona, users):
    client = Client()
    if persona != "anonymous":
        client.force_login(users[persona])
    return client


def _check(response, expected, path):
    where = f"{response.request['REQUEST_METHOD']} {path}"
    location = response.get("Location", "")
    if expected == LOGIN:
        assert response.status_code == 302, where
        assert location.startswith("/accounts/login/?next="), f"{where} -> {location}"
    elif expected == ADMIN:
        assert response.status_code == 302, where
        assert location.startswith("/admin/login/?next="), f"{where} -> {location}"
    else:
        assert response.status_code == expected, f"{where}: {response.status_code}"
        if expected == 302:
            assert "/login/" not in location, f"{where} -> {location}"


@pytest.mark.parametrize("route", list(MATRIX))
def test_it_answers_each_persona_as_expected(route, world, learner, other_learner, instructor):
    row = MATRIX[route]
    path = row.url(world)
    assert resolve(path).route == route, f"{path} is not a URL of {route}"
    users = {"learner": learner, "other": other_learner, "instructor": instructor}
    extra = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in row.headers.items()}
    failures = []
    for method, expected in (("get", row.get), ("post", row.post)):
        wanted = dict(zip(PERSONAS, expected, strict=True))
        for persona in ORDER:
            client = _client(persona, users)
            send = client.get if method == "get" else client.post
            response = send(path, row.data if method == "post" else {}, **extra)
            try:
                _check(response, wanted[persona], path)
            except AssertionError as error:
                failures.append(f"{persona}: {error}")
    assert not failures, "\n".join(failures)


def test_another_users_review_cannot_be_rated_and_looks_like_no_review(
    world, client, other_learner
):
    client.force_login(other_learner)
    theirs = client.post(f"/practice/reviews/{world.review_id}/rate/", {"rating": "1"})
    missing = client.post("/practice/reviews/999999/rate/", {"rating": "1"})
    assert theirs.status_code == missing.status_code == 404
    assert _without_token(theirs) == _without_token(missing)
    review = Review.objects.get(pk=world.review_id)
    assert review.self_rating is None


def _without_token(response):
    """The page without its CSRF token, which is masked anew for every response."""
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", response.content.decode())
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def test_another_users_objects_look_like_missing_ones(world, client, other_learner):
    """A 404 for another learner's object is the same page as for an id that does not exist,
    so ids cannot be probed."""
    client.force_login(other_learner)
    pairs = [
        (f"/practice/attempts/{world.attempt.pk}/", "/practice/attempts/999999/"),
        (f"/mock/{world.ended_mock.pk}/report/", "/mock/999999/report/"),
        (f"/mock/{world.running_mock.pk}/problems/1/", "/mock/999999/problems/1/"),
    ]
    for theirs, missing in pairs:
        theirs, missing = client.get(theirs), client.get(missing)
        assert theirs.status_code == missing.status_code == 404
        assert _without_token(theirs) == _without_token(missing)
