"""Create → preview → validate → publish → a learner practises it; past attempts keep their
version; instructor text is escaped everywhere."""

import re

import pytest
from django.utils import timezone

from problems import attempts, authoring, jobs
from problems.models import Attempt, AuthoringLog, Scenario, ScenarioVersion, ValidationRun
from problems.variants import attempt_variant, variant_of
from tests.author.conftest import editor_body, example_scenario, publish_validated
from trainer.practice import services

pytestmark = pytest.mark.django_db


def _post_scenario(client, number, definition):
    return client.post(
        f"/author/problems/{number}/scenarios/new/",
        {
            "key": definition["key"],
            "title": definition["title"],
            "note": "",
            "body": editor_body(definition),
            "action": "save",
        },
    )


def test_it_goes_from_a_new_scenario_to_a_learners_practice(
    author, problem26, learner, django_capture_on_commit_callbacks, client
):
    _post_scenario(author, 26, example_scenario())
    version = ScenarioVersion.objects.get()

    preview = author.get(f"/author/versions/{version.pk}/preview/?seed=7")
    variant = variant_of(version, 7)
    html = preview.content.decode().replace("&#x27;", "'")
    assert variant.text.split("\n")[0] in html
    for part in variant.parts:
        assert variant.key_text(part.key) in html

    # Publishing before a validation is refused.
    author.post(f"/author/versions/{version.pk}/publish/")
    version.refresh_from_db()
    assert version.status == "draft"

    with django_capture_on_commit_callbacks(execute=True):
        response = author.post(f"/author/versions/{version.pk}/validate/", {"seeds": 1000})
    run = ValidationRun.objects.get()
    assert response["Location"] == f"/author/validations/{run.pk}/"
    assert (run.status, run.done, run.total) == ("passed", 1000, 1000)
    assert run.report["seeds_checked"] == 1000 and run.report["errors"] == []
    page = author.get(f"/author/validations/{run.pk}/").content.decode()
    assert "every 1s" not in page and "Passed." in page

    author.post(f"/author/versions/{version.pk}/publish/")
    version.refresh_from_db()
    scenario = Scenario.objects.get()
    assert version.status == "published" and scenario.published_version == version
    assert AuthoringLog.objects.filter(action="publish", version=version).exists()

    client.force_login(learner)
    client.post("/practice/start/", {"what": "all"})
    html = client.get("/practice/").content.decode()
    assert "Problem 26" in html
    attempt_id = int(re.search(r"/practice/attempts/(\d+)/answer/", html).group(1))
    assert Attempt.objects.get(pk=attempt_id).version == version


def test_publishing_needs_a_passing_run_of_exactly_this_content(draft26, instructor, run_on_commit):
    run = run_on_commit(jobs.validate, instructor, draft26, 1000, timezone.now())
    run.refresh_from_db()
    assert run.status == "passed"
    definition = example_scenario()
    definition["params"]["users"] = {"int": [20, 300], "step": 10}
    draft = authoring.save_draft(instructor, draft26, definition, "", timezone.now())
    with pytest.raises(authoring.AuthoringError, match="no passing validation"):
        jobs.publish(instructor, draft, timezone.now())
    assert ScenarioVersion.objects.get().status == "draft"


def test_it_refuses_fewer_than_1000_seeds(author, draft26):
    author.post(f"/author/versions/{draft26.pk}/validate/", {"seeds": 999})
    assert ValidationRun.objects.count() == 0


def test_a_failing_validation_reports_the_seeds_and_blocks_publishing(
    author, problem26, instructor, run_on_commit
):
    definition = example_scenario()
    # A range the key leaves on some seeds only: a failure found by the seeds, not the schema.
    definition["parts"][1]["range"] = [0, 0.5]
    version = authoring.create_scenario(instructor, problem26, definition, "", timezone.now())
    run = run_on_commit(jobs.validate, instructor, version, 1000, timezone.now())
    run.refresh_from_db()
    assert run.status == "failed"
    errors = run.report["errors"]
    assert errors and errors[0]["part"] == "kv_total" and errors[0]["seed"] is not None
    html = author.get(f"/author/validations/{run.pk}/").content.decode()
    assert f"/author/versions/{version.pk}/preview/?seed={errors[0]['seed']}" in html
    assert "outside the part" in html
    with pytest.raises(authoring.AuthoringError):
        jobs.publish(instructor, version, timezone.now())


def test_a_linter_finding_shows_its_check_its_explanation_and_a_seed_to_reproduce_it(
    author, problem26, instructor, run_on_commit
):
    definition = example_scenario()
    # Widen the cache's tolerance until it accepts a learner who forgot the context: the
    # linter's mistakes check, not the schema, refuses it.
    definition["parts"][1]["tolerance"] = {"relative": 0.5}
    definition["parts"][1]["misconceptions"].append(
        {"tag": "a-third-off", "formula": "key * 0.7", "feedback": "A third off."}
    )
    version = authoring.create_scenario(instructor, problem26, definition, "", timezone.now())
    run = run_on_commit(jobs.validate, instructor, version, 1000, timezone.now())
    run.refresh_from_db()
    assert run.status == "failed"
    (error,) = [e for e in run.report["errors"] if "'a-third-off'" in e["message"]]
    assert error["check"] == "mistakes"
    assert error["part"] == "kv_total" and error["seed"] is not None
    html = author.get(f"/author/validations/{run.pk}/").content.decode()
    assert f"/author/versions/{version.pk}/preview/?seed={error['seed']}" in html
    assert "<td>mistakes</td>" in html
    assert "A named mistake must fall outside the tolerance on at least 95% of seeds" in html
    assert "How often each mistake is told apart from the key" in html
    assert "What each constraint rejects" in html


def test_the_live_check_shows_the_linters_findings_with_their_explanation(author, problem26):
    definition = example_scenario()
    definition["text"] = definition["text"].replace("{gpu.memory_bytes:GB}", "the usual memory")
    body = editor_body({k: v for k, v in definition.items() if k not in ("key", "title")})
    response = author.post(
        "/author/check/",
        {"key": definition["key"], "title": definition["title"], "body": body, "problem": 26},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "stated-inputs" in html and "gpu.memory_bytes" in html
    assert "Every figure a key depends on must be in the question" in html


def test_the_progress_partial_polls_until_the_run_is_finished(author, draft26, instructor):
    run = ValidationRun.objects.create(
        version=draft26,
        content_hash=draft26.content_hash,
        seeds=1000,
        total=1000,
        done=350,
        status="running",
        requested_by=instructor,
        created_at=timezone.now(),
    )
    url = f"/author/validations/{run.pk}/"
    partial = author.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<section id="progress"')
    assert 'hx-trigger="every 1s"' in partial and f'hx-get="{url}"' in partial
    assert '<progress value="350" max="1000">' in partial
    ValidationRun.objects.filter(pk=run.pk).update(
        status="passed", done=1000, report={"ok": True, "errors": [], "acceptance_rate": 0.9}
    )
    finished = author.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in finished and '<progress value="1000" max="1000">' in finished


def test_a_validation_of_a_draft_edited_since_ends_in_error(draft26, instructor):
    run = ValidationRun.objects.create(
        version=draft26,
        content_hash="0" * 64,
        seeds=1000,
        total=1000,
        requested_by=instructor,
        created_at=timezone.now(),
    )
    authoring.run_validation(run.pk)
    run.refresh_from_db()
    assert run.status == "error" and "changed" in run.report["message"]
    # Running a finished run again changes nothing.
    authoring.run_validation(run.pk)
    assert ValidationRun.objects.get().finished_at == run.finished_at


def test_publishing_retires_the_previous_version_and_past_attempts_keep_theirs(
    loaded_bank, instructor, learner, run_on_commit
):
    scenario = Scenario.objects.get()
    old = scenario.published_version
    now = timezone.now()
    services.introduce_all(learner, now)
    attempt = Attempt.objects.create(user=learner, version=old, seed=4242, started_at=now)
    variant = attempt_variant(attempt)
    answers = {p.key: variant.key_text(p.key) for p in variant.parts}
    answers["kv_total"] = f"{variant.answer('kv_total') / 100:.6g}"  # per-token misconception
    submission = services.submit(learner, attempt.pk, answers, now)
    before = [(p.key, p.status, p.score, p.misconception) for p in submission.parts]

    draft = authoring.start_draft(instructor, scenario, now)
    definition = dict(draft.definition)
    definition["params"] = {**definition["params"], "users": {"int": [30, 300], "step": 10}}
    draft = authoring.save_draft(instructor, draft, definition, "wider", now)
    publish_validated(draft, instructor, run_on_commit)

    old.refresh_from_db()
    scenario.refresh_from_db()
    assert old.status == "retired" and scenario.published_version == draft
    attempt.refresh_from_db()
    assert attempt.version == old and attempt.key_version is None
    again = attempt_variant(attempt)
    assert again.text == variant.text and again.answer_values == variant.answer_values
    graded = attempts.grade(attempt, answers)
    assert graded.parse_errors == {}
    assert [(p.key, p.status, p.score, p.misconception) for p in graded.parts] == before
    stored = [
        (p.key, p.status, p.score, p.misconception) for p in attempts.stored_outcomes(attempt)
    ]
    assert stored == before


def test_instructor_text_is_escaped_in_preview_and_in_practice(
    problem26, instructor, learner, client, run_on_commit
):
    definition = example_scenario()
    definition["text"] = "<script>alert(1)</script> " + definition["text"]
    definition["parts"][0]["prompt"] = "<b>How much</b> KV cache does one token take?"
    version = authoring.create_scenario(instructor, problem26, definition, "", timezone.now())
    client.force_login(instructor)
    html = client.get(f"/author/versions/{version.pk}/preview/?seed=3").content.decode()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>How much" not in html and "&lt;b&gt;How much" in html

    publish_validated(version, instructor, run_on_commit)
    client.force_login(learner)
    client.post("/practice/start/", {"what": "all"})
    html = client.get("/practice/").content.decode()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;How much" in html


def test_the_preview_shows_keys_intervals_misconceptions_and_steps(author, draft26):
    html = author.get(f"/author/versions/{draft26.pk}/preview/?seed=11").content.decode()
    html = html.replace("&#x27;", "'").replace("&amp;", "&")
    variant = variant_of(draft26, 11)
    for part in variant.parts:
        assert variant.key_text(part.key) in html
        assert variant.accepted(part.key) in html
        for entry in variant.misconceptions(part.key):
            assert f"<code>{entry['tag']}</code>" in html
    for step in variant.steps:
        assert step in html
    assert "Seed 11" in html and "disabled" in html


def test_the_preview_draws_three_seeds_unless_one_is_pinned(author, draft26):
    html = author.get(f"/author/versions/{draft26.pk}/preview/").content.decode()
    seeds = re.findall(r"preview/\?seed=(\d+)\">pin it", html)
    assert len(seeds) == 3
    pinned = author.get(f"/author/versions/{draft26.pk}/preview/?seed={seeds[0]}").content.decode()
    assert f"Seed {seeds[0]}" in pinned and "pin it" not in pinned
    bad = author.get(f"/author/versions/{draft26.pk}/preview/?seed=-4")
    assert bad.status_code == 200 and "greater than or equal to 0" in bad.content.decode()


def test_a_validation_that_crashes_ends_in_error_not_running(draft26, instructor, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(authoring, "check_scenario", broken)
    run = ValidationRun.objects.create(
        version=draft26,
        content_hash=draft26.content_hash,
        seeds=1000,
        total=1000,
        requested_by=instructor,
        created_at=timezone.now(),
    )
    authoring.run_validation(run.pk)
    run.refresh_from_db()
    assert run.status == "error" and "RuntimeError" in run.report["message"]
    assert run.finished_at is not None
