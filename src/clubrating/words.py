"""Counts in English sentences: "1 tournament", "2 tournaments" (every message that prints a count)."""

from __future__ import annotations

IRREGULAR = {"entry": "entries", "person": "people"}


def plural(count: int, singular: str, many: str | None = None) -> str:
    """``count`` and the noun that agrees with it: ``plural(1, "name")`` -> "1 name",
    ``plural(2, "rating change")`` -> "2 rating changes" (the last word takes the s)."""
    if count == 1:
        return f"{count} {singular}"
    if many is None:
        head, space, last = singular.rpartition(" ")
        many = head + space + IRREGULAR.get(last, last + "s")
    return f"{count} {many}"
