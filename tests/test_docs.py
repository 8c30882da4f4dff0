"""The repository documents itself: nothing points outside it, and every relative link lands.

A clone has no design notes beside it, so a pointer to one is a dead end for the reader; the
project's documents live in docs/ and cite primary sources. Pure tests: no database.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()
# Where the project's notes lived before docs/: a pointer to any of them leaves the repository.
OUTSIDE = re.compile(r"\.\./shared|\bshared/seed/|\bREFERENCE(\.md|'s)?\b|\bDESIGN\.md\b|/work/")
# [text](target) and [text](target "title"); the text may wrap over lines.
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# Directories a working copy holds that are not the project's files.
NOT_THE_PROJECT = {
    ".git",
    ".venv",
    "var",
    "staticfiles",
    "test-artifacts",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
}


def tracked_files():
    """The repository's files: what git tracks, or, without git, the working tree minus the
    virtualenv, caches and local data."""
    if shutil.which("git") and (ROOT / ".git").exists():
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        return sorted(name for name in listing.decode().split("\0") if name)
    return sorted(
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*")
        if path.is_file() and not NOT_THE_PROJECT & set(path.relative_to(ROOT).parts)
    )


FILES = tracked_files()


def text_of(name):
    try:
        return (ROOT / name).read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError):
        return None  # binary, or deleted in the working tree


def test_it_lists_the_project_files():
    assert {"README.md", "docs/architecture.md", "manage.py", THIS_FILE} <= set(FILES)


def test_no_file_points_outside_the_repository():
    found = []
    for name in FILES:
        if name == THIS_FILE:
            continue
        text = text_of(name)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    assert not found, "pointers outside the repository:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "See `../shared/DESIGN.md` for the architecture.",
        "(see `/work/notes/CONTRACT.md`)",
        "235.09 / 22.19 B per REFERENCE.md.",
        "REFERENCE's 4·L·s²·h·d halved",
        "# Source: the course text (shared/seed/000_f09282cd5e0673ac.txt).",
    ],
)
def test_it_recognises_each_kind_of_outside_pointer(line):
    assert OUTSIDE.search(line)


@pytest.mark.parametrize("line", ["docs/reference.md", "shared experts", "the reference figures"])
def test_it_leaves_the_projects_own_words_alone(line):
    assert not OUTSIDE.search(line)


MARKDOWN = [name for name in FILES if name.endswith(".md")]


def relative_links(text):
    for target in MARKDOWN_LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            continue  # another site, an anchor on the page, or a path of the app itself
        yield target.split("#", 1)[0]


@pytest.mark.parametrize("name", MARKDOWN)
def test_every_relative_link_lands_on_a_file_of_the_repository(name):
    base = (ROOT / name).parent
    broken = []
    for target in relative_links((ROOT / name).read_text(encoding="utf-8")):
        resolved = (base / target).resolve()
        if not resolved.is_relative_to(ROOT):
            broken.append(target)
            continue
        path = resolved.relative_to(ROOT).as_posix()
        if path not in FILES and not any(name.startswith(path + "/") for name in FILES):
            broken.append(target)
    assert not broken, f"{name} links to files that are not in the repository: {broken}"


def test_the_readme_and_docs_are_checked_for_links():
    assert "README.md" in MARKDOWN
    assert {"docs/architecture.md", "docs/glossary.md", "docs/reference.md"} <= set(MARKDOWN)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert {"docs/architecture.md", "docs/glossary.md", "docs/reference.md"} <= set(
        relative_links(readme)
    )


def test_a_link_to_a_missing_file_is_caught():
    assert list(
        relative_links("[gone](../shared/DESIGN.md) and [there](docs/glossary.md#key)")
    ) == [
        "../shared/DESIGN.md",
        "docs/glossary.md",
    ]
    assert list(relative_links("[site](https://example.com) [top](#layers) [app](/plan/)")) == []
