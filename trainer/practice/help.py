from functools import cache
from pathlib import Path

import markdown
from django.utils.safestring import SafeString, mark_safe

HELP_FILES = [
    Path(__file__).resolve().parent.parent / "srs" / "HELP.md",
    Path(__file__).resolve().parent / "GRADING.md",
]


@cache
def help_html() -> SafeString:
    # Our own documentation, rendered once per process.
    text = "\n\n".join(path.read_text() for path in HELP_FILES)
    html = markdown.markdown(text, extensions=["tables"], output_format="html")
    return mark_safe(html)  # noqa: S308 - our own documentation
