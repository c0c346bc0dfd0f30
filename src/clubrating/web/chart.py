"""The rating-history chart: inline SVG drawn on the server (readable without JavaScript).

Pure: plain points in, SVG text out. The provisional stretch (fewer than the
club's provisional games, spec R6) is shaded, labelled and drawn dashed.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from django.utils import dateformat
from django.utils.translation import gettext

WIDTH, HEIGHT = 640, 240
# The phone's drawing: as wide as the narrowest phone's page (360 px less its margins), so that its
# 11-unit text is drawn at 11 CSS px or more; the page shows one of the two by its width.
NARROW_WIDTH = 340
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 14, 30  # margins for the axis labels
NICE_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)  # rating ticks a reader can add up


@dataclass(frozen=True)
class ChartPoint:
    date: dt.date
    rating: float
    provisional: bool  # still provisional after this point


def nice_step(span: float, ticks: int = 5) -> int:
    """The smallest step of NICE_STEPS that draws at most ``ticks`` + 1 lines over ``span``."""
    for step in NICE_STEPS:
        if span / step <= ticks:
            return step
    return NICE_STEPS[-1] * math.ceil(span / (NICE_STEPS[-1] * ticks))


def _x_ticks(first: dt.date, last: dt.date, most: int = 8) -> list[tuple[dt.date, str]]:
    if (last - first).days > 2 * 365:
        return [(dt.date(y, 1, 1), str(y)) for y in range(first.year + 1, last.year + 1)]
    ticks: list[tuple[dt.date, str]] = []
    year, month = first.year, first.month
    while True:
        month += 1
        if month > 12:
            year, month = year + 1, 1
        day = dt.date(year, month, 1)
        if day > last:
            break
        ticks.append(
            (day, dateformat.format(day, "M Y" if month == 1 or not ticks else "M"))
        )  # the month in the language
    step = max(1, math.ceil(len(ticks) / most))
    return ticks[::step]


def rating_chart(
    points: Sequence[ChartPoint],
    *,
    title: str,
    start: ChartPoint | None = None,
    narrow: bool = False,
    key: str = "chart",
) -> str:
    """The SVG of a rating history; an empty string when there is nothing to draw. ``narrow``: the
    phone's drawing (class narrow-chart, fewer date ticks); ``key`` makes its ids unique."""
    width = NARROW_WIDTH if narrow else WIDTH
    key = f"{key}-narrow" if narrow else key
    series = ([start] if start else []) + list(points)
    if len(series) < 2:
        return ""
    first, last = series[0].date, series[-1].date
    days = max(1, (last - first).days)
    low, high = min(p.rating for p in series), max(p.rating for p in series)
    step = nice_step(max(high - low, 1.0))
    y_min, y_max = math.floor(low / step) * step, math.ceil(high / step) * step
    if y_max == y_min:
        y_max += step

    def x(day: dt.date) -> float:
        return LEFT + (width - LEFT - RIGHT) * (day - first).days / days

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (y_max - value) / (y_max - y_min)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {HEIGHT}" '
        f'class="chart {"narrow-chart" if narrow else "wide-chart"}" role="img" '
        f'aria-labelledby="{key}-title {key}-desc">',
        f'<title id="{key}-title">{escape(title)}</title>',
        f'<desc id="{key}-desc">{escape(_describe(series))}</desc>',
    ]
    provisional_end = next((p for p in series if not p.provisional), None)
    if series[0].provisional:
        end_x = x(provisional_end.date) if provisional_end else x(last)
        out.append(
            f'<rect class="provisional" x="{LEFT}" y="{TOP}" width="{end_x - LEFT:.1f}" '
            f'height="{HEIGHT - TOP - BOTTOM}"/>'
        )
        # above the plot, in its top margin: the line never runs through the word (a long one in
        # Russian)
        provisional = escape(gettext("provisional"))  # named first: xgettext skips f-strings
        out.append(
            f'<text class="provisional-label" x="{LEFT + 4}" y="{TOP - 3}">{provisional}</text>'
        )
    for value in range(int(y_min), int(y_max) + 1, step):
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{width - RIGHT}" '
            f'y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
        )
        out.append(
            f'<text class="axis" x="{LEFT - 6}" '
            f'y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>'
        )
    for day, label in _x_ticks(first, last, 4 if narrow else 8):
        out.append(
            f'<line class="tick" x1="{x(day):.1f}" x2="{x(day):.1f}" y1="{HEIGHT - BOTTOM}" '
            f'y2="{HEIGHT - BOTTOM + 4}"/>'
        )
        out.append(
            f'<text class="axis" x="{x(day):.1f}" y="{HEIGHT - BOTTOM + 16}" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
    out.append(
        f'<line class="axis-line" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>'
    )
    out.append(
        f'<line class="axis-line" x1="{LEFT}" x2="{width - RIGHT}" y1="{HEIGHT - BOTTOM}" '
        f'y2="{HEIGHT - BOTTOM}"/>'
    )
    out.extend(_segments(series, x, y))
    out.append("</svg>")
    return "\n".join(out)


def _segments(
    series: Sequence[ChartPoint], fx: Callable[[dt.date], float], fy: Callable[[float], float]
) -> list[str]:
    """Two paths: dashed while provisional, solid once established."""
    provisional: list[tuple[ChartPoint, ChartPoint]] = []
    established: list[tuple[ChartPoint, ChartPoint]] = []
    for before, after in zip(series, series[1:]):
        (provisional if before.provisional else established).append((before, after))
    out = []
    for cls, pairs in (("line provisional-line", provisional), ("line", established)):
        if pairs:
            path = " ".join(
                f"M{fx(a.date):.1f},{fy(a.rating):.1f} L{fx(b.date):.1f},{fy(b.rating):.1f}"
                for a, b in pairs
            )
            out.append(f'<path class="{cls}" d="{path}"/>')
    dots = "".join(
        f'<circle class="dot{" provisional-dot" if p.provisional else ""}" cx="{fx(p.date):.1f}" '
        f'cy="{fy(p.rating):.1f}" r="2.5"/>'
        for p in series
    )
    out.append(f"<g>{dots}</g>")
    return out


def _describe(series: Sequence[ChartPoint]) -> str:
    first, last = series[0], series[-1]
    low = min(series, key=lambda p: p.rating)
    high = max(series, key=lambda p: p.rating)
    return gettext(
        "Rating from %(first)s on %(first_day)s to %(last)s on %(last_day)s; lowest %(lowest)s, "
        "highest %(highest)s."
    ) % {
        "first": f"{first.rating:.0f}",
        "first_day": first.date.isoformat(),
        "last": f"{last.rating:.0f}",
        "last_day": last.date.isoformat(),
        "lowest": f"{low.rating:.0f}",
        "highest": f"{high.rating:.0f}",
    }
