import re
import threading
from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from problems.models import PartAnswer
from problems.variants import variant_of
from tests.practice.helpers import (
    fold_problem_texts,
    move_on,
    open_attempt_of,
    right_answers,
    wrong_answers,
)
from trainer.practice.models import Card, Review


def _post(client, attempt, data, **extra):
    return client.post(f"/practice/attempts/{attempt.pk}/answer/", data, **extra)


def test_it_grades_right_answers_and_schedules_the_card(practising, carded):
    attempt = open_attempt_of(practising)
    html = _post(practising, attempt, right_answers(attempt)).content.decode()
    assert html.count('class="verdict correct"') == len(right_answers(attempt))
    assert "Worked solution" in html
    review = Review.objects.get()
    assert review.quality == 5 and review.kind == Review.Kind.NEW
    card = Card.objects.get()
    assert card.due_at is not None and card.reviews_count == 1
    assert card.state["repetitions"] == 1


def test_it_shows_the_key_interval_and_worked_steps_after_submitting(practising):
    attempt = open_attempt_of(practising)
    variant = variant_of(attempt.version, attempt.seed)
    html = _post(practising, attempt, wrong_answers(attempt)).content.decode()
    html = html.replace("&#x27;", "'").replace("&amp;", "&")
    for part in variant.parts:
        assert variant.key_text(part.key) in html
        assert variant.accepted(part.key)[10:] in html
    for step in variant.steps:
        assert step in html


def test_it_shows_the_model_answer_with_the_variants_own_numbers(practising):
    attempt = open_attempt_of(practising)
    variant = variant_of(attempt.version, attempt.seed)
    html = _post(practising, attempt, wrong_answers(attempt)).content.decode()
    # A version stored before texts were folded in: the problem's answer, rendered for it.
    assert f"{variant.key_text('gpus_for_cache')} × {variant.env['gpu'].name}" in html
    assert "{kv_total}" not in html


def test_it_shows_the_follow_ups_after_the_model_answer(practising):
    fold_problem_texts()
    attempt = open_attempt_of(practising)
    variant = variant_of(attempt.version, attempt.seed)
    html = _post(practising, attempt, wrong_answers(attempt)).content.decode()
    html = html.replace("&#x27;", "'")
    (question, answer), _ = variant.follow_ups
    assert html.index("Model interview answer") < html.index("What the interviewer asks next")
    assert f"<dt>{question}</dt><dd><p>{answer}</p></dd>" in html
    assert "https://arxiv.org/abs/2407.21783" in html  # its source


def test_it_highlights_code_on_the_server_with_classes_only(practising):
    code = "def rms(x):\n    return (x * x).mean() ** 0.5  # <fp32>\n"
    fold_problem_texts(code=[{"title": "Reference", "language": "python", "text": code}])
    attempt = open_attempt_of(practising)
    html = _post(practising, attempt, wrong_answers(attempt)).content.decode()
    block = html[html.index('<figure class="code">') : html.index("</figure>")]
    assert "<figcaption>Reference</figcaption>" in block
    assert '<span class="k">def</span><span class="w"> </span><span class="nf">rms</span>' in block
    assert "&lt;fp32&gt;" in block and "<fp32>" not in block
    assert "style=" not in block  # the CSP refuses inline styles
    assert 'href="/static/css/code.css"' in html


def test_it_names_a_misconception(practising):
    attempt = open_attempt_of(practising)
    variant = variant_of(attempt.version, attempt.seed)
    answers = right_answers(attempt)
    answers["part-kv_per_token"] = f"{variant.answer('kv_per_token') / 2:.6g}"
    _post(practising, attempt, answers)
    stored = PartAnswer.objects.get(part_key="kv_per_token")
    assert stored.misconception == "kv-missing-factor-2"
    assert stored.status == "incorrect"


def test_it_refuses_a_parse_error_and_costs_nothing(practising):
    attempt = open_attempt_of(practising)
    answers = right_answers(attempt)
    answers["part-kv_total"] = "3.2 ms"
    response = _post(practising, attempt, answers)
    html = response.content.decode()
    assert "Nothing was recorded" in html
    assert 'aria-invalid="true"' in html
    assert Review.objects.count() == 0 and PartAnswer.objects.count() == 0
    attempt.refresh_from_db()
    assert attempt.submitted_at is None
    # What was typed is kept, so only the bad box needs fixing.
    assert 'value="3.2 ms"' in html


def test_it_points_out_a_number_right_in_another_unit_and_charges_nothing(practising):
    attempt = open_attempt_of(practising)
    variant = variant_of(attempt.version, attempt.seed)
    answers = right_answers(attempt)
    # kv_total is asked in TB; the learner typed the number of bytes, without the unit.
    in_bytes = f"{variant.answer('kv_total') * 1e12:.6g}"
    answers["part-kv_total"] = in_bytes
    html = unescape(_post(practising, attempt, answers).content.decode())
    read_as = f"'{in_bytes}' is read in TB, the unit of this part, but it looks like it is in B"
    assert read_as in html
    assert "(this cost you no attempt)" in html and "Nothing was recorded" in html
    assert Review.objects.count() == 0 and PartAnswer.objects.count() == 0
    attempt.refresh_from_db()
    assert attempt.submitted_at is None
    # With its unit written, the same number is right.
    answers["part-kv_total"] = f"{in_bytes} B"
    _post(practising, attempt, answers)
    assert PartAnswer.objects.get(part_key="kv_total").status == "correct"
    assert Review.objects.get().score == 1


def test_it_counts_blank_parts_as_no_answer(practising):
    attempt = open_attempt_of(practising)
    response = _post(practising, attempt, {})
    assert response.status_code == 200
    review = Review.objects.get()
    assert review.score == 0 and review.incomplete and review.quality == 0


def test_it_applies_a_double_submit_once(practising):
    attempt = open_attempt_of(practising)
    first = _post(practising, attempt, right_answers(attempt))
    second = _post(practising, attempt, wrong_answers(attempt))
    assert first.status_code == second.status_code == 200
    assert Review.objects.count() == 1
    assert PartAnswer.objects.filter(status="correct").count() == len(right_answers(attempt))


@pytest.mark.django_db(transaction=True)
def test_it_applies_concurrent_submits_once(client, loaded_bank, django_user_model, live_server):
    import re
    import urllib.parse
    import urllib.request

    from django.utils import timezone

    from trainer.practice import services

    user = django_user_model.objects.create_user("racer", password="a long pass phrase")
    services.introduce_all(user, timezone.now())
    client.force_login(user)
    attempt = open_attempt_of(client)
    session = client.cookies["sessionid"].value
    page = client.get("/practice/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    csrf_cookie = client.cookies["csrftoken"].value
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **right_answers(attempt)}).encode()
    statuses = []

    def submit():
        request = urllib.request.Request(
            f"{live_server.url}/practice/attempts/{attempt.pk}/answer/",
            data=body,
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf_cookie}",
                "Referer": live_server.url,
            },
        )
        statuses.append(urllib.request.urlopen(request).status)

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses == [200] * 8
    assert Review.objects.filter(attempt=attempt).count() == 1
    assert PartAnswer.objects.filter(attempt=attempt).count() == len(right_answers(attempt))


def test_it_brings_a_failed_card_back_today_with_a_new_variant(practising):
    attempt = open_attempt_of(practising)
    _post(practising, attempt, wrong_answers(attempt))
    card = Card.objects.get()
    assert card.redrill_until is not None
    move_on(practising)
    again = open_attempt_of(practising)
    assert again.pk != attempt.pk
    assert again.seed != attempt.seed


def test_it_hides_another_learners_attempt(client, practising, other_learner):
    attempt = open_attempt_of(practising)
    client.force_login(other_learner)
    assert _post(client, attempt, right_answers(attempt)).status_code == 404
    assert client.get(f"/practice/attempts/{attempt.pk}/").status_code == 404
    assert Review.objects.count() == 0


def test_it_needs_csrf(carded, loaded_bank):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(carded)
    attempt = open_attempt_of(client)
    assert _post(client, attempt, right_answers(attempt)).status_code == 403


def test_it_accepts_the_csrf_header_that_htmx_sends(carded, loaded_bank):
    import re

    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(carded)
    page = client.get("/practice/").content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    attempt = open_attempt_of(client)
    response = _post(
        client,
        attempt,
        right_answers(attempt),
        headers={"X-CSRFToken": token, "HX-Request": "true"},
    )
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="card">')


def test_it_submits_in_the_same_number_of_queries_with_1_and_1000_reviews(practising, carded):
    from tests.practice.factories import add_history

    def count():
        past = timezone.now() - timedelta(days=1)
        Card.objects.update(
            due_at=past, redrill_until=None, last_reviewed_at=past, open_attempt=None
        )
        attempt = open_attempt_of(practising)
        with CaptureQueriesContext(connection) as queries:
            assert _post(practising, attempt, right_answers(attempt)).status_code == 200
        return len(queries)

    add_history(carded, 1)
    with_one = count()
    add_history(carded, 999)
    assert count() == with_one


def test_it_limits_how_fast_answers_come(practising, settings):
    settings.ANSWER_RATE_LIMIT = 3
    attempt = open_attempt_of(practising)
    bad = {"part-kv_total": "not a number"}
    statuses = [_post(practising, attempt, bad).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    response = _post(practising, attempt, right_answers(attempt), headers={"HX-Request": "true"})
    assert response.status_code == 429
    assert "Slow down" in response.content.decode()
    assert Review.objects.count() == 0


def test_it_records_a_chosen_card_that_was_not_due_as_extra_practice(practising, carded):
    from trainer.practice import services

    attempt = open_attempt_of(practising)
    _post(practising, attempt, right_answers(attempt))
    assert Card.objects.get().due_at > timezone.now()
    services.practice_now(carded, 3, timezone.now())
    again = open_attempt_of(practising)
    _post(practising, again, right_answers(again))
    assert Review.objects.get(attempt=again).kind == Review.Kind.EXTRA


def test_it_loads_the_learner_once_per_answer(practising, carded):
    attempt = open_attempt_of(practising)
    with CaptureQueriesContext(connection) as queries:
        assert _post(practising, attempt, wrong_answers(attempt)).status_code == 200
    users = [q for q in queries.captured_queries if q["sql"].startswith('SELECT "auth_user"')]
    assert len(users) == 1  # the session's; scheduling the card reuses it
    assert Review.objects.get().user == carded


def test_it_stores_the_value_the_grader_read(practising):
    attempt = open_attempt_of(practising)
    answers = right_answers(attempt)
    answers["part-kv_total"] = "1,070 GB"
    _post(practising, attempt, answers)
    assert PartAnswer.objects.get(part_key="kv_total").value == 1.07  # in the part's TB


def test_it_refuses_a_mock_attempt_posted_to_practice(practising, carded):
    attempt = open_attempt_of(practising)
    type(attempt).objects.filter(pk=attempt.pk).update(purpose="mock")
    assert _post(practising, attempt, right_answers(attempt)).status_code == 404
    assert PartAnswer.objects.count() == 0


def _visible_text(html):
    """What a reader sees: the text between the tags, not ids, names or attributes."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_it_shows_one_line_per_part_and_no_explanation_that_repeats_it(practising):
    attempt = open_attempt_of(practising)
    html = _post(practising, attempt, right_answers(attempt)).content.decode()
    variant = variant_of(attempt.version, attempt.seed)
    assert html.count('class="result-line"') == len(variant.parts)
    assert 'class="feedback"' not in html  # "Correct: X. The key is X" says nothing new
    text = _visible_text(html)
    for part in variant.parts:
        assert f"key: {variant.key_text(part.key)} · {variant.accepted(part.key)}" in text


def test_it_explains_a_known_mistake_without_repeating_the_answer_and_key(practising):
    attempt = open_attempt_of(practising)
    variant = variant_of(attempt.version, attempt.seed)
    answers = right_answers(attempt)
    answers["part-kv_per_token"] = f"{variant.answer('kv_per_token') / 2:.6g}"
    html = _post(practising, attempt, answers).content.decode()
    stored = PartAnswer.objects.get(part_key="kv_per_token")
    assert "(Your answer:" in stored.message
    feedback = re.findall(r'<p class="feedback">(.*?)</p>', html, re.S)
    assert len(feedback) == 1
    assert unescape(feedback[0]) == stored.message.split(" (Your answer:")[0]


def test_it_labels_a_part_carried_forward_and_names_no_internal_key(practising):
    attempt = open_attempt_of(practising)
    variant = variant_of(attempt.version, attempt.seed)
    env = variant.env
    doubled = (
        variant.answer_values["kv_per_token"] * 2
    )  # bytes per token; no known mistake doubles it
    answers = {
        "part-kv_per_token": f"{doubled} B",
        "part-kv_total": f"{doubled * env['context'] * env['users']} B",
    }
    html = _post(practising, attempt, answers).content.decode()
    total = PartAnswer.objects.get(part_key="kv_total")
    assert total.carried_forward and total.status == "correct"
    text = _visible_text(html)
    assert "Correct with your earlier answer" in text
    assert re.search(r'class="verdict correct carried">Correct with your earlier answer<', html)
    assert "Correct given your answer to part 1 (" in text
    for part in variant.parts:
        assert part.key not in text
