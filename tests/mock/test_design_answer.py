"""The capstone's written design answer: saved during the rehearsal, refused after it, shown in
the report beside the rubric that scores it."""

from datetime import timedelta

from django.utils import timezone

from tests.mock.helpers import HX, move_deadline, start
from trainer.mock import services


def _url(mock, position=1):
    return f"/mock/{mock.pk}/problems/{position}/design/"


def test_it_saves_the_design_answer_and_shows_it_again(capstone_bank, mocking):
    mock = start(mocking, "capstone")
    page = mocking.get(f"/mock/{mock.pk}/problems/1/").content.decode()
    assert 'name="design_answer"' in page and 'for="design-text"' in page
    response = mocking.post(_url(mock), {"design_answer": "Peak: 1M users × 10 / 86,400 s"})
    assert response.status_code == 302
    assert mock.items.get(position=1).design_answer == "Peak: 1M users × 10 / 86,400 s"
    partial = mocking.post(_url(mock), {"design_answer": "Second draft"}, headers=HX)
    html = partial.content.decode()
    assert html.lstrip().startswith('<form id="design-answer"') and "Saved at" in html
    assert mock.items.get(position=1).design_answer == "Second draft"
    assert mock.items.get(position=2).design_answer == ""
    assert "Second draft" in mocking.get(f"/mock/{mock.pk}/problems/1/").content.decode()


def test_it_shows_each_design_answer_in_the_report_beside_the_rubric(capstone_bank, mocking):
    mock = start(mocking, "capstone")
    mocking.post(_url(mock, 2), {"design_answer": "Replicas: <b>peak</b> / per-replica"})
    mocking.post(f"/mock/{mock.pk}/finish/")
    html = mocking.get(f"/mock/{mock.pk}/report/").content.decode()
    rubric = html[html.index('id="rubric"') :]
    assert "Rehearsal 1: your design answer" in rubric and "Nothing was written" in rubric
    assert "Replicas: &lt;b&gt;peak&lt;/b&gt; / per-replica" in rubric  # escaped, never markup
    assert rubric.index("your design answer") < rubric.index('<table class="rubric">')


def test_it_refuses_the_design_answer_after_the_end(capstone_bank, mocking):
    mock = start(mocking, "capstone")
    mocking.post(_url(mock), {"design_answer": "before"})
    move_deadline(mock, timezone.now() - services.GRACE - timedelta(seconds=1))
    response = mocking.post(_url(mock), {"design_answer": "after"}, headers=HX)
    assert response.status_code == 409 and response["HX-Redirect"] == f"/mock/{mock.pk}/report/"
    assert mock.items.get(position=1).design_answer == "before"
    mock.refresh_from_db()
    assert mock.ended_at is not None


def test_it_refuses_a_design_answer_too_long_and_keeps_the_saved_one(capstone_bank, mocking):
    mock = start(mocking, "capstone")
    mocking.post(_url(mock), {"design_answer": "short"})
    text = "x" * (services.DESIGN_ANSWER_LIMIT + 1)
    response = mocking.post(_url(mock), {"design_answer": text}, headers=HX)
    assert response.status_code == 422
    assert "Keep the answer under 20,000 characters" in response.content.decode()
    assert mock.items.get(position=1).design_answer == "short"


def test_it_asks_no_design_answer_outside_the_capstone(mocking):
    mock = start(mocking)
    assert (
        'name="design_answer"' not in mocking.get(f"/mock/{mock.pk}/problems/1/").content.decode()
    )
    response = mocking.post(_url(mock), {"design_answer": "text"})
    assert response.status_code == 302 and mock.items.get(position=1).design_answer == ""


def test_it_keeps_another_learners_mock_out_of_reach(capstone_bank, mocking, other_learner, client):
    mock = start(mocking, "capstone")
    client.force_login(other_learner)
    assert client.post(_url(mock), {"design_answer": "mine"}).status_code == 404
    assert mock.items.get(position=1).design_answer == ""
