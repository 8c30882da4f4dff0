import json
import re
from html import unescape
from pathlib import Path

import pytest


def test_it_serves_the_home_page_to_anyone(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Sign up" in response.content


@pytest.mark.parametrize("path", ["/", "/practice/", "/plan/", "/mock/"])
def test_it_links_the_stable_paths(client, learner, path):
    client.force_login(learner)
    html = client.get("/").content.decode()
    assert f'href="{path}"' in html


def test_it_shows_author_only_to_instructors(client, learner, instructor):
    client.force_login(learner)
    assert 'href="/author/"' not in client.get("/").content.decode()
    client.force_login(instructor)
    assert 'href="/author/"' in client.get("/").content.decode()


def test_it_sends_the_csrf_token_with_every_htmx_request(client, learner):
    client.force_login(learner)
    html = client.get("/").content.decode()
    match = re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'>", html)
    assert match and len(match.group(1)) >= 32


def test_it_sets_a_strict_content_security_policy(client, db):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    script_src = re.search(r"script-src ([^;]+)", policy).group(1)
    assert "'unsafe-inline'" not in script_src
    assert "'unsafe-eval'" not in script_src
    assert "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy


def test_it_has_no_inline_script_and_htmx_eval_is_off(client, learner):
    client.force_login(learner)
    html = client.get("/").content.decode()
    assert '"allowEval": false' in html
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag or "nonce=" in tag, tag
    assert " hx-on" not in html and " onclick=" not in html


def test_it_is_readable_at_phone_width(client, db):
    html = client.get("/").content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_it_serves_vendored_static_files(client, db):
    for path in ["/static/vendor/htmx/htmx.min.js", "/static/vendor/simplecss/simple.min.css"]:
        response = client.get(path)
        assert response.status_code == 200, path


def test_it_shows_a_friendly_404(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"There is nothing here" in response.content


def test_it_lets_nothing_set_an_inline_style(client, learner):
    """style-src has no 'unsafe-inline': htmx must add no indicator style sheet and carry no
    style attribute over when it swaps an element (its settle step), and neither the templates
    nor our script may write one."""
    client.force_login(learner)
    html = client.get("/").content.decode()
    config = json.loads(
        unescape(re.search(r'<meta name="htmx-config" content=\'([^\']+)\'>', html).group(1))
    )
    assert config["includeIndicatorStyles"] is False
    assert "style" not in config["attributesToSettle"]
    root = Path(__file__).resolve().parent.parent
    for template in (root / "templates").rglob("*.html"):
        assert not re.search(r"\sstyle=", template.read_text()), template
    script = (root / "static" / "js" / "app.js").read_text()
    assert ".style" not in script and 'setAttribute("style"' not in script
