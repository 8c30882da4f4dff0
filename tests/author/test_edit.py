"""Creating a problem and a scenario in the browser, editing a draft, validation as you type."""

import pytest
from django.utils import timezone

from problems import authoring
from problems.models import AuthoringLog, Problem, Scenario, ScenarioVersion
from tests.author.conftest import editor_body, example_scenario

pytestmark = pytest.mark.django_db


def _scenario_post(definition, action="save", **extra):
    return {
        "key": definition["key"],
        "title": definition["title"],
        "note": "a note",
        "body": editor_body(definition),
        "action": action,
        **extra,
    }


def test_it_creates_a_problem_numbered_from_26(author, instructor):
    response = author.post(
        "/author/problems/new/",
        {
            "number": 26,
            "page": 3,
            "title": "A new problem",
            "tradeoffs": "First trade-off\n\nSecond trade-off\n",
            "expected_minutes": 7,
        },
    )
    assert response.status_code == 302
    problem = Problem.objects.get(number=26)
    assert problem.tradeoffs == ["First trade-off", "Second trade-off"]
    assert not problem.is_builtin and problem.created_by == instructor
    assert AuthoringLog.objects.get().action == "create_problem"


def test_it_refuses_a_builtin_number_or_a_taken_one(author, problem26):
    response = author.post("/author/problems/new/", {"number": 5, "page": 1, "title": "x"})
    assert response.status_code == 200 and Problem.objects.count() == 1
    assert "greater than or equal to 26" in response.content.decode()
    response = author.post(
        "/author/problems/new/", {"number": 26, "page": 1, "title": "x", "expected_minutes": 5}
    )
    assert "exists already" in response.content.decode()
    assert Problem.objects.get().title.startswith("Size the KV cache")


def test_it_edits_an_authored_problem_but_not_a_builtin_one(author, problem26, loaded_bank):
    author.post(
        "/author/problems/26/edit/",
        {"page": 4, "title": "Renamed", "expected_minutes": 9, "number": 999},
    )
    problem26.refresh_from_db()
    assert (problem26.number, problem26.page, problem26.title) == (26, 4, "Renamed")
    builtin = Problem.objects.get(number=3)
    response = author.post(
        "/author/problems/3/edit/", {"page": 4, "title": "Renamed", "expected_minutes": 9}
    )
    html = response.content.decode()
    assert "its fields come from problems/bank/" in html
    # The number cannot be edited, so it is never the reason given.
    assert "greater than or equal to" not in html
    builtin.refresh_from_db()
    assert builtin.title.startswith("Size the KV cache")


def test_it_saves_a_new_scenario_as_a_draft(author, problem26, instructor):
    definition = example_scenario()
    response = author.post("/author/problems/26/scenarios/new/", _scenario_post(definition))
    assert response.status_code == 302
    version = ScenarioVersion.objects.get()
    assert response["Location"] == f"/author/versions/{version.pk}/"
    assert version.status == "draft" and version.number == 1 and version.source == "author"
    assert version.definition == definition
    assert version.created_by == instructor and version.note == "a note"
    assert version.scenario.published_version is None  # learners see nothing yet


def test_it_shows_the_engines_errors_with_their_paths_and_saves_nothing(author, problem26):
    definition = example_scenario()
    definition["parts"][0]["answer"] = "kv_bytes_per_token(model, kv_format) * layerz"
    definition["params"]["gpu"] = {"gpu": ["h100"]}
    response = author.post("/author/problems/26/scenarios/new/", _scenario_post(definition))
    html = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 200
    assert "<code>parts[0].answer</code>: unknown name 'layerz'" in html
    assert "<code>params.gpu.gpu[0]</code>: unknown gpu 'h100'" in html
    assert Scenario.objects.count() == 0
    # What was typed is kept in the editor.
    assert "layerz" in html


def test_it_refuses_formulas_outside_the_allow_list(author, problem26):
    definition = example_scenario()
    definition["derived"]["kv_exact"] = "__import__('os').system('true')"
    response = author.post("/author/problems/26/scenarios/new/", _scenario_post(definition))
    assert "<code>derived.kv_exact</code>" in response.content.decode()
    assert Scenario.objects.count() == 0


def test_it_validates_as_you_type_with_htmx(author, problem26):
    definition = example_scenario()
    definition["text"] = "You serve {modle} to {users} users."
    data = _scenario_post(definition, action="check", problem=26)
    response = author.post("/author/check/", data, HTTP_HX_REQUEST="true")
    html = response.content.decode().replace("&#x27;", "'")
    assert html.lstrip().startswith('<section id="check"')
    assert "<html" not in html
    assert (
        "<code>text</code>: placeholder {modle}: unknown name 'modle' (did you mean 'model'?)"
        in html
    )
    good = author.post(
        "/author/check/", _scenario_post(example_scenario(), problem=26), HTTP_HX_REQUEST="true"
    )
    assert "No errors" in good.content.decode()


def test_it_reports_errors_found_on_sample_seeds(author, problem26):
    definition = example_scenario()
    # Compiles, but a worked step shows a number that disagrees with the key.
    definition["steps"][1] = "All users: {kv_per_token:B} × {context} × {users} = {kv_total * 2:TB}"
    response = author.post(
        "/author/check/", _scenario_post(definition, problem=26), HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert "fails on a sample of 20 seeds" in html
    assert "part <code>kv_total</code>" in html


def test_it_keeps_key_and_title_out_of_the_yaml(author, problem26):
    definition = example_scenario()
    data = _scenario_post(definition)
    data["body"] = "key: other\n" + data["body"]
    html = author.post("/author/problems/26/scenarios/new/", data).content.decode()
    assert "<code>key</code>: set the key in its own field" in html
    assert Scenario.objects.count() == 0


def test_the_editor_offers_the_catalogues_and_the_formula_reference(author, problem26):
    html = author.get("/author/problems/26/scenarios/new/").content.decode()
    assert 'hx-trigger="keyup changed delay:600ms"' in html and 'hx-post="/author/check/"' in html
    for expected in ("<code>llama-3-70b</code>", "<code>h100-sxm</code>", "<code>fp8</code>"):
        assert expected in html
    assert "<code>kv_heads</code>" in html and "<code>hbm_bandwidth</code>" in html
    assert "kv_bytes_per_token(model, kv_format)" in html
    assert "<code>kv-missing-factor-2</code>" in html
    assert "<code>GiB</code>" in html


def test_it_edits_only_the_authors_own_draft(author, draft26, django_user_model):
    url = f"/author/versions/{draft26.pk}/edit/"
    definition = example_scenario()
    definition["params"]["users"] = {"int": [20, 300], "step": 10}
    response = author.post(url, _scenario_post(definition))
    assert response.status_code == 302
    draft26.refresh_from_db()
    assert draft26.definition["params"]["users"] == {"int": [20, 300], "step": 10}
    assert draft26.content_hash == authoring.content_hash(definition)

    from trainer.accounts.roles import make_instructor

    colleague = django_user_model.objects.create_user("colleague", password="x")
    make_instructor(colleague)
    author.force_login(colleague)
    response = author.post(url, _scenario_post(example_scenario()))
    assert response.status_code == 302 and response["Location"] == f"/author/versions/{draft26.pk}/"
    draft26.refresh_from_db()
    assert draft26.definition["params"]["users"] == {"int": [20, 300], "step": 10}


def test_the_key_of_an_existing_scenario_cannot_change(author, draft26):
    definition = example_scenario()
    data = _scenario_post(definition)
    data["key"] = "renamed"
    author.post(f"/author/versions/{draft26.pk}/edit/", data)
    draft26.refresh_from_db()
    assert draft26.definition["key"] == "dense-gqa"
    assert Scenario.objects.get().key == "dense-gqa"


def test_a_draft_of_a_published_scenario_starts_from_its_current_version(
    author, loaded_bank, instructor
):
    scenario = Scenario.objects.get(problem__number=3)
    response = author.post(f"/author/scenarios/{scenario.pk}/draft/")
    draft = ScenarioVersion.objects.get(status="draft")
    assert response["Location"] == f"/author/versions/{draft.pk}/edit/"
    assert draft.number == 2 and draft.definition == scenario.published_version.definition
    # Asking again opens the same draft.
    author.post(f"/author/scenarios/{scenario.pk}/draft/")
    assert ScenarioVersion.objects.filter(status="draft").count() == 1
    # The editor holds the definition without key and title.
    html = author.get(f"/author/versions/{draft.pk}/edit/").content.decode()
    assert "params:" in html and "kv_bytes_per_token(model, kv_format)" in html


def test_it_never_edits_a_published_version(author, loaded_bank):
    version = ScenarioVersion.objects.get()
    before = version.definition
    response = author.post(
        f"/author/versions/{version.pk}/edit/", _scenario_post(example_scenario())
    )
    assert response.status_code == 302
    version.refresh_from_db()
    assert version.definition == before and version.status == "published"
    with pytest.raises(authoring.AuthoringError):
        authoring.save_draft(version.created_by, version, before, "", timezone.now())


def test_it_discards_a_draft_and_a_scenario_left_without_versions(author, draft26):
    author.post(f"/author/versions/{draft26.pk}/discard/")
    assert ScenarioVersion.objects.count() == 0 and Scenario.objects.count() == 0
    assert AuthoringLog.objects.filter(action="discard_draft").exists()


def test_every_change_is_logged_with_its_author(author, problem26, instructor):
    author.post("/author/problems/26/scenarios/new/", _scenario_post(example_scenario()))
    version = ScenarioVersion.objects.get()
    definition = example_scenario()
    definition["title"] = "Retitled"
    author.post(f"/author/versions/{version.pk}/edit/", _scenario_post(definition))
    actions = list(AuthoringLog.objects.order_by("at", "id").values_list("action", "actor"))
    assert actions == [
        ("create_problem", instructor.pk),
        ("create_scenario", instructor.pk),
        ("save_draft", instructor.pk),
    ]
    html = author.get("/author/problems/26/").content.decode()
    assert "saved a draft" in html and "created a scenario" in html
