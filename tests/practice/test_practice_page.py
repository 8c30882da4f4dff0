from django.db import connection
from django.test.utils import CaptureQueriesContext

from problems.variants import variant_of
from tests.practice.helpers import open_attempt_of, right_answers


def test_it_needs_login(client, db):
    response = client.get("/practice/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_it_offers_to_start_when_there_are_no_cards(client, learner, loaded_bank):
    client.force_login(learner)
    html = client.get("/practice/").content.decode()
    assert "Start in plan order" in html
    assert "Add all problems now" in html


def test_it_starts_in_plan_order(client, learner, loaded_bank):
    client.force_login(learner)
    response = client.post("/practice/start/", {"what": "plan"})
    assert response["Location"] == "/practice/"
    assert learner.cards.count() == 1


def test_it_shows_a_question_without_the_key_or_seed(practising):
    attempt = open_attempt_of(practising)
    html = practising.get("/practice/").content.decode()
    variant = variant_of(attempt.version, attempt.seed)
    assert variant.text.splitlines()[0][:40] in html.replace("&#x27;", "'")
    for part in variant.parts:
        assert f'name="part-{part.key}"' in html
        assert variant.key_text(part.key) not in html
    assert str(attempt.seed) not in html
    for step in variant.steps:
        assert step not in html


def test_it_shows_the_same_variant_on_reload(practising):
    first = open_attempt_of(practising)
    again = open_attempt_of(practising)
    assert first.pk == again.pk


def test_it_renders_only_the_card_for_htmx(practising):
    response = practising.get("/practice/", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="card">')
    assert "<html" not in html


def test_it_says_when_the_next_card_is_due(practising):
    from tests.practice.helpers import move_on, right_answers

    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    move_on(practising)
    html = practising.get("/practice/").content.decode()
    assert "Nothing due right now" in html
    assert "Your next card is due" in html


def test_it_runs_the_same_number_of_queries_with_1_and_1000_reviews(practising, carded):
    from tests.practice.factories import add_history

    def count():
        practising.get("/practice/")  # warm: the open attempt exists, the scenario is compiled
        with CaptureQueriesContext(connection) as queries:
            assert practising.get("/practice/").status_code == 200
        return len(queries)

    add_history(carded, 1)
    with_one = count()
    add_history(carded, 999)
    assert count() == with_one


def test_it_waits_while_a_mock_interview_runs(practising, carded):
    from django.utils import timezone

    from trainer.mock import services as mock_services

    attempt = open_attempt_of(practising)
    mock, _ = mock_services.start(carded, "drill", timezone.now(), page=2)
    html = practising.get("/practice/").content.decode()
    assert "A mock interview is running" in html
    assert f'href="/mock/{mock.pk}/"' in html
    response = practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    assert "A mock interview is running" in response.content.decode()
    attempt.refresh_from_db()
    assert attempt.submitted_at is None


def test_it_reads_the_cards_without_the_problems_long_texts(practising, carded):
    with CaptureQueriesContext(connection) as queries:
        assert practising.get("/practice/").status_code == 200
    # The ORM quotes names, the practice loop's constant statements do not.
    read = [q["sql"].replace('"', "") for q in queries.captured_queries]
    cards = [sql for sql in read if "FROM practice_card" in sql]
    assert cards and all("problems_problem" in sql and ".number" in sql for sql in cards)
    assert not any("model_answer" in sql for sql in cards)


def test_it_keeps_a_graded_card_on_reload_until_it_is_rated(practising):
    from tests.practice.helpers import wrong_answers

    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", wrong_answers(attempt))
    for _ in range(2):
        html = practising.get("/practice/").content.decode()
        assert 'class="verdict incorrect"' in html
        assert "/rate/" in html and "data-default" in html
        assert "/answer/" not in html  # not the re-drill's question yet
    review = attempt.review
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "1"})
    html = practising.get("/practice/").content.decode()
    assert "/answer/" in html and "/rate/" not in html


def test_it_keeps_only_the_latest_graded_card_waiting(practising, carded, bank_dir):
    from django.utils import timezone

    from tests.mock.helpers import add_problem
    from trainer.practice import services
    from trainer.practice.models import Card

    add_problem(bank_dir, 1, page=1)
    services.introduce_all(carded, timezone.now())
    first = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{first.pk}/answer/", right_answers(first))
    # Another tab still shows the other card's question, drawn before.
    other = Card.objects.exclude(problem=first.version.scenario.problem).get()
    second = services.open_attempt(other, timezone.now())
    practising.post(f"/practice/attempts/{second.pk}/answer/", right_answers(second))
    waiting = Card.objects.filter(open_attempt__submitted_at__isnull=False)
    assert list(waiting.values_list("open_attempt", flat=True)) == [second.pk]


def test_it_shows_a_graded_card_in_the_same_number_of_queries_with_1_and_1000_reviews(
    practising, carded
):
    from tests.practice.factories import add_history

    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))

    def count():
        practising.get("/practice/")
        with CaptureQueriesContext(connection) as queries:
            html = practising.get("/practice/").content.decode()
        assert "/rate/" in html
        return len(queries)

    add_history(carded, 1)
    with_one = count()
    add_history(carded, 999)
    assert count() == with_one


def test_it_offers_bury_and_suspend_on_the_question(practising):
    html = practising.get("/practice/").content.decode()
    assert 'value="bury"' in html and 'value="suspend"' in html
    assert "data-answer-form" in html and "data-blank-warning" in html


def test_it_links_the_catalogue_sheet_of_the_figures_the_question_takes_as_known(
    client, learner, bank_dir
):
    import yaml

    from problems.loader import load_bank

    path = bank_dir / "03-kv-cache.yaml"
    data = yaml.safe_load(path.read_text())
    scenario = data["scenarios"][0]
    scenario["assumed"] = ["gpu.hbm_bandwidth"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    load_bank(bank_dir)
    client.force_login(learner)
    client.post("/practice/start/", {"what": "plan"})
    html = client.get("/practice/").content.decode()
    attempt = open_attempt_of(client)
    gpu = variant_of(attempt.version, attempt.seed).env["gpu"]
    link = f'href="/catalogue/gpu/{gpu.key}/?fields=hbm_bandwidth"'
    assert link in html and f"{gpu.name} (memory bandwidth)</a>" in html
    assert client.get(f"/catalogue/gpu/{gpu.key}/?fields=hbm_bandwidth").status_code == 200
