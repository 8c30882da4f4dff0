"""Time zone names a learner can have: the IANA names Python's zoneinfo knows.

Sign-up takes the browser's zone (static/js/app.js fills a hidden field from
`Intl.DateTimeFormat().resolvedOptions().timeZone`); the settings page offers the same names.
"""

import functools
import zoneinfo

DEFAULT = "UTC"


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """Sorted zone names, without the duplicate trees some systems install (posix/, right/)."""
    return tuple(
        sorted(
            name
            for name in zoneinfo.available_timezones()
            if not name.startswith(("posix/", "right/")) and name not in {"localtime", "Factory"}
        )
    )


def is_time_zone(name: str) -> bool:
    return name in time_zone_names()


def time_zone_or_default(name: str | None) -> str:
    """`name` if it is a zone we know, else UTC: a browser can report anything."""
    name = (name or "").strip()
    return name if is_time_zone(name) else DEFAULT
