"""The rating chart's SVG: the provisional stretch's label stays clear of the line."""

from __future__ import annotations

import datetime as dt
import re

from django.utils import translation

from clubrating.web.chart import BOTTOM, HEIGHT, TOP, ChartPoint, rating_chart

FONT = 11  # px, the label's size in base.html


def test_the_provisional_label_is_above_the_plot_where_no_line_runs() -> None:
    # the highest rating first, where the label is: the line starts at the plot's top left corner
    points = [
        ChartPoint(dt.date(2024, 1, 1) + dt.timedelta(days=7 * i), rating, i < 4)
        for i, rating in enumerate([1600, 1590, 1540, 1500, 1480, 1470])
    ]
    with translation.override("ru"):
        svg = rating_chart(points, title="История рейтинга")
    label = re.search(
        r'<text class="provisional-label" x="[\d.]+" y="([\d.]+)">([^<]+)</text>', svg
    )
    assert label is not None and label[2] == "предварительный"
    baseline = float(label[1])
    ys = [float(y) for y in re.findall(r"[ML]\s*[\d.]+[ ,]([\d.]+)", svg)] + [
        float(y) for y in re.findall(r'<circle[^>]* cy="([\d.]+)"', svg)
    ]
    assert ys and min(ys) >= TOP and max(ys) <= HEIGHT - BOTTOM  # the line inside the plot
    assert baseline - FONT >= 0 and baseline <= TOP  # the word above it, inside the picture
