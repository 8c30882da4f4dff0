"""Learners' reports in the authoring area: instructors only, with the seed, the learner's
answers and a one-click preview of that exact variant."""

from django.utils import timezone

from problems import reports
from problems.models import VariantReport
from problems.variants import variant_of
from tests.practice.helpers import open_attempt_of, right_answers, wrong_answers
from trainer.practice import services


def _reported(client, learner, answers_of=wrong_answers, message="Part 1's key looks wrong."):
    services.introduce_all(learner, timezone.now())
    client.force_login(learner)
    attempt = open_attempt_of(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", answers_of(attempt))
    client.post(f"/practice/attempts/{attempt.pk}/report/", {"message": message})
    client.logout()
    return attempt, VariantReport.objects.get(attempt=attempt)


def test_it_lists_reports_with_seed_answers_and_a_preview_of_that_variant(
    client, loaded_bank, learner, instructor
):
    attempt, report = _reported(client, learner)
    client.force_login(instructor)
    html = client.get("/author/reports/").content.decode().replace("&#x27;", "'")
    assert "Part 1's key looks wrong." in html
    assert f"<code>{attempt.seed}</code>" in html
    preview = f"/author/versions/{attempt.version_id}/preview/?seed={attempt.seed}"
    assert f'href="{preview}"' in html
    for answer in attempt.answers.all():
        assert answer.text in html
    # The preview shows exactly the variant the learner answered.
    variant = variant_of(attempt.version, attempt.seed)
    shown = client.get(preview).content.decode().replace("&#x27;", "'")
    for part in variant.parts:
        assert variant.key_text(part.key) in shown


def test_it_shows_open_reports_on_the_problem_page_and_resolves_them(
    client, loaded_bank, learner, instructor
):
    _, report = _reported(client, learner)
    client.force_login(instructor)
    page = client.get("/author/problems/3/").content.decode().replace("&#x27;", "'")
    assert "Part 1's key looks wrong." in page
    response = client.post(f"/author/reports/{report.pk}/resolve/", {"back": "problem"})
    assert response["Location"] == "/author/problems/3/"
    report.refresh_from_db()
    assert report.status == "resolved" and report.resolved_by == instructor
    assert "Part 1's key looks wrong." not in client.get("/author/problems/3/").content.decode()
    assert "Part 1" not in client.get("/author/reports/").content.decode().replace("&#x27;", "'")
    resolved = client.get("/author/reports/?status=resolved").content.decode()
    assert "resolved" in resolved and "by instructor" in resolved


def test_it_is_for_instructors_only(client, loaded_bank, learner, other_learner):
    _, report = _reported(client, learner)
    for user in (learner, other_learner):
        client.force_login(user)
        assert client.get("/author/reports/").status_code == 403
        assert client.post(f"/author/reports/{report.pk}/resolve/").status_code == 403
    client.logout()
    assert client.get("/author/reports/").status_code == 302
    report.refresh_from_db()
    assert report.status == "open"


def test_it_reads_the_list_in_the_same_number_of_queries_for_1_and_30_reports(
    client, loaded_bank, learner, instructor, django_user_model
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _reported(client, learner, right_answers)

    def count():
        client.force_login(instructor)
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/author/reports/?status=all").status_code == 200
        return len(queries)

    one = count()
    for n in range(29):
        user = django_user_model.objects.create_user(f"reporter{n}", password="x" * 12)
        _reported(client, user)
    assert count() == one


def test_it_resolves_a_report_once(loaded_bank, client, learner, instructor):
    _, report = _reported(client, learner)
    now = timezone.now()
    assert reports.resolve(report.pk, instructor, now) == 1
    assert reports.resolve(report.pk, instructor, now) == 0
