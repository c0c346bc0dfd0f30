"""The CPI's factors in words a player reads, for the text of ``analyze`` and ``cpi``: one
row a factor of the registry (:data:`clubrating.cpi.registry.FACTORS`), its value as a
percentage or a count, and what it means, in the command's language; the JSON keeps the raw
figures, in English."""

from __future__ import annotations

from typing import Any

from clubrating.cpi.registry import BY_NAME, FACTORS, Kind
from clubrating.djangoenv import gettext, ngettext
from clubrating.words import N_, display_width, fit

MEANS: dict[str, str] = {spec.name: spec.means for spec in FACTORS}  # the registry's words (N_)
DIRECTION = {
    1: N_("more is better"),
    -1: N_("fewer is better"),
    0: N_("neither good nor bad by itself"),
}


def factor_value(name: str, factor: dict[str, Any]) -> str:
    """A factor of the JSON (``{"value", "numerator", "denominator", "available"}`` or
    ``{"count"}``) as a player reads it: "58 % (77 cp lost a move)", "80 % (4 of 5)", "2"."""
    if BY_NAME[name].kind is Kind.COUNT:
        return str(factor["count"])
    if not factor.get("available"):
        return gettext("not measured")
    percent = gettext("%(percent)s %%") % {"percent": f"{100 * factor['value']:.0f}"}
    if name == "E":
        moves = factor["denominator"]
        return (
            gettext("%(percent)s (%(loss)s cp lost a move)")
            % {"percent": percent, "loss": f"{factor['numerator'] / moves:.0f}"}
            if moves
            else percent
        )
    if name == "T":
        return percent
    return gettext("%(percent)s (%(found)s of %(all)s)") % {
        "percent": percent,
        "found": f"{factor['numerator']:g}",
        "all": f"{factor['denominator']:g}",
    }


def factor_table(factors: dict[str, dict[str, Any]], indent: str = "    ") -> list[str]:
    """One line a factor: name, value, what it means and which way is better; the values
    padded to the widest as a terminal shows it."""
    rows = [
        (
            spec.name,
            factor_value(spec.name, factors[spec.name]),
            gettext("%(means)s; %(direction)s")
            % {"means": gettext(MEANS[spec.name]), "direction": gettext(DIRECTION[spec.sign])},
        )
        for spec in FACTORS
        if spec.name in factors
    ]
    width = max((display_width(v) for _, v, _ in rows), default=0)
    return [f"{indent}{name:<3} {fit(value, width)}  {means}" for name, value, means in rows]


def plays_like(strength: dict[str, Any] | None, games: int | None = None) -> str:
    """ "plays like 1627 ± 210 over the last 5 analysed games" (``games`` of them), "... (this
    game alone)" without ``games``; nothing without an Elo map (the spec's preset)."""
    if not strength:
        return ""
    figures = {"elo": strength["elo"], "sd": strength["sd"], "count": games}
    if games is None:
        return gettext("plays like %(elo)s ± %(sd)s (this game alone)") % figures
    return (
        ngettext(
            "plays like %(elo)s ± %(sd)s over the last %(count)s analysed game",
            "plays like %(elo)s ± %(sd)s over the last %(count)s analysed games",
            games,
        )
        % figures
    )


def depth_line(fitted: int | None, nodes: list[int]) -> str:
    """ "the preset was fitted at 10,000 nodes a position; these games were analysed at 150,000":
    the engine's depth of the fit beside the analysis's, or nothing without both."""
    if fitted is None or not nodes:
        return ""
    figures = {"fitted": f"{fitted:,}", "analysed": ", ".join(f"{n:,}" for n in nodes)}
    if nodes == [fitted]:
        return (
            gettext(
                "the preset was fitted at %(fitted)s nodes a position, as these games were analysed"
            )
            % figures
        )
    if min(nodes) > fitted:
        return (
            gettext(
                "the preset was fitted at %(fitted)s nodes a position; "
                "these games were analysed at %(analysed)s (a deeper "
                "analysis finds fewer mistakes: the figure may read higher)"
            )
            % figures
        )
    if max(nodes) < fitted:
        return (
            gettext(
                "the preset was fitted at %(fitted)s nodes a position; "
                "these games were analysed at %(analysed)s (a shallower "
                "analysis sees more mistakes: the figure may read lower)"
            )
            % figures
        )
    return (
        gettext(
            "the preset was fitted at %(fitted)s nodes a position; these games were analysed at "
            "%(analysed)s"
        )
        % figures
    )
