"""Every link in a template and every redirect in the code names its route: a path changes in one
place (the URL conf), never in the pages that point to it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A quoted site path such as "/practice/" or "/mock/{{ mock.pk }}/": static files excepted.
TEMPLATE_PATH = re.compile(r"""["'](/(?!static/)(?:[a-z][^"'<>]*)?)["']""")
CODE_PATH = re.compile(
    r"""["'](/(?:practice|plan|mock|author|accounts|help|admin|healthz)(?:/[^"']*)?)["']"""
)


def test_templates_link_by_route_name():
    found = [
        f"{path.relative_to(ROOT)}: {match.group(1)}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in TEMPLATE_PATH.finditer(path.read_text())
    ]
    assert found == []


def test_code_redirects_by_route_name():
    found = [
        f"{path.relative_to(ROOT)}: {match.group(1)}"
        for package in ("problems", "trainer")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for match in CODE_PATH.finditer(path.read_text())
    ]
    assert found == []


def test_the_patterns_find_what_they_look_for():
    assert TEMPLATE_PATH.search('<a href="/mock/{{ mock.pk }}/">')
    assert TEMPLATE_PATH.search('<a href="/">Home</a>')
    assert not TEMPLATE_PATH.search('<link href="/static/css/site.css">')
    assert CODE_PATH.search('redirect(f"/author/versions/{version.pk}/")')
