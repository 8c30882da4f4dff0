import html

from django.test import Client

from problems.models import Attempt
from tests.mock.helpers import answer, start, variants_of


def _question(response):
    text = html.unescape(response.content.decode())
    return text[
        text.index('<div class="question">') : text.index('<form method="post" action="/mock/')
    ]


def test_it_shows_the_same_variants_after_a_reload_and_in_a_second_tab(mocking, learner):
    mock = start(mocking)
    url = f"/mock/{mock.pk}/problems/1/"
    first = _question(mocking.get(url))
    seeds = list(Attempt.objects.values_list("pk", "version_id", "seed"))
    assert _question(mocking.get(url)) == first
    other_tab = Client()
    other_tab.force_login(learner)
    assert _question(other_tab.get(url)) == first
    # Starting again from the other tab resumes this mock, too.
    assert start(other_tab).pk == mock.pk
    assert list(Attempt.objects.values_list("pk", "version_id", "seed")) == seeds


def test_it_keeps_recorded_answers_recorded_after_a_reload(mocking, learner):
    mock = start(mocking)
    _, variant = variants_of(mock)[0]
    key = variant.parts[1].key
    answer(mocking, mock, 1, key, variant.key_text(key))
    other_tab = Client()
    other_tab.force_login(learner)
    page = other_tab.get(f"/mock/{mock.pk}/problems/1/").content.decode()
    assert page.count("Recorded: ") == 1
    assert f'<div class="part" id="part-{key}">' in page
    assert page.count("data-mock-answer") == len(variant.parts) - 1
    assert "1/4" in page  # the navigation counts recorded parts


def test_it_sends_the_time_left_for_the_countdown_and_shows_the_deadline(mocking):
    mock = start(mocking)
    page = mocking.get(f"/mock/{mock.pk}/problems/1/").content.decode()
    seconds = int(page.split('data-seconds-left="')[1].split('"')[0])
    assert 8 * 60 - 5 <= seconds <= 8 * 60
    assert f'datetime="{mock.deadline.isoformat()}"' in page
    assert f"{mock.deadline:%H:%M:%S} (UTC)" in page
    assert 'data-grace-seconds="5"' in page
    assert "<script>" not in page and " style=" not in page
