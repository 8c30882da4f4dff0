"""The type check `make test` runs (mypy, configured in pyproject.toml): what it covers, and that
no module is exempt without being listed here.

mypy itself fails `make test` when a function of a checked module loses its annotations
(`disallow_untyped_defs`); these tests keep the configuration from quietly exempting one.
"""

import tomllib
from importlib.util import find_spec
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]

# Checked, but their scalar-or-array signatures (pvlib's style) are not annotated yet.
SIGNATURES_NEXT = {"problems.estimator.*"}


def _modules(**setting):
    ((name, value),) = setting.items()
    return {
        module
        for override in MYPY.get("overrides", [])
        if override.get(name) == value
        for module in override["module"]
    }


def test_it_checks_both_packages_and_requires_annotations():
    assert MYPY["files"] == ["problems", "trainer"]
    for setting in (
        "disallow_untyped_defs",
        "disallow_incomplete_defs",
        "check_untyped_defs",
        "no_implicit_optional",
        "warn_unused_ignores",
    ):
        assert MYPY[setting] is True, setting
    assert "mypy_django_plugin.main" in MYPY["plugins"]


def test_it_exempts_only_the_estimators_signatures():
    assert not _modules(ignore_errors=True)
    assert _modules(disallow_untyped_defs=False) == SIGNATURES_NEXT
    assert not _modules(check_untyped_defs=False)
    assert not _modules(follow_imports="skip")


def test_every_exempt_module_exists():
    # A module renamed or deleted by the work that exempts it must leave the lists too.
    for pattern in SIGNATURES_NEXT:
        assert find_spec(pattern.removesuffix(".*")) is not None, pattern
