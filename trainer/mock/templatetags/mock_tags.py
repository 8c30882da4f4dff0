from django import template

register = template.Library()


@register.filter
def minutes_seconds(seconds: float | str | None) -> str:
    """A duration in seconds as "m:ss" (or "h:mm:ss"): how the mock's clock shows time."""
    if seconds is None or seconds == "":
        return ""
    total = max(0, round(float(seconds)))
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
