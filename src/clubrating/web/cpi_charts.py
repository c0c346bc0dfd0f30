"""The CPI dashboard's charts: inline SVG drawn on the server, readable without JavaScript
(each with a <title> and a <desc> saying in words what it shows). Pure: numbers in, SVG out, its
words in the active language (Django's translation, as the page's).

- :func:`cpi_line` — the CPI after each analysed game, from the first (x: the game's number,
  so several games on one evening do not pile up; each day's date once), its interval as a band;
- :func:`factor_bars` — each factor's average as a bar 0-100 %, the club's average as a tick;
  an unavailable factor is written "not available", never drawn as 0 %;
- :func:`delta_bars` — the ΔCPI of the latest games around a zero line.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from html import escape
from typing import Any

from django.utils import dateformat
from django.utils.translation import gettext, ngettext

from clubrating.cpi.registry import COUNTS, SHARES
from clubrating.web.chart import nice_step
from clubrating.web.reading import figure

WIDTH = 640
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 14, 30  # as web/chart.py: room for the axis labels


def _open(height: int, title: str, desc: str, cls: str) -> list[str]:
    """The <svg> head; ids from the chart's class (each chart appears once on the dashboard)."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="chart {cls}" role="img" aria-labelledby="{cls}-title {cls}-desc">',
        f'<title id="{cls}-title">{escape(title)}</title>',
        f'<desc id="{cls}-desc">{escape(desc)}</desc>',
    ]


CpiPoint = tuple[
    dt.date, float, float | None
]  # the game's date, the CPI after it, its standard deviation
CPI_LEFT, CPI_BOTTOM = 62, 38  # room for "1600" and the dates at a phone's font size
PHONE_FONT = 21  # the dashboard's chart text on a phone, in SVG units (its <style>)


def _text_width(text: str) -> float:
    """About how wide a label is at the phone's font size (system-ui: ~0.6 em a character)."""
    return 0.6 * PHONE_FONT * len(text)


def day_labels(dates: Sequence[dt.date], x: Any) -> list[tuple[float, str]]:
    """One label per day at the day's first game, the year on the first and at a new year;
    a label that would touch the one before it is left out (many games, few pixels)."""
    labels: list[tuple[float, str]] = []
    last_right, year = -math.inf, None
    for i, day in enumerate(dates):
        if i and day == dates[i - 1]:
            continue
        text = dateformat.format(day, "j M") + (
            f" {day.year}" if day.year != year else ""
        )  # "12 Nov", the month in the language
        half = _text_width(text) / 2
        if x(i) - half < last_right + 8:
            continue
        labels.append((x(i), text))
        last_right, year = x(i) + half, day.year
    return labels


def cpi_line(points: Sequence[CpiPoint], *, title: str, measure: str = "CPI") -> str:
    """The CPI after each analysed game, from the first (x: the game's number, so that several
    games on one evening stand apart; the date once per day), the interval of one standard
    deviation drawn as a band where the settings give one; empty without a game."""
    if not points:
        return ""
    height = 250
    values = [value for _, value, _ in points]
    bands = [(value - sd, value + sd) for _, value, sd in points if sd is not None]
    low = min(values + [lo for lo, _ in bands])
    high = max(values + [hi for _, hi in bands])
    step = nice_step(max(high - low, 1.0))
    y_min, y_max = math.floor(low / step) * step, math.ceil(high / step) * step
    y_max += step if y_max == y_min else 0
    n = len(points)

    def x(i: int) -> float:  # i = 0 for the first game: slots, so one game sits in the middle
        return CPI_LEFT + (WIDTH - CPI_LEFT - RIGHT) * (i + 0.5) / n

    def y(value: float) -> float:
        return TOP + (height - TOP - CPI_BOTTOM) * (y_max - value) / (y_max - y_min)

    band_words = " " + gettext("The band is one standard deviation either side.") if bands else ""
    described = ngettext(
        "%(measure)s after each of %(n)s analysed game: %(first)s "
        "after the first (%(first_day)s), %(last)s after the last "
        "(%(last_day)s); lowest %(lowest)s, highest %(highest)s.",
        "%(measure)s after each of %(n)s analysed games: %(first)s "
        "after the first (%(first_day)s), %(last)s after the last "
        "(%(last_day)s); lowest %(lowest)s, highest %(highest)s.",
        n,
    ) % {
        "measure": measure,
        "n": n,
        "first": f"{values[0]:.0f}",
        "first_day": points[0][0].isoformat(),
        "last": f"{values[-1]:.0f}",
        "last_day": points[-1][0].isoformat(),
        "lowest": f"{min(values):.0f}",
        "highest": f"{max(values):.0f}",
    }
    out = _open(height, title, described + band_words, "cpi-line")
    for value in range(int(y_min), int(y_max) + 1, step):
        out.append(
            f'<line class="grid" x1="{CPI_LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" '
            f'y2="{y(value):.1f}"/>'
        )
        out.append(
            f'<text class="axis" x="{CPI_LEFT - 6}" '
            f'y="{y(value) + 5:.1f}" text-anchor="end">{value}</text>'
        )
    if len(bands) == n:
        upper = [
            f"{x(i):.1f},{y(value + sd):.1f}"
            for i, (_, value, sd) in enumerate(points)
            if sd is not None
        ]
        lower = [
            f"{x(i):.1f},{y(value - sd):.1f}"
            for i, (_, value, sd) in enumerate(points)
            if sd is not None
        ]
        out.append(f'<polygon class="band" points="{" ".join(upper + lower[::-1])}"/>')
    bottom = height - CPI_BOTTOM
    for i in range(n):
        out.append(
            f'<line class="tick" x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{bottom}" y2="{bottom + 4}"/>'
        )
    for at, text in day_labels([day for day, _, _ in points], x):
        out.append(
            f'<text class="axis" x="{at:.1f}" y="{bottom + 24}" '
            f'text-anchor="middle">{escape(text)}</text>'
        )
    out.append(
        f'<line class="axis-line" x1="{CPI_LEFT}" x2="{CPI_LEFT}" y1="{TOP}" y2="{bottom}"/>'
    )
    out.append(
        f'<line class="axis-line" x1="{CPI_LEFT}" '
        f'x2="{WIDTH - RIGHT}" y1="{bottom}" y2="{bottom}"/>'
    )
    path = " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    out.append(f'<path class="line" d="{path}"/>')
    out.append(
        "<g>"
        + "".join(
            f'<circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3">'
            f"<title>{escape(_game_point(i + 1, points[i][0].isoformat(), v))}</title></circle>"
            for i, v in enumerate(values)
        )
        + "</g>"
    )
    out.append("</svg>")
    return "\n".join(out)


def club_average(share: float) -> str:
    """The club's mark on a factor's bar, as its title says it."""
    return gettext("club average %(average)s") % {"average": f"{share:.0%}"}


def _game_point(number: int, day: str, value: float) -> str:
    return gettext("game %(number)s, %(day)s: %(value)s") % {
        "number": number,
        "day": day,
        "value": f"{value:.0f}",
    }


SHARE_ORDER = SHARES
ROW, LABEL_W = 24, 150
# The factor's label column fits its longest label at the desktop's 11-unit text (about 0.62 em a
# character in system-ui, Armenian letters the widest), leaving the bars at least MIN_PLOT units.
LABEL_EM, DESKTOP_FONT, MIN_PLOT = 0.62, 11, 200


def _percent(value: float | None) -> str:
    return gettext("not available") if value is None else f"{value:.0%}"


def factor_bars(averages: dict[str, dict[str, Any]], *, title: str) -> str:
    """One row per share factor (bar = the player's average, tick = the club's), then H and Br
    per game in words. ``averages[name]`` has ``average``, ``club_average``, ``label``."""
    rows = [*SHARE_ORDER, *COUNTS]
    height = TOP + ROW * len(rows) + 8
    labels = {n: f"{n} {_short(gettext(averages[n]['label']))}" for n in rows}
    wanted = math.ceil(LABEL_EM * DESKTOP_FONT * max(len(t) for t in labels.values()))
    x0 = 8 + min(max(LABEL_W, wanted), WIDTH - 8 - 90 - MIN_PLOT)
    plot = WIDTH - x0 - 90
    words = "; ".join(f"{n} {_percent(averages[n]['average'])}" for n in SHARE_ORDER)
    out = _open(
        height,
        title,
        gettext("Average per factor over the analysed games: %(factors)s.") % {"factors": words},
        "factor-bars",
    )
    for i, name in enumerate(rows):
        figures, top = averages[name], TOP + ROW * i
        out.append(
            f'<text class="axis" x="{x0 - 8}" y="{top + 15}" '
            f'text-anchor="end">{escape(name)}<tspan class="long"> '
            f"{escape(_short(gettext(figures['label'])))}</tspan></text>"
        )
        value, club = figures["average"], figures.get("club_average")
        if name in COUNTS:
            per_game = (
                gettext("not available")
                if value is None
                else gettext("%(count)s a game") % {"count": figure(value, ".2f")}
            )
            club_text = (
                ""
                if club is None
                else " " + gettext("(club %(average)s)") % {"average": figure(club, ".2f")}
            )
            out.append(f'<text class="axis" x="{x0}" y="{top + 15}">{per_game}{club_text}</text>')
            continue
        out.append(f'<rect class="track" x="{x0}" y="{top + 4}" width="{plot}" height="14"/>')
        if value is None:
            not_available = gettext("not available")  # named first: xgettext skips f-strings
            out.append(f'<text class="axis na" x="{x0 + 6}" y="{top + 15}">{not_available}</text>')
        else:
            out.append(
                f'<rect class="bar" x="{x0}" y="{top + 4}" width="{plot * value:.1f}" height="14">'
                f"<title>{escape(name)}: {value:.0%}</title></rect>"
            )
            out.append(f'<text class="axis" x="{x0 + plot + 6}" y="{top + 15}">{value:.0%}</text>')
        if club is not None:
            cx = x0 + plot * club
            out.append(
                f'<line class="club-tick" x1="{cx:.1f}" x2="{cx:.1f}" '
                f'y1="{top + 1}" y2="{top + 21}">'
                f"<title>{escape(club_average(club))}</title></line>"
            )
    out.append("</svg>")
    return "\n".join(out)


def _short(label: str) -> str:
    """ "eval loss (average centipawn loss)" -> "eval loss"."""
    return label.split(" (")[0]


def delta_bars(games: Sequence[tuple[str, float]], *, title: str) -> str:
    """A bar per game (oldest first), up for a positive ΔCPI, down for a negative one."""
    if not games:
        return ""
    height = 200
    high = max(1.0, *(abs(d) for _, d in games))
    step = nice_step(high, ticks=2)
    bound = math.ceil(high / step) * step
    mid = TOP + (height - TOP - BOTTOM) / 2
    scale = (height - TOP - BOTTOM) / 2 / bound
    slot = (WIDTH - CPI_LEFT - RIGHT) / len(games)
    words = ", ".join(figure(d, "+.1f") for _, d in games)
    out = _open(
        height,
        title,
        ngettext(
            "ΔCPI of the last %(n)s analysed game, oldest first: %(deltas)s.",
            "ΔCPI of the last %(n)s analysed games, oldest first: %(deltas)s.",
            len(games),
        )
        % {"n": len(games), "deltas": words},
        "delta-bars",
    )
    for value in (-bound, 0, bound):
        yv = mid - value * scale
        out.append(
            f'<line class="grid" x1="{CPI_LEFT}" x2="{WIDTH - RIGHT}" y1="{yv:.1f}" y2="{yv:.1f}"/>'
        )
        out.append(
            f'<text class="axis" x="{CPI_LEFT - 6}" '
            f'y="{yv + 4:.1f}" text-anchor="end">{value:+d}</text>'.replace(">+0<", ">0<")
        )
    for i, (label, delta) in enumerate(games):
        left, size = CPI_LEFT + slot * i + slot * 0.15, abs(delta) * scale
        top = mid - size if delta >= 0 else mid
        cls = "pos-bar" if delta >= 0 else "neg-bar"
        out.append(
            f'<rect class="{cls}" x="{left:.1f}" y="{top:.1f}" width="{slot * 0.7:.1f}" '
            f'height="{max(size, 0.5):.1f}">'
            f"<title>{escape(label)}: {figure(delta, '+.1f')}</title></rect>"
        )
    out.append(
        f'<line class="axis-line" x1="{CPI_LEFT}" '
        f'x2="{WIDTH - RIGHT}" y1="{mid:.1f}" y2="{mid:.1f}"/>'
    )
    out.append("</svg>")
    return "\n".join(out)
