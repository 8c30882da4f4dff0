import html
from datetime import timedelta

from django.utils import timezone

from tests.mock.helpers import answer, answer_all, move_deadline, start, variants_of
from tests.practice.helpers import fold_problem_texts
from trainer.mock import services
from trainer.mock.rubric import CAPSTONE_RUBRIC, MAX_POINTS


def _text(response):
    return html.unescape(response.content.decode())


def test_it_shows_no_report_before_the_end(mocking):
    mock = start(mocking)
    assert mocking.get(f"/mock/{mock.pk}/report/")["Location"] == f"/mock/{mock.pk}/"
    assert mocking.get(f"/mock/{mock.pk}/report/1/")["Location"] == f"/mock/{mock.pk}/"


def test_it_reports_each_part_with_its_key_and_explains_the_misconception_hit(mocking):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    half = f"{variant.answer('kv_per_token') / 2:.6g} KiB"
    answer(mocking, mock, 1, "kv_per_token", half)
    answer(mocking, mock, 1, "gpus_for_cache", variant.key_text("gpus_for_cache"))
    move_deadline(mock, timezone.now() - services.GRACE - timedelta(seconds=1))
    response = mocking.get(f"/mock/{mock.pk}/", follow=True)
    text = _text(response)
    assert response.redirect_chain[-1][0] == f"/mock/{mock.pk}/report/"
    for part in variant.parts:
        assert variant.key_text(part.key) in text
        assert part.prompt in text
    assert text.count('class="verdict correct"') == 1
    assert text.count('class="verdict blank"') == 2
    # Explained in words beside the part; the mistake's internal tag is never shown.
    assert text.count('class="feedback"') == 1 and "kv-missing-factor-2" not in text
    assert '<strong class="big">25%</strong><br>score' in text
    assert "ended at the deadline" in text
    assert "a lapse" in text  # one part of four: quality below 3


def test_it_shows_the_worked_solution_of_each_problem(mocking):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    mocking.post(f"/mock/{mock.pk}/finish/")
    text = _text(mocking.get(f"/mock/{mock.pk}/report/1/"))
    for step in variant.steps:
        assert step in text
    assert "Model interview answer" in text and "Trade-offs" in text
    # Reused from practice, without practice's rating form (a mock review is not rated there).
    assert "/practice/reviews/" not in text


def test_the_worked_solution_shows_the_follow_ups_with_the_variants_numbers(mocking):
    fold_problem_texts()
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    mocking.post(f"/mock/{mock.pk}/finish/")
    text = _text(mocking.get(f"/mock/{mock.pk}/report/1/"))
    assert "What the interviewer asks next" in text
    for question, reply in variant.follow_ups:
        assert question in text and reply in text
    assert variant.model_answer.split()[-3] in text


def test_the_report_lists_what_the_interviewer_asks_next_for_each_problem(mocking):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    mocking.post(f"/mock/{mock.pk}/finish/")
    text = _text(mocking.get(f"/mock/{mock.pk}/report/"))
    assert variant.follow_ups and "What the interviewer asks next" in text
    for question, reply in variant.follow_ups:
        assert question in text and reply in text


def test_it_compares_with_earlier_mocks(mocking):
    first = start(mocking)
    answer_all(mocking, first, right=True)
    mocking.post(f"/mock/{first.pk}/finish/")
    second = start(mocking)
    mocking.post(f"/mock/{second.pk}/finish/")
    text = _text(mocking.get(f"/mock/{second.pk}/report/"))
    assert "Compared with your earlier mocks" in text and "<svg" in text
    assert '<strong class="big">100%</strong><br>your previous standard mock' in text
    assert f'href="/mock/{first.pk}/report/"' in text
    index = _text(mocking.get("/mock/"))
    assert index.count("/report/") == 2
    assert "<td>100%</td>" in index and "<td>0%</td>" in index


def test_it_records_the_capstone_self_assessment(capstone_bank, mocking):
    mock = start(mocking, "capstone")
    mocking.post(f"/mock/{mock.pk}/finish/")
    text = _text(mocking.get(f"/mock/{mock.pk}/report/"))
    for entry in CAPSTONE_RUBRIC:
        assert entry.title in text
    marks = {f"rubric-1-{entry.key}": "2" for entry in CAPSTONE_RUBRIC}
    marks.update({"rubric-2-cost": "1", "rubric-2-replicas": "0", "rubric-2-made-up": "2"})
    response = mocking.post(f"/mock/{mock.pk}/rubric/", marks)
    assert response["Location"] == f"/mock/{mock.pk}/report/#rubric"
    first, second = mock.items.order_by("position")
    assert first.rubric == {entry.key: 2 for entry in CAPSTONE_RUBRIC}
    assert second.rubric == {"cost": 1, "replicas": 0}
    text = _text(mocking.get(f"/mock/{mock.pk}/report/"))
    assert f"{MAX_POINTS} / {MAX_POINTS}" in text and f"1 / {MAX_POINTS}" in text


def test_it_offers_the_rubric_only_for_an_ended_capstone(capstone_bank, mocking):
    mock = start(mocking, "standard")
    mocking.post(f"/mock/{mock.pk}/finish/")
    assert "Capstone self-assessment" not in _text(mocking.get(f"/mock/{mock.pk}/report/"))
    response = mocking.post(f"/mock/{mock.pk}/rubric/", {"rubric-1-cost": "2"}, follow=True)
    assert "Only the capstone rehearsal has a rubric." in _text(response)
    capstone = start(mocking, "capstone")
    response = mocking.post(f"/mock/{capstone.pk}/rubric/", {"rubric-1-cost": "2"}, follow=True)
    assert "Assess yourself once the rehearsal is over." in _text(response)
    assert not capstone.items.exclude(rubric={}).exists()
