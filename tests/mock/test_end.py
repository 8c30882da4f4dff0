from datetime import timedelta

from django.utils import timezone

from problems.models import PartAnswer
from tests.mock.helpers import HX, answer, answer_all, move_deadline, start, variants_of
from trainer.mock import services
from trainer.practice import services as practice
from trainer.practice.models import Card, Review


def test_it_counts_unanswered_parts_as_blank_at_the_deadline(mocking):
    mock = start(mocking)
    item, variant = variants_of(mock)[0]
    first = variant.parts[0].key
    answer(mocking, mock, 1, first, variant.key_text(first))
    move_deadline(mock, timezone.now() - services.GRACE - timedelta(seconds=1))
    response = mocking.get(f"/mock/{mock.pk}/problems/1/")
    assert response["Location"] == f"/mock/{mock.pk}/report/"
    mock.refresh_from_db()
    assert mock.ended_at == mock.deadline and not mock.finished_early
    statuses = dict(PartAnswer.objects.values_list("part_key", "status"))
    assert statuses == {
        part.key: "correct" if part.key == first else "blank" for part in variant.parts
    }
    item.attempt.refresh_from_db()
    assert item.attempt.submitted_at == mock.deadline
    assert item.attempt.score == mock.score == 1 / len(variant.parts)


def test_it_keeps_the_mock_open_during_the_grace(mocking):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    move_deadline(mock, timezone.now() - timedelta(seconds=2))
    assert mocking.get(f"/mock/{mock.pk}/problems/1/").status_code == 200
    key = variant.parts[0].key
    assert "Recorded: " in answer(mocking, mock, 1, key, "1 KiB", headers=HX).content.decode()
    mock.refresh_from_db()
    assert mock.ended_at is None


def test_it_ends_expired_mocks_when_the_service_is_called(loaded_bank, learner, other_learner):
    now = timezone.now()
    expired, _ = services.start(learner, "standard", now - timedelta(hours=1))
    running, _ = services.start(other_learner, "standard", now)
    assert services.end_expired(now) == 1
    assert services.end_expired(now) == 0
    expired.refresh_from_db()
    running.refresh_from_db()
    assert expired.ended_at == expired.deadline and running.ended_at is None
    assert Review.objects.filter(user=learner, kind=Review.Kind.MOCK).count() == 1
    assert not Review.objects.filter(user=other_learner).exists()


def test_it_finishes_early_once(mocking, learner):
    mock = start(mocking)
    response = mocking.post(f"/mock/{mock.pk}/finish/")
    assert response["Location"] == f"/mock/{mock.pk}/report/"
    services.end(mock.pk, timezone.now(), early=True)
    mock.refresh_from_db()
    assert mock.finished_early and mock.ended_at < mock.deadline
    assert Review.objects.count() == 1
    # A new mock can start now that this one is over.
    assert start(mocking).pk != mock.pk


def test_it_grades_errors_carried_forward_once_every_part_is_in(mocking, learner):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    wrong_kib = variant.answer("kv_per_token") * 1.5
    users, context = variant.env["users"], variant.env["context"]
    carried = wrong_kib * 1024 * context * users / 1e12
    # Part 2 first, from a wrong part 1 that is only typed afterwards.
    answer(mocking, mock, 1, "kv_total", f"{carried:.6g} TB")
    answer(mocking, mock, 1, "kv_per_token", f"{wrong_kib:.6g} KiB")
    # Kept as typed, not graded: nothing about it is known before the end.
    assert PartAnswer.objects.get(part_key="kv_total").status == "pending"
    mocking.post(f"/mock/{mock.pk}/finish/")
    total = PartAnswer.objects.get(part_key="kv_total")
    assert total.status == "correct" and total.carried_forward
    assert PartAnswer.objects.get(part_key="kv_per_token").status == "incorrect"


def test_it_feeds_the_scheduler_and_creates_a_missing_card(mocking, learner):
    assert not Card.objects.filter(user=learner).exists()
    mock = start(mocking)
    answer_all(mocking, mock, right=True)
    mocking.post(f"/mock/{mock.pk}/finish/")
    card = Card.objects.get(user=learner)
    review = Review.objects.get(card=card)
    assert review.kind == Review.Kind.MOCK and review.quality == 5 and review.score == 1
    assert review.attempt == mock.items.get().attempt
    assert card.reviews_count == 1 and card.lapses == 0 and card.due_at is not None


def test_it_counts_a_missed_problem_as_a_lapse(mocking, learner):
    now = timezone.now()
    practice.introduce_all(learner, now)
    card = Card.objects.get(user=learner)
    scheduler = practice.scheduler_for(practice.get_profile(learner))
    state = scheduler.review(scheduler.new_state(), 5, now - timedelta(days=9)).state
    state = scheduler.review(state, 5, now - timedelta(days=8)).state
    card.state = state.to_dict()
    card.last_reviewed_at = now - timedelta(days=8)
    card.save()
    assert card.state["repetitions"] == 2 and card.state["interval_days"] == 6
    mock = start(mocking)
    answer_all(mocking, mock, right=False)
    mocking.post(f"/mock/{mock.pk}/finish/")
    card.refresh_from_db()
    review = Review.objects.get(card=card)
    assert review.kind == Review.Kind.MOCK and review.quality < 3
    # SM-2 restarts the repetitions: the next interval is one day again.
    assert card.lapses == 1
    assert card.state["repetitions"] == 1 and card.state["interval_days"] == 1


def test_it_times_each_problem_over_every_visit(capstone_bank, learner):
    t0 = timezone.now()
    mock, _ = services.start(learner, "capstone", t0)
    seconds = timedelta(seconds=1)
    services.open_problem(mock, 1, t0 + 10 * seconds)
    services.open_problem(mock, 2, t0 + 70 * seconds)
    services.record_answer(learner, mock.pk, 2, "kv_per_token", "320 KiB", t0 + 100 * seconds)
    services.open_problem(mock, 1, t0 + 130 * seconds)
    services.finish(learner, mock.pk, t0 + 160 * seconds)
    first, second = mock.items.order_by("position")
    assert first.seconds_open == (70 - 10) + (160 - 130)
    assert second.seconds_open == 130 - 70
    assert first.first_opened_at == t0 + 10 * seconds
    assert second.first_opened_at == t0 + 70 * seconds
    assert second.first_answered_at == second.last_answered_at == t0 + 100 * seconds
    assert first.first_answered_at is None
    reviews = dict(Review.objects.values_list("attempt_id", "elapsed_seconds"))
    assert reviews == {first.attempt_id: 90, second.attempt_id: 60}
