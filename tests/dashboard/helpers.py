import re
from datetime import timedelta

from django.core.cache import cache

from tests.practice.helpers import open_attempt_of, review_on_screen, right_answers, wrong_answers
from trainer.practice.models import Review


def page(client):
    """The dashboard without its CSRF tokens (new on every response) and the messages of the
    request before (shown once)."""
    html = client.get("/").content.decode()
    html = re.sub(r'\n      <div class="messages">.*?</div>\n    ', "", html, flags=re.S)
    return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]*"', "", html)


def kept_and_fresh(client):
    """The page with the entry earlier views left, checked against the page drawn from nothing."""
    kept = page(client)
    cache.clear()
    assert page(client) == kept
    return kept


def review(client, clock, *, right=True, rating="3"):
    """Answer the question on the practice page and rate it; returns the review."""
    attempt = open_attempt_of(client)
    clock[0] += timedelta(minutes=4)
    answers = right_answers(attempt) if right else wrong_answers(attempt)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", answers, headers={"HX-Request": "1"})
    review_id = review_on_screen(client)
    client.post(f"/practice/reviews/{review_id}/rate/", {"rating": rating})
    clock[0] += timedelta(minutes=1)
    return Review.objects.get(pk=review_id)


def done_today(html):
    return int(re.search(r'<strong class="big">(\d+)</strong><br>done today', html).group(1))


def history(client, clock, days):
    """Three reviews a day for `days` days, some failed, ending yesterday."""
    for day in range(days):
        for number in range(3):
            right = (day + number) % 3 != 0
            review(client, clock, right=right, rating="234"[number] if right else "12"[number % 2])
        clock[0] += timedelta(days=1)
