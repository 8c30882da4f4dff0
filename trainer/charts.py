"""Small SVG charts rendered on the server.

Only presentation attributes (fill, stroke), never style attributes, so the Content Security
Policy needs no 'unsafe-inline'. Every label goes through format_html, so text is escaped. Charts
scale with the page (viewBox, no fixed width) and so stay readable at phone width.
"""

from datetime import timedelta

from django.utils.html import format_html, format_html_join

ACCENT = "#0d47a1"
MUTED = "#9e9e9e"
GRID = "#e0e0e0"
HEAT = ["#ebedf0", "#c6e48b", "#7bc96f", "#239a3b", "#196127"]


def bar_chart(bars, *, title, unit="", height=160, bar_width=18, gap=4):
    """Vertical bars: `bars` is a list of (label, value, tick_label_or_empty)."""
    top = max((value for _, value, _ in bars), default=0) or 1
    plot_height = height - 30
    width = len(bars) * (bar_width + gap) + 40
    items = []
    for index, (label, value, tick) in enumerate(bars):
        x = 36 + index * (bar_width + gap)
        bar_height = plot_height * value / top
        y = 8 + plot_height - bar_height
        items.append(
            format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}{}</title>'
                "</rect>",
                x,
                _fixed(y),
                bar_width,
                _fixed(bar_height),
                ACCENT,
                label,
                _number(value),
                unit,
            )
        )
        if tick:
            items.append(
                format_html(
                    '<text x="{}" y="{}" font-size="10" text-anchor="middle" fill="currentColor">{}'
                    "</text>",
                    x + bar_width / 2,
                    height - 6,
                    tick,
                )
            )
    axis = format_html(
        '<text x="30" y="16" font-size="10" text-anchor="end" fill="currentColor">{}</text>'
        '<text x="30" y="{}" font-size="10" text-anchor="end" fill="currentColor">0</text>'
        '<line x1="34" y1="{}" x2="{}" y2="{}" stroke="{}"/>',
        _number(top),
        8 + plot_height,
        8 + plot_height,
        width,
        8 + plot_height,
        GRID,
    )
    return _svg(width, height, title, axis + _join(items))


def heatmap(counts, *, title, last_day, weeks=53, cell=11):
    """A year of days as a grid of weeks (columns) by weekday (rows), darker for more."""
    first_day = last_day - timedelta(days=last_day.weekday() + 7 * (weeks - 1))
    top = max(counts.values(), default=0) or 1
    rects = []
    day = first_day
    while day <= last_day:
        column = (day - first_day).days // 7
        row = day.weekday()
        count = counts.get(day, 0)
        level = 0 if count == 0 else 1 + min(3, int(3 * count / top))
        rects.append(
            format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="{}"><title>{}: {} review{}'
                "</title></rect>",
                24 + column * (cell + 2),
                4 + row * (cell + 2),
                cell,
                cell,
                HEAT[level],
                day.isoformat(),
                count,
                "" if count == 1 else "s",
            )
        )
        day += timedelta(days=1)
    labels = format_html_join(
        "",
        '<text x="0" y="{}" font-size="9" fill="currentColor">{}</text>',
        ((4 + row * (cell + 2) + 9, name) for row, name in [(0, "Mon"), (2, "Wed"), (4, "Fri")]),
    )
    width = 24 + weeks * (cell + 2)
    height = 4 + 7 * (cell + 2)
    return _svg(width, height, title, labels + _join(rects))


def line_chart(
    series, *, title, x_label, y_label, width=480, height=260, log_x=False, log_y=False, marker=None
):
    """Lines through points: `series` is a list of (name, colour, [(x, y), ...]); `marker` an
    optional (x, y, label) point drawn on top."""
    import math

    points = [point for _, _, line in series for point in line]
    if marker:
        points.append(marker[:2])
    xs = [math.log10(x) if log_x else x for x, _ in points]
    ys = [math.log10(y) if log_y else y for _, y in points]
    x_low, x_high = min(xs), max(xs)
    y_low, y_high = (min(ys), max(ys)) if log_y else (0, max(ys))
    x_high = x_high if x_high > x_low else x_low + 1
    y_high = y_high if y_high > y_low else y_low + 1
    left, right, top, bottom = 56, width - 12, 12, height - 40

    def place(x, y):
        fx = (math.log10(x) if log_x else x) - x_low
        fy = (math.log10(y) if log_y else y) - y_low
        return (
            left + (right - left) * fx / (x_high - x_low),
            bottom - (bottom - top) * fy / (y_high - y_low),
        )

    parts = [
        format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}"/>'
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}"/>'
            '<text x="{}" y="{}" font-size="11" text-anchor="middle" fill="currentColor">{}</text>'
            '<text x="12" y="{}" font-size="11" text-anchor="middle" fill="currentColor" '
            'transform="rotate(-90 12 {})">{}</text>',
            left,
            bottom,
            right,
            bottom,
            MUTED,
            left,
            top,
            left,
            bottom,
            MUTED,
            (left + right) / 2,
            height - 6,
            x_label,
            (top + bottom) / 2,
            (top + bottom) / 2,
            y_label,
        )
    ]
    for value, anchor in ((x_low, "start"), (x_high, "end")):
        shown = 10**value if log_x else value
        x, _ = place(shown, 10**y_low if log_y else y_low)
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="10" text-anchor="{}" fill="currentColor">{}</text>',
                _fixed(x),
                bottom + 14,
                anchor,
                _number(shown),
            )
        )
    for value in (y_low, y_high):
        shown = 10**value if log_y else value
        _, y = place(10**x_low if log_x else x_low, shown)
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="10" text-anchor="end" fill="currentColor">{}'
                "</text>",
                left - 4,
                _fixed(y + 3),
                _number(shown),
            )
        )
    for index, (name, colour, line) in enumerate(series):
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (place(*point) for point in line))
        parts.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2"><title>{}</title>'
                "</polyline>"
                '<text x="{}" y="{}" font-size="10" text-anchor="end" fill="{}">{}</text>',
                path,
                colour,
                name,
                right - 4,
                top + 12 + 12 * index,
                colour,
                name,
            )
        )
    if marker:
        x, y = place(marker[0], marker[1])
        parts.append(
            format_html(
                '<circle cx="{}" cy="{}" r="5" fill="#d32f2f"><title>{}</title></circle>',
                _fixed(x),
                _fixed(y),
                marker[2],
            )
        )
    return _svg(width, height, title, _join(parts))


def _join(fragments):
    return format_html_join("", "{}", ((fragment,) for fragment in fragments))


def _svg(width, height, title, body):
    return format_html(
        '<svg viewBox="0 0 {} {}" role="img" aria-label="{}" xmlns="http://www.w3.org/2000/svg">'
        "<title>{}</title>{}</svg>",
        width,
        height,
        title,
        title,
        body,
    )


def _fixed(value):
    return f"{value:.1f}"


def _number(value):
    if value >= 100 or value == int(value):
        return f"{value:,.0f}"
    return f"{value:.3g}"
