from datetime import timedelta

from django.utils import timezone

from tests.mock.helpers import answer_all, move_deadline, start
from trainer.mock import services


def test_it_lists_past_mocks_on_the_dashboard(mocking):
    mock = start(mocking)
    answer_all(mocking, mock, right=True)
    mocking.post(f"/mock/{mock.pk}/finish/")
    html = mocking.get("/").content.decode()
    assert "<h2>Mock interviews</h2>" in html
    assert f'<a href="/mock/{mock.pk}/report/">Report</a>' in html and "<td>100%</td>" in html
    assert html.count("<svg") == 2  # the dashboard's own two charts, nothing more


def test_it_shows_the_running_mock_on_the_dashboard(mocking):
    mock = start(mocking)
    html = mocking.get("/").content.decode()
    assert "A standard mock is running" in html and f'href="/mock/{mock.pk}/"' in html


def test_it_ends_a_mock_whose_time_is_up_when_the_dashboard_opens(mocking):
    mock = start(mocking)
    move_deadline(mock, timezone.now() - services.GRACE - timedelta(minutes=1))
    html = mocking.get("/").content.decode()
    mock.refresh_from_db()
    assert mock.ended_at == mock.deadline
    assert "is running" not in html and f"/mock/{mock.pk}/report/" in html


def test_it_shows_no_mock_section_before_the_first_mock(mocking):
    assert "Mock interviews</h2>" not in mocking.get("/").content.decode()
