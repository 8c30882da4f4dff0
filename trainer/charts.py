"""Small SVG charts rendered on the server.

Only presentation attributes (fill, stroke), never style attributes, so the Content Security
Policy needs no 'unsafe-inline'. Every label goes through format_html, so text is escaped. Charts
scale with the page (viewBox, no fixed width); on a phone a wide chart shrinks to half its size,
so each carries a size class and app.css enlarges its labels there (CSS outranks the
presentation attribute font-size). The year heatmap scrolls sideways on a phone instead.
"""

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta
from typing import Literal

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString

from problems.engine.numbers import format_number

ACCENT = "#0d47a1"
MUTED = "#9e9e9e"
GRID = "#e0e0e0"
PALETTE = ["#0d47a1", "#ef6c00", "#2e7d32", "#6a1b9a", "#c62828", "#00838f"]
"""Series colours, distinguishable in print and for the common colour-vision deficiencies."""
HEAT = ["#ebedf0", "#c6e48b", "#7bc96f", "#239a3b", "#196127"]

Number = float | int
Point = tuple[Number, Number]


def bar_chart(
    bars: Sequence[tuple[str, Number, str]],
    *,
    title: str,
    unit: str = "",
    height: int = 160,
    bar_width: int = 18,
    gap: int = 4,
) -> SafeString:
    """Vertical bars: `bars` is a list of (label, value, tick_label_or_empty)."""
    top = max((value for _, value, _ in bars), default=0) or 1
    plot_height = height - 30
    width = len(bars) * (bar_width + gap) + 40
    items = []
    unit_text = escape(unit)
    for index, (label, value, tick) in enumerate(bars):
        x = 36 + index * (bar_width + gap)
        bar_height = plot_height * value / top
        y = 8 + plot_height - bar_height
        # f-strings with the text escaped by hand: format_html per bar was most of this chart.
        items.append(
            f'<rect x="{x}" y="{_fixed(y)}" width="{bar_width}" height="{_fixed(bar_height)}" '
            f'fill="{ACCENT}"><title>{escape(label)}: {_number(value)}{unit_text}</title></rect>'
        )
        if tick:
            items.append(
                f'<text x="{x + bar_width / 2}" y="{height - 6}" font-size="10" '
                f'text-anchor="middle" fill="currentColor">{escape(tick)}</text>'
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
    return _svg(width, height, title, axis + SafeString("".join(items)))


def heatmap(
    counts: Mapping[date, int], *, title: str, last_day: date, weeks: int = 53, cell: int = 11
) -> SafeString:
    """A year of days as a grid of weeks (columns) by weekday (rows), darker for more; the
    darkest is the largest count in `counts`."""
    first_day = _heat_start(last_day, weeks)
    daily = [counts.get(first_day + timedelta(days=index), 0) for index in range(7 * weeks)]
    top = max(counts.values(), default=0)
    return _heatmap(daily, top, title=title, last_day=last_day, weeks=weeks, cell=cell)


def heatmap_days(
    daily: Sequence[int], *, title: str, last_day: date, weeks: int = 53, cell: int = 11
) -> SafeString:
    """`heatmap` of the counts of consecutive days ending on `last_day` (as many as the grid
    shows, or more: the darkest is the largest of them all), without a mapping to build."""
    first_day = _heat_start(last_day, weeks)
    shown = (last_day - first_day).days + 1
    grid = [0] * max(0, shown - len(daily)) + list(daily[-shown:])
    return _heatmap(
        grid, max(daily, default=0), title=title, last_day=last_day, weeks=weeks, cell=cell
    )


def _heat_start(last_day: date, weeks: int) -> date:
    """The Monday the grid starts on."""
    return last_day - timedelta(days=last_day.weekday() + 7 * (weeks - 1))


def _heatmap(
    daily: Sequence[int], top: int, *, title: str, last_day: date, weeks: int, cell: int
) -> SafeString:
    """The grid of `daily` (from the first Monday on; entries after `last_day` unused)."""
    first_day = _heat_start(last_day, weeks)
    shown = (last_day - first_day).days + 1
    top = top or 1
    levels = [0 if count == 0 else 1 + min(3, int(3 * count / top)) for count in daily[:shown]]
    columns = [
        _heat_column(
            cell,
            column,
            first_day + timedelta(days=7 * column),
            tuple(daily[7 * column : min(shown, 7 * column + 7)]),
            tuple(levels[7 * column : 7 * column + 7]),
        )
        for column in range(weeks)
    ]
    labels = format_html_join(
        "",
        '<text x="0" y="{}" font-size="9" fill="currentColor">{}</text>',
        ((4 + row * (cell + 2) + 9, name) for row, name in [(0, "Mon"), (2, "Wed"), (4, "Fri")]),
    )
    width = 24 + weeks * (cell + 2)
    height = 4 + 7 * (cell + 2)
    return _svg(width, height, title, labels + SafeString("".join(columns)))


@functools.lru_cache(maxsize=4096)
def _heat_column(
    cell: int, column: int, monday: date, counts: tuple[int, ...], levels: tuple[int, ...]
) -> str:
    """The cells of one week, a count and a level a day from Monday. A learner's past weeks look
    the same from one view to the next, so they are written once (about 80 learners' years fit)."""
    rects = []
    for row, (count, level) in enumerate(zip(counts, levels, strict=True)):
        day = monday + timedelta(days=row)
        # Only numbers and ISO dates go in here, nothing to escape; format_html for 371 cells
        # was a third of the dashboard's time.
        plural = "" if count == 1 else "s"
        rects.append(
            f'<rect x="{24 + column * (cell + 2)}" y="{4 + row * (cell + 2)}" width="{cell}" '
            f'height="{cell}" rx="2" fill="{HEAT[level]}"><title>{day.isoformat()}: {int(count)} '
            f"review{plural}</title></rect>"
        )
    return "".join(rects)


def line_chart(
    series: Sequence[tuple[str, str, Sequence[Point]]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    width: int = 480,
    height: int = 260,
    log_x: bool = False,
    log_y: bool = False,
    marker: tuple[Number, Number, str] | None = None,
    guides: Sequence[tuple[str, Sequence[Point]]] = (),
    decade_ticks: bool = False,
    legend: Literal["right", "left"] = "right",
) -> SafeString:
    """Lines through points: `series` is a list of (name, colour, [(x, y), ...]); `marker` an
    optional (x, y, label) point drawn on top; `guides` a list of (label, [(x, y), ...]) drawn as
    dashed grey reference lines (a ridge point, a break-even level); `decade_ticks` labels every
    power of ten on a logarithmic axis instead of only its ends; `legend` puts the series names
    at the top "right" or "left", whichever the lines leave free."""
    points: list[Point] = [point for _, _, line in series for point in line]
    points.extend(point for _, line in guides for point in line)
    if marker:
        points.append((marker[0], marker[1]))
    xs = [math.log10(x) if log_x else x for x, _ in points]
    ys = [math.log10(y) if log_y else y for _, y in points]
    x_low, x_high = min(xs), max(xs)
    y_low, y_high = (min(ys), max(ys)) if log_y else (0, max(ys))
    x_high = x_high if x_high > x_low else x_low + 1
    y_high = y_high if y_high > y_low else y_low + 1
    left, right, top, bottom = 56, width - 12, 12, height - 40

    def place(x: Number, y: Number) -> tuple[float, float]:
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
    x_ticks: list[tuple[Number, str]] = [(x_low, "start"), (x_high, "end")]
    if decade_ticks and log_x:
        x_ticks = [
            (power, "start" if power <= x_low else "end" if power >= x_high else "middle")
            for power in _decades(x_low, x_high)
        ]
    for value, anchor in x_ticks:
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
    y_ticks: list[Number] = [y_low, y_high]
    if decade_ticks and log_y:
        y_ticks = _decades(y_low, y_high)
    for value in y_ticks:
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
                '<text x="{}" y="{}" font-size="10" text-anchor="{}" fill="{}">{}</text>',
                path,
                colour,
                name,
                right - 4 if legend == "right" else left + 8,
                top + 12 + 16 * index,
                "end" if legend == "right" else "start",
                colour,
                name,
            )
        )
    for label, line in guides:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (place(*point) for point in line))
        end_x, end_y = place(*line[-1])
        parts.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-dasharray="4 3">'
                "<title>{}</title></polyline>"
                '<text x="{}" y="{}" font-size="10" text-anchor="end" fill="{}">{}</text>',
                path,
                MUTED,
                label,
                _fixed(min(end_x, right) - 2),
                _fixed(max(end_y - 4, top + 10)),
                MUTED,
                label,
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


def stacked_bars(
    rows: Sequence[tuple[str, Sequence[tuple[str, Number, str]]]],
    *,
    title: str,
    unit: str = "",
    width: int = 480,
    bar_height: int = 22,
) -> SafeString:
    """Horizontal bars split into segments, on one scale: `rows` is a list of
    (row label, [(segment label, value, colour), ...]); `unit` follows each value in the hover
    text. Segment labels are listed once, as a legend under the bars."""
    totals = [sum(value for _, value, _ in segments) for _, segments in rows]
    top = max(totals, default=0) or 1
    left, right = 110, width - 12
    parts = []
    legend: dict[str, str] = {}
    for index, (label, segments) in enumerate(rows):
        y = 6 + index * (bar_height + 10)
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="11" text-anchor="end" fill="currentColor">{}'
                "</text>",
                left - 6,
                _fixed(y + bar_height * 0.7),
                label,
            )
        )
        x: float = left
        for name, value, colour in segments:
            length = (right - left) * value / top
            legend.setdefault(name, colour)
            parts.append(
                format_html(
                    '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}{}</title>'
                    "</rect>",
                    _fixed(x),
                    y,
                    _fixed(length),
                    bar_height,
                    colour,
                    name,
                    _number(value),
                    unit,
                )
            )
            x += length
    legend_y = 6 + len(rows) * (bar_height + 10) + 6
    x = left
    for name, colour in legend.items():
        parts.append(
            format_html(
                '<rect x="{}" y="{}" width="10" height="10" fill="{}"/>'
                '<text x="{}" y="{}" font-size="10" fill="currentColor">{}</text>',
                _fixed(x),
                legend_y,
                colour,
                _fixed(x + 14),
                legend_y + 9,
                name,
            )
        )
        x += 24 + 8 * len(str(name))
    return _svg(width, legend_y + 18, title, _join(parts))


def _decades(low: Number, high: Number) -> list[Number]:
    """The whole powers of ten between two base-10 logarithms, ends included when whole."""
    return list(range(math.ceil(low - 1e-9), math.floor(high + 1e-9) + 1)) or [low, high]


def _join(fragments: Iterable[str]) -> SafeString:
    return format_html_join("", "{}", ((fragment,) for fragment in fragments))


WIDE = 640
"""Charts at least this wide [viewBox units] shrink to about half on a 390 px phone, those of
at least `MEDIUM` to about three quarters: the class lets app.css enlarge their labels there."""
MEDIUM = 400


def _size_class(width: Number) -> str:
    return "chart-wide" if width >= WIDE else "chart-medium" if width >= MEDIUM else "chart-small"


def _svg(width: Number, height: Number, title: str, body: str) -> SafeString:
    return format_html(
        '<svg viewBox="0 0 {} {}" class="{}" role="img" aria-label="{}" '
        'xmlns="http://www.w3.org/2000/svg"><title>{}</title>{}</svg>',
        width,
        height,
        _size_class(width),
        title,
        title,
        body,
    )


def _fixed(value: Number) -> str:
    return f"{value:.1f}"


def _number(value: Number) -> str:
    # The engine's formatter, so a chart's labels read like the numbers beside it.
    return format_number(value)
