"""Fixing a wrong key: the regrade changes the right attempts, records it, tells the learners,
and changes nothing when run again."""

import pytest
from django.utils import timezone

from problems import authoring, jobs, regrade
from problems.models import Attempt, PartAnswer, Regrade, ScenarioVersion
from problems.variants import attempt_variant
from tests.author.conftest import example_scenario, publish_validated
from trainer.practice import services

pytestmark = pytest.mark.django_db

TRUE_TOTAL = "kv_per_token * context * users"
WRONG_TOTAL = "kv_per_token * context"  # forgot the users: the wrong key being fixed


def by_score(item, attempt):
    return next(change["score"] for change in item.changes if change["attempt"] == attempt.pk)


def _wrong_key_scenario():
    definition = example_scenario()
    definition["parts"][1]["answer"] = WRONG_TOTAL
    # The wrong cache total also makes two of the GPU counts' misconceptions equal the key; the
    # author who wrote the wrong key dropped them to pass validation (they are not part of the
    # draw, so the correction still draws the same variants).
    for part, tag in ((2, "all-memory-usable"), (3, "forgot-the-weights")):
        misconceptions = definition["parts"][part]["misconceptions"]
        definition["parts"][part]["misconceptions"] = [m for m in misconceptions if m["tag"] != tag]
    return definition


def _snapshot():
    attempts = list(
        Attempt.objects.order_by("pk").values_list(
            "pk", "version_id", "key_version_id", "score", "regrade_notice", "submitted_at"
        )
    )
    answers = list(
        PartAnswer.objects.order_by("pk").values_list(
            "pk", "status", "score", "misconception", "message", "carried_forward"
        )
    )
    return attempts, answers


def _answer(learner, version, seed, answers_for):
    now = timezone.now()
    attempt = Attempt.objects.create(user=learner, version=version, seed=seed, started_at=now)
    variant = attempt_variant(attempt)
    services.submit(learner, attempt.pk, answers_for(variant), now)
    attempt.refresh_from_db()
    return attempt


def _true_answers(variant):
    """Right answers by the true formula, whatever the variant's key says."""
    env = variant.env
    true_total = env["kv_per_token"] * env["context"] * env["users"]
    answers = {p.key: variant.key_text(p.key) for p in variant.parts}
    answers["kv_total"] = f"{true_total / 1e12:.6g} TB"
    answers.pop("gpus_for_cache")
    answers.pop("gpus_total")
    return answers


def _key_answers(variant):
    answers = {p.key: variant.key_text(p.key) for p in variant.parts}
    answers.pop("gpus_for_cache")
    answers.pop("gpus_total")
    return answers


@pytest.fixture
def wrong_v1(problem26, instructor, run_on_commit):
    version = authoring.create_scenario(
        instructor, problem26, _wrong_key_scenario(), "", timezone.now()
    )
    publish_validated(version, instructor, run_on_commit)
    version.refresh_from_db()
    return version


@pytest.fixture
def corrected_draft(wrong_v1, instructor):
    draft = authoring.start_draft(instructor, wrong_v1.scenario, timezone.now())
    definition = dict(draft.definition)
    definition["parts"] = [dict(part) for part in definition["parts"]]
    definition["parts"][1]["answer"] = TRUE_TOTAL
    return authoring.save_draft(instructor, draft, definition, "fix kv_total", timezone.now())


def test_it_regrades_the_attempts_of_the_corrected_version(
    wrong_v1, corrected_draft, instructor, learner, other_learner, run_on_commit, client
):
    right = _answer(learner, wrong_v1, 101, _true_answers)
    lucky = _answer(other_learner, wrong_v1, 202, _key_answers)
    assert PartAnswer.objects.get(attempt=right, part_key="kv_total").status == "incorrect"
    assert PartAnswer.objects.get(attempt=lucky, part_key="kv_total").status == "correct"
    open_attempt = Attempt.objects.create(
        user=learner, version=wrong_v1, seed=303, started_at=timezone.now()
    )

    published = publish_validated(corrected_draft, instructor, run_on_commit, [wrong_v1.pk])
    (item,) = published.regrades
    item.refresh_from_db()

    assert item.status == "done"
    assert (item.attempts_checked, item.attempts_changed, item.attempts_pending) == (2, 2, 1)
    right.refresh_from_db()
    lucky.refresh_from_db()
    open_attempt.refresh_from_db()
    assert PartAnswer.objects.get(attempt=right, part_key="kv_total").status == "correct"
    assert PartAnswer.objects.get(attempt=lucky, part_key="kv_total").status == "incorrect"
    # Two of four parts answered: before, one right (0.25); after, two (0.5); and the reverse.
    assert (right.score, lucky.score) == (0.5, 0.25)
    assert by_score(item, right) == [0.25, 0.5] and by_score(item, lucky) == [0.5, 0.25]
    assert right.key_version == corrected_draft and lucky.key_version == corrected_draft
    assert open_attempt.key_version == corrected_draft and open_attempt.submitted_at is None
    assert "corrected the answer key" in right.regrade_notice
    assert "now correct (was incorrect)" in right.regrade_notice
    by_attempt = {change["attempt"]: change for change in item.changes}
    assert by_attempt[right.pk]["parts"][0]["status"] == ["incorrect", "correct"]
    assert by_attempt[lucky.pk]["parts"][0]["status"] == ["correct", "incorrect"]

    # The dashboard points the learner to it until they open it; the page shows the notice and
    # the corrected key.
    assert right.regrade_unseen
    client.force_login(learner)
    dashboard = client.get("/").content.decode()
    assert "Answers regraded" in dashboard and f'href="/practice/attempts/{right.pk}/"' in dashboard
    html = client.get(f"/practice/attempts/{right.pk}/").content.decode()
    assert "corrected the answer key" in html
    assert attempt_variant(right).key_text("kv_total") in html
    right.refresh_from_db()
    assert not right.regrade_unseen and "corrected the answer key" in right.regrade_notice
    assert "Answers regraded" not in client.get("/").content.decode()
    # The regrade report names what changed.
    client.force_login(instructor)
    report = client.get(f"/author/regrades/{item.pk}/").content.decode()
    assert "learner" in report and "incorrect → correct" in report


def test_it_leaves_other_versions_alone(
    wrong_v1, corrected_draft, loaded_bank, instructor, learner, run_on_commit
):
    bank_version = ScenarioVersion.objects.get(scenario__problem__number=3)
    other = _answer(learner, bank_version, 5, _key_answers)
    before = _snapshot()
    publish_validated(corrected_draft, instructor, run_on_commit, [wrong_v1.pk])
    other.refresh_from_db()
    assert other.key_version is None and other.regrade_notice == ""
    assert [row for row in _snapshot()[0] if row[0] == other.pk] == [
        row for row in before[0] if row[0] == other.pk
    ]


def test_it_is_idempotent(wrong_v1, corrected_draft, instructor, learner, run_on_commit):
    attempts = [_answer(learner, wrong_v1, seed, _true_answers) for seed in (1, 2, 3)]
    published = publish_validated(corrected_draft, instructor, run_on_commit, [wrong_v1.pk])
    first = published.regrades[0]
    first.refresh_from_db()
    assert first.attempts_changed == len(attempts)
    after_first = _snapshot()

    # The same regrade again (a redelivered task) and a second regrade of the same pair.
    regrade.run_regrade(first.pk)
    second = run_on_commit(
        jobs.request_regrade, instructor, wrong_v1, corrected_draft, timezone.now()
    )
    second.refresh_from_db()
    assert _snapshot() == after_first
    assert second.status == "done"
    assert (second.attempts_checked, second.attempts_changed, second.changes) == (3, 0, [])
    first.refresh_from_db()
    assert first.attempts_changed == len(attempts)


def test_it_refuses_a_correction_that_draws_differently_and_changes_nothing(
    wrong_v1, instructor, learner, run_on_commit
):
    _answer(learner, wrong_v1, 9, _true_answers)
    draft = authoring.start_draft(instructor, wrong_v1.scenario, timezone.now())
    definition = dict(draft.definition)
    definition["params"] = {**definition["params"], "users": {"int": [30, 300], "step": 10}}
    definition["parts"] = [dict(part) for part in definition["parts"]]
    definition["parts"][1]["answer"] = TRUE_TOTAL
    draft = authoring.save_draft(instructor, draft, definition, "", timezone.now())
    assert "params differ" in regrade.refusal(wrong_v1, draft)
    run = run_on_commit(jobs.validate, instructor, draft, 1000, timezone.now())
    run.refresh_from_db()
    before = _snapshot()
    with pytest.raises(authoring.AuthoringError, match="params differ"):
        run_on_commit(jobs.publish, instructor, draft, timezone.now(), [wrong_v1.pk])
    draft.refresh_from_db()
    wrong_v1.refresh_from_db()
    assert draft.status == "draft" and wrong_v1.status == "published"
    assert Regrade.objects.count() == 0 and _snapshot() == before


def test_it_refuses_changed_answer_boxes():
    old = ScenarioVersion(pk=1, scenario_id=1, number=1, status="published", definition={})
    old.definition = example_scenario()
    new = ScenarioVersion(pk=2, scenario_id=1, number=2, status="draft")
    new.definition = example_scenario()
    assert regrade.refusal(old, new) is None
    new.definition["parts"][1]["unit"] = "GB"
    assert "unit of kv_total changed" in regrade.refusal(old, new)
    new.definition = example_scenario()
    new.definition["parts"].pop()
    assert "not the same answer boxes" in regrade.refusal(old, new)


def test_the_publish_form_offers_only_versions_that_can_be_regraded(
    wrong_v1, corrected_draft, author, instructor, run_on_commit
):
    run_on_commit(jobs.validate, instructor, corrected_draft, 1000, timezone.now())
    html = author.get(f"/author/versions/{corrected_draft.pk}/").content.decode()
    assert f'name="corrects" value="{wrong_v1.pk}"' in html
    assert f"This fixes a wrong key in v{wrong_v1.number}" in html


def test_it_updates_a_finished_mocks_score(
    wrong_v1, corrected_draft, instructor, learner, run_on_commit
):
    from trainer.mock.models import Mock, MockItem

    now = timezone.now()
    attempt = _answer(learner, wrong_v1, 77, _true_answers)
    Attempt.objects.filter(pk=attempt.pk).update(purpose="mock")
    assert attempt.score == 0.25
    mock = Mock.objects.create(
        user=learner, format="standard", started_at=now, deadline=now, ended_at=now, score=0.25
    )
    MockItem.objects.create(
        mock=mock, position=1, attempt=attempt, problem=wrong_v1.scenario.problem
    )
    publish_validated(corrected_draft, instructor, run_on_commit, [wrong_v1.pk])
    mock.refresh_from_db()
    attempt.refresh_from_db()
    assert attempt.score == 0.5 and mock.score == 0.5
