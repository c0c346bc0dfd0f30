"""The CPI's factors in words a player reads, for the text of ``analyze`` and ``cpi``: one
row a factor of the registry (:data:`clubrating.cpi.registry.FACTORS`), its value as a
percentage or a count, and what it means; the JSON keeps the raw figures."""

from __future__ import annotations

from typing import Any

from clubrating.cpi.registry import BY_NAME, FACTORS, Kind

MEANS: dict[str, str] = {spec.name: spec.means for spec in FACTORS}   # the registry's words
DIRECTION = {1: "more is better", -1: "fewer is better", 0: "neither good nor bad by itself"}


def factor_value(name: str, factor: dict[str, Any]) -> str:
    """A factor of the JSON (``{"value", "numerator", "denominator", "available"}`` or
    ``{"count"}``) as a player reads it: "58 % (77 cp lost a move)", "4 of 5", "2"."""
    if BY_NAME[name].kind is Kind.COUNT:
        return str(factor["count"])
    if not factor.get("available"):
        return "not measured"
    percent = f"{100 * factor['value']:.0f} %"
    if name == "E":
        moves = factor["denominator"]
        return f"{percent} ({factor['numerator'] / moves:.0f} cp lost a move)" if moves else percent
    if name == "T":
        return percent
    return f"{percent} ({factor['numerator']:g} of {factor['denominator']:g})"


def factor_table(factors: dict[str, dict[str, Any]], indent: str = "    ") -> list[str]:
    """One line a factor: name, value, what it means and which way is better."""
    rows = [(spec.name, factor_value(spec.name, factors[spec.name]),
             f"{MEANS[spec.name]}; {DIRECTION[spec.sign]}") for spec in FACTORS if spec.name in factors]
    width = max((len(v) for _, v, _ in rows), default=0)
    return [f"{indent}{name:<3} {value:<{width}}  {means}" for name, value, means in rows]


def plays_like(strength: dict[str, Any] | None, games: str) -> str:
    """"plays like 1627 ± 210 over ...", or nothing without an Elo map (the spec's preset)."""
    if not strength:
        return ""
    return f"plays like {strength['elo']} ± {strength['sd']} {games}"


def depth_line(fitted: int | None, nodes: list[int]) -> str:
    """"the preset was fitted at 10,000 nodes a position; these games were analysed at 150,000":
    the engine's depth of the fit beside the analysis's, or nothing without both."""
    if fitted is None or not nodes:
        return ""
    analysed = ", ".join(f"{n:,}" for n in nodes)
    if nodes == [fitted]:
        return f"the preset was fitted at {fitted:,} nodes a position, as these games were analysed"
    line = f"the preset was fitted at {fitted:,} nodes a position; these games were analysed at {analysed}"
    if min(nodes) > fitted:
        return line + " (a deeper analysis finds fewer mistakes: the figure may read higher)"
    if max(nodes) < fitted:
        return line + " (a shallower analysis sees more mistakes: the figure may read lower)"
    return line
