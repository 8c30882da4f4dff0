"""The catalogue sheet: the figures a question takes as known, with their sources."""

import pytest

from problems.engine import draw_variant, load_scenario

KV = {
    "key": "kv",
    "title": "KV per token",
    "params": {"model": {"model": ["llama-3-70b"]}, "kv_format": {"format": ["bf16"]}},
    "assumed": ["model.layers", "model.kv_heads", "model.head_dim"],
    "text": "{model} caches keys and values in {kv_format}.",
    "parts": [
        {
            "key": "kv",
            "prompt": "KV per token?",
            "unit": "KiB",
            "answer": "kv_bytes_per_token(model, kv_format)",
        }
    ],
    "steps": ["{kv}"],
}


def test_it_lists_a_models_figures_with_the_assumed_ones_marked(client, learner):
    client.force_login(learner)
    response = client.get("/catalogue/model/llama-3-70b/?fields=layers,kv_heads")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Llama-3-70B</h1>" in html
    assert '<tr class="assumed"><th scope="row">layers <span class="muted">(this question)' in html
    assert "KV heads" in html and "head dimension" in html
    assert "meta-llama/Meta-Llama-3-70B config.json" in html


def test_it_writes_gpu_figures_in_their_units(client, learner):
    client.force_login(learner)
    html = client.get("/catalogue/gpu/mi300x/").content.decode()
    assert "5,300 GB/s" in html and "2,615 TFLOPS" in html and "192 GB" in html
    assert "peer links that do not pool" in html


def test_it_answers_404_for_an_unknown_entry(client, learner):
    client.force_login(learner)
    assert client.get("/catalogue/gpu/h1000/").status_code == 404
    assert client.get("/catalogue/planet/earth/").status_code == 404


def test_it_needs_a_login(client, db):
    response = client.get("/catalogue/gpu/h100-sxm/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("fields", ["", "?fields=layers"])
def test_it_is_read_only(client, learner, fields):
    client.force_login(learner)
    assert client.post(f"/catalogue/model/llama-3-8b/{fields}").status_code == 405


def test_a_variant_names_the_sheets_of_its_assumed_figures():
    variant = draw_variant(load_scenario(KV), 0)
    assert variant.catalogue_sheets() == [
        {
            "param": "model",
            "kind": "model",
            "key": "llama-3-70b",
            "name": "Llama-3-70B",
            "fields": ["layers", "kv_heads", "head_dim"],
            "labels": ["layers", "KV heads", "head dimension"],
        }
    ]
