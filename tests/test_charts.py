from datetime import date, timedelta

from trainer import charts


def test_it_escapes_every_label_of_a_bar_chart():
    svg = charts.bar_chart([("<b>", 3, "<i>"), ("plain", 1, "")], title="<t>", unit=" <u>")
    assert "<b>" not in svg and "<i>" not in svg and "<u>" not in svg and "<t>" not in svg
    assert "&lt;b&gt;: 3 &lt;u&gt;" in svg


def test_it_scales_bars_to_the_tallest():
    svg = charts.bar_chart([("a", 4, ""), ("b", 2, "")], title="t", height=130)
    assert 'height="100.0"' in svg and 'height="50.0"' in svg


def test_it_draws_a_year_of_days_with_no_style_attributes():
    svg = charts.heatmap({date(2026, 11, 29): 3}, title="t", last_day=date(2026, 11, 29))
    assert svg.count("<rect") == 7 * 52 + 7  # 52 full weeks before this Sunday's week
    assert "2026-11-29: 3 reviews" in svg
    assert "style=" not in svg


def test_a_heatmap_of_days_is_the_heatmap_of_their_mapping():
    # A Monday and a Sunday: the grid shows one day or all seven of the last week, and the
    # days of the window before the grid's first Monday still set the darkest level.
    for last in (date(2026, 11, 30), date(2026, 11, 29)):
        daily = [(index * 7) % 5 for index in range(371)]
        daily[0] = 9
        counts = {last - timedelta(days=370 - index): n for index, n in enumerate(daily)}
        assert charts.heatmap_days(daily, title="t", last_day=last) == charts.heatmap(
            counts, title="t", last_day=last
        )


def test_it_marks_each_chart_with_its_size_so_phone_labels_can_grow():
    wide = charts.bar_chart([(str(n), n, "") for n in range(30)], title="t")
    medium = charts.line_chart(
        [("a", "#000", [(1, 1), (2, 2)])], title="t", x_label="x", y_label="y"
    )
    small = charts.bar_chart([("a", 1, "")], title="t")
    assert 'class="chart-wide"' in wide
    assert 'class="chart-medium"' in medium
    assert 'class="chart-small"' in small
