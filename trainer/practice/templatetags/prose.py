"""`prose`: plain text from the bank or an instructor, as HTML paragraphs and lists.

The texts are YAML block scalars wrapped at about 100 columns, so a single newline is only a wrap
(a space), a blank line ends a paragraph, and a line starting with "- " starts a list item
(its wrapped continuation lines join it). Everything is escaped first: no markup gets through.
"""

from collections.abc import Iterator

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString

register = template.Library()


@register.filter(is_safe=True)
def prose(text: object) -> SafeString:
    html: list[str] = []
    for block in _blocks(str(text or "")):
        lead: list[str] = []
        items: list[list[str]] = []
        for line in block:
            if line.startswith("- "):
                items.append([line[2:].strip()])
            elif items:
                items[-1].append(line)
            else:
                lead.append(line)
        if lead:
            html.append(f"<p>{escape(' '.join(lead))}</p>")
        if items:
            entries = "".join(f"<li>{escape(' '.join(item))}</li>" for item in items)
            html.append(f"<ul>{entries}</ul>")
    return SafeString("\n".join(html))


def _blocks(text: str) -> Iterator[list[str]]:
    block = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        if line:
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block
