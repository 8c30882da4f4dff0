"""axe-core in the browser suite: every page a test checks must have no accessibility violation
of impact "serious" or "critical".

The script is a pinned test file (tests/e2e/vendor/README.md gives its version and sha256), put
into the page by the test itself, never by the app.
"""

import hashlib
import json
from pathlib import Path

VENDOR = Path(__file__).resolve().parent / "vendor"
AXE = VENDOR / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
BLOCKING = ("serious", "critical")


def axe_source():
    source = AXE.read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    assert digest == AXE_SHA256, f"{AXE} is not the pinned axe-core (sha256 {digest})"
    return source.decode()


def violations(page):
    """axe's violations of impact serious or critical on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol rather than added as a <script> element: the
        # page's Content Security Policy (rightly) refuses inline scripts, and turning the policy
        # off for the test would hide the violations the suite watches for.
        page.evaluate(axe_source())
    result = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary)
            }));
        }"""
    )
    return [violation for violation in result if violation["impact"] in BLOCKING]


def assert_accessible(page):
    found = violations(page)
    assert not found, f"axe found at {page.url}:\n" + json.dumps(found, indent=2)
