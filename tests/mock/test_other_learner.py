from django.test import Client

from problems.models import PartAnswer
from tests.mock.helpers import answer_url, start, variants_of
from trainer.mock.models import Mock


def _every_url(mock, part_key):
    gets = [
        f"/mock/{mock.pk}/",
        f"/mock/{mock.pk}/problems/1/",
        f"/mock/{mock.pk}/report/",
        f"/mock/{mock.pk}/report/1/",
    ]
    posts = [
        answer_url(mock, 1, part_key),
        f"/mock/{mock.pk}/finish/",
        f"/mock/{mock.pk}/rubric/",
    ]
    return gets, posts


def test_it_hides_a_running_mock_from_another_learner(mocking, other_learner):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    gets, posts = _every_url(mock, variant.parts[0].key)
    other = Client()
    other.force_login(other_learner)
    for url in gets:
        assert other.get(url).status_code == 404, url
    for url in posts:
        assert other.post(url, {"answer": "320 KiB", "rubric-1-cost": "2"}).status_code == 404, url
    mock.refresh_from_db()
    assert mock.ended_at is None and not PartAnswer.objects.exists()
    assert "You have a mock running" not in other.get("/mock/").content.decode()


def test_it_hides_an_ended_mock_from_another_learner(mocking, other_learner):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    mocking.post(f"/mock/{mock.pk}/finish/")
    gets, posts = _every_url(mock, variant.parts[0].key)
    other = Client()
    other.force_login(other_learner)
    for url in gets:
        assert other.get(url).status_code == 404, url
    for url in posts:
        assert other.post(url, {"answer": "1", "rubric-1-cost": "2"}).status_code == 404, url
    assert f"/mock/{mock.pk}/report/" not in other.get("/mock/").content.decode()
    assert f"/mock/{mock.pk}/report/" not in other.get("/").content.decode()
    assert Mock.objects.get().items.get().rubric == {}


def test_it_asks_anonymous_visitors_to_log_in(client, loaded_bank):
    for url in ["/mock/", "/mock/1/", "/mock/1/problems/1/", "/mock/1/report/"]:
        assert client.get(url)["Location"].startswith("/accounts/login/"), url
    assert client.post("/mock/start/", {"format": "standard"})["Location"].startswith(
        "/accounts/login/"
    )
