"""Suspend (out of the queue until unsuspended) and bury (until the learner's next day), as in
Anki, from the question or the problem's page; the settings page lists them to undo."""

from datetime import datetime, timedelta

from django.utils import timezone

from tests.practice.helpers import open_attempt_of
from trainer.practice import services
from trainer.practice.models import Card


def _hold(client, action, number=3, **data):
    return client.post(f"/practice/problems/{number}/hold/", {"action": action, **data})


def test_it_suspends_until_unsuspended(practising):
    open_attempt_of(practising)
    response = _hold(practising, "suspend", back="practice")
    assert response["Location"] == "/practice/"
    card = Card.objects.get()
    assert card.suspended and card.open_attempt is None
    assert "Nothing due right now" in practising.get("/practice/").content.decode()
    settings_page = practising.get("/practice/settings/").content.decode()
    assert "suspended" in settings_page and 'value="unsuspend"' in settings_page
    _hold(practising, "unsuspend", back="settings")
    assert not Card.objects.get().suspended
    assert "/answer/" in practising.get("/practice/").content.decode()


def test_it_buries_until_the_learners_next_day(practising, carded):
    profile = services.get_profile(carded)
    profile.timezone = "Asia/Tokyo"
    profile.save()
    _hold(practising, "bury")
    card = Card.objects.get()
    local_midnight = card.buried_until.astimezone(profile.tz)
    assert (local_midnight.hour, local_midnight.minute) == (0, 0)
    assert timedelta(0) < card.buried_until - timezone.now() <= timedelta(days=1)
    assert "Nothing due right now" in practising.get("/practice/").content.decode()
    page = practising.get("/practice/problems/3/").content.decode()
    assert "Buried" in page and 'value="unbury"' in page
    _hold(practising, "unbury")
    assert Card.objects.get().buried_until is None


def test_a_buried_card_comes_back_the_next_day(carded):
    now = timezone.now()
    services.bury(carded, 3, now)
    profile = services.get_profile(carded)
    assert services.practice_queue(carded, profile, now).card is None
    tomorrow = Card.objects.get().buried_until + timedelta(minutes=1)
    assert services.practice_queue(carded, profile, tomorrow).card is not None


def test_it_suspends_a_problem_not_yet_in_the_reviews(client, learner, loaded_bank):
    client.force_login(learner)
    _hold(client, "suspend")
    assert Card.objects.get(user=learner).suspended


def test_it_refuses_an_unknown_action_and_changes_nothing(practising):
    response = _hold(practising, "delete")
    assert response.status_code == 302
    card = Card.objects.get()
    assert not card.suspended and card.buried_until is None
    page = practising.get(response["Location"]).content.decode()
    assert "Choose suspend, unsuspend, bury or unbury" in page


def test_it_touches_only_the_learners_own_card(client, practising, other_learner):
    services.introduce_all(other_learner, timezone.now())
    client.force_login(other_learner)
    _hold(client, "suspend")
    assert list(Card.objects.filter(suspended=True).values_list("user", flat=True)) == [
        other_learner.pk
    ]


def test_it_says_a_problem_that_does_not_exist_is_missing(practising):
    assert _hold(practising, "suspend", number=99).status_code == 404


def test_held_cards_lists_suspended_and_buried(carded):
    now = timezone.now()
    services.suspend(carded, 3, now)
    assert [card.problem.number for card in services.held_cards(carded, now)] == [3]
    services.suspend(carded, 3, now, suspended=False)
    services.bury(carded, 3, now)
    assert len(services.held_cards(carded, now)) == 1
    later = datetime.max.replace(tzinfo=now.tzinfo) - timedelta(days=2)
    assert services.held_cards(carded, later) == []
