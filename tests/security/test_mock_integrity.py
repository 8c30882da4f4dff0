"""While a mock runs, no page shows a worked solution or a key of its problems: not the earlier
practice attempt of the same problem, not an earlier mock's report or solution pages."""

import pytest
from django.utils import timezone

from trainer.mock.models import Mock

pytestmark = pytest.mark.django_db


def _guarded_pages(world):
    return [
        f"/practice/attempts/{world.attempt.pk}/",
        f"/practice/problems/{world.attempt.version.scenario.problem.number}/",
        f"/mock/{world.ended_mock.pk}/report/",
        f"/mock/{world.ended_mock.pk}/report/1/",
    ]


def test_it_hides_every_solution_of_the_running_mocks_problems(client, world, learner):
    client.force_login(learner)
    for url in _guarded_pages(world):
        response = client.get(url)
        assert response.status_code == 403, url
        page = response.content.decode()
        assert "mock interview is running" in page, url
        assert "Worked solution" not in page and "key:" not in page, url


def test_it_shows_them_again_when_the_mock_ends(client, world, learner):
    Mock.objects.filter(pk=world.running_mock.pk).update(ended_at=timezone.now())
    client.force_login(learner)
    for url in _guarded_pages(world):
        assert client.get(url).status_code == 200, url


def test_undoing_a_rating_waits_too(client, world, learner):
    """Undo shows the graded answer (its worked solution) again: it waits for the mock's end."""
    client.force_login(learner)
    page = client.post(f"/practice/reviews/{world.review_id}/undo/").content.decode()
    assert "mock interview" in page and "Worked solution" not in page
