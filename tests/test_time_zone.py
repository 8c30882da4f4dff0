"""Every time a page shows is in the learner's zone and labelled with it: the learner's profile
zone is activated for the request (trainer.middleware.LearnerTimeZoneMiddleware)."""

import html
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from problems.models import ScenarioVersion
from tests.mock.helpers import move_deadline, start
from trainer.practice import services
from trainer.practice.models import LearnerProfile

TOKYO = "Asia/Tokyo"  # UTC+9 all year: the shift is the same whatever the test's date


@pytest.fixture
def in_tokyo(learner):
    LearnerProfile.objects.update_or_create(user=learner, defaults={"timezone": TOKYO})
    return learner


def _text(response):
    return html.unescape(response.content.decode())


def test_it_shows_the_running_mock_deadline_in_the_learners_zone(client, loaded_bank, in_tokyo):
    client.force_login(in_tokyo)
    mock = start(client, "drill", page=2)
    deadline = datetime(2031, 5, 6, 7, 8, 9, tzinfo=UTC)
    move_deadline(mock, deadline)
    page = _text(client.get(f"/mock/{mock.pk}/problems/1/"))
    assert "Answers close at" in page
    assert f"16:08:09 ({TOKYO})" in page  # 07:08:09 UTC
    assert ">07:08:09" not in page  # only in the machine-readable datetime attribute
    index = _text(client.get("/mock/"))
    assert f"16:08:09 ({TOKYO})" in index
    home = _text(client.get("/"))
    assert f"16:08 ({TOKYO})" in home


def test_it_dates_the_mock_report_in_the_learners_zone(client, loaded_bank, in_tokyo):
    client.force_login(in_tokyo)
    mock = start(client, "drill", page=2)
    length = mock.deadline - mock.started_at
    move_deadline(mock, datetime(2031, 5, 6, 20, 30, tzinfo=UTC) + length)
    client.post(f"/mock/{mock.pk}/finish/")
    report = _text(client.get(f"/mock/{mock.pk}/report/"))
    # Started 20:30 UTC on the 6th: 05:30 on the 7th in Tokyo.
    assert f"started Wed 7 May 2031, 05:30 ({TOKYO})" in report


def test_it_shows_when_the_next_card_is_due_in_the_learners_zone(client, loaded_bank, in_tokyo):
    services.introduce_all(in_tokyo, timezone.now())
    card = in_tokyo.cards.get()
    due = timezone.now().replace(microsecond=0) + timedelta(days=3)
    card.due_at = due
    card.last_reviewed_at = timezone.now()
    card.reviews_count = 1
    card.save()
    client.force_login(in_tokyo)
    page = _text(client.get("/practice/"))
    shown = timezone.localtime(due, ZoneInfo(TOKYO))
    assert f"{shown:%a} {shown.day} {shown:%b}, {shown:%H:%M}, {TOKYO}" in page


def test_it_shows_an_instructors_author_pages_in_their_zone(client, loaded_bank, instructor):
    LearnerProfile.objects.create(user=instructor, timezone=TOKYO)
    version = ScenarioVersion.objects.select_related("scenario__problem").first()
    ScenarioVersion.objects.filter(pk=version.pk).update(
        created_at=datetime(2031, 1, 2, 23, 15, tzinfo=UTC)
    )
    client.force_login(instructor)
    page = _text(client.get(f"/author/problems/{version.scenario.problem.number}/"))
    assert f"Date ({TOKYO})" in page and "2031-01-03 08:15" in page


def test_it_shows_utc_to_a_visitor_and_leaves_no_zone_behind(client, loaded_bank, in_tokyo):
    client.force_login(in_tokyo)
    client.get("/")
    assert timezone.get_current_timezone_name() == "UTC"
    client.logout()
    assert "UTC" in timezone.get_current_timezone_name()


def test_no_template_labels_a_time_utc():
    """Times are converted to the learner's zone, so a hard-coded "UTC" label would be wrong:
    every label is the zone's name."""
    from pathlib import Path

    templates = Path(__file__).resolve().parent.parent / "templates"
    labelled = [
        f"{path.relative_to(templates)}: {line.strip()}"
        for path in sorted(templates.rglob("*.html"))
        for line in path.read_text().splitlines()
        if " UTC" in line
    ]
    assert labelled == []
