"""`highlight`: code shown with a worked solution, coloured on the server by Pygments.

The HTML carries class names only (`HtmlFormatter`'s default): the colours are in
static/css/code.css, because the Content-Security-Policy refuses inline styles, and no script
runs in the browser. The stylesheet is ``pygmentize -S friendly -f html -a .highlight``, its
``.highlight`` rules only (the others would restyle every ``pre`` of the site).
"""

from typing import Any

from django import template
from django.utils.safestring import SafeString
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

register = template.Library()
FORMATTER = HtmlFormatter(cssclass="highlight")


@register.filter(is_safe=True)
def highlight(code: Any) -> SafeString:
    """A `CodeBlock` (or anything with `text` and `language`) as highlighted HTML. Pygments
    escapes the code itself, so it is safe to mark safe."""
    try:
        lexer = get_lexer_by_name(code.language)
    except ClassNotFound:
        lexer = TextLexer()
    return SafeString(pygments_highlight(code.text, lexer, FORMATTER))
