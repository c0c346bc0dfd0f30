"""What a club archive may hold: the values the forms and the commands accept, nothing else.

An archive is a file that travels (a mail, a USB stick) and may have been edited on the way:
:func:`checked_value` checks each value of a row as the product's own entry points would
(a club's settings through :data:`~clubrating.club.services.club_settings.SETTINGS`, the short
name as ``init`` makes it, every choice against its registry, numbers within
:mod:`clubrating.formats.bounds` and the database's integers, texts within their lengths and
without control characters), and the keys of every line are those docs/archive.md defines.
A value refused is one :class:`InputError` naming the file, the line and the column.
"""

from __future__ import annotations

import enum
import math
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from clubrating.club.services import club_settings
from clubrating.cpi.facts import Color
from clubrating.errors import InputError, Text
from clubrating.formats import bounds
from clubrating.formats.records import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    ByeKind,
    TimeControl,
    TournamentKind,
    Unplayed,
)
from clubrating.tournament.roundrobin import PairingSystem
from clubrating.club.derived.ledger import parse_weight
from clubrating.cpi.index import PRESETS

MAX_LINE_CHARS = 4 * 1024 * 1024
"""The longest line an archive may have, in characters (docs/archive.md, "Limits"): the
longest clubrating writes is a game's analysis, some 370 characters a ply, so this holds a
game of 11,000 plies; moves are read up to 20,000 characters (MAX_MOVETEXT), some 4,000."""

HEADER_KEYS = frozenset({"format", "version", "club", "clubrating", "schema", "tables"})
ROW_KEYS = frozenset({"table", "pk", "fields"})
LOGIN_KEYS = frozenset({"table", "fields"})
LOGIN_FIELDS = frozenset({"username"})
END_KEYS = frozenset({"end"})
END_FIELDS = frozenset({"rows"})
MULTILINE = "\t\n\r"  # kept in long texts (moves, JSON): a PGN's lines and tabs


def _values(kind: type[enum.Enum]) -> frozenset[str]:
    return frozenset(str(member.value) for member in kind)


CHOICES: dict[tuple[str, str], frozenset[str]] = {
    ("club.tournament", "time_control"): _values(TimeControl),
    ("club.tournament", "kind"): _values(TournamentKind),
    ("club.game", "unplayed"): _values(Unplayed) | {""},
    ("club.bye", "kind"): _values(ByeKind),
    ("club.evening", "system"): _values(PairingSystem),
    ("club.ratingchange", "rating_list"): _values(TimeControl),
    ("club.currentrating", "rating_list"): _values(TimeControl),
    ("club.cpientry", "color"): _values(Color),
}
"""Text columns whose values are a registry's (the model has no ``choices`` for them)."""

RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("club.initialentry", "rating"): (bounds.MIN_RATING, bounds.MAX_RATING),
    ("club.initialentry", "games"): (0, bounds.MAX_GAMES),
    ("club.tournament", "rounds"): (0, MAX_ROUNDS),
    ("club.game", "round"): (1, MAX_ROUNDS),
    ("club.game", "board"): (1, MAX_PLAYERS),
    ("club.game", "white_points"): (0, 2),
    ("club.game", "black_points"): (0, 2),
    ("club.bye", "round"): (1, MAX_ROUNDS),
    ("club.bye", "points"): (0, 2),
    ("club.entry", "number"): (1, MAX_PLAYERS),
}
"""Numbers with a range of the product's own (formats/bounds.py, formats/records.py); every other
integer is held to the database's (Django's validators of the field)."""


def refuse_keys(
    path: str, line: int, document: Mapping[str, Any], allowed: frozenset[str], what: Text
) -> None:
    """A key the format does not define is refused, naming it: nothing is ignored silently."""
    unknown = sorted(set(document) - allowed)
    if unknown:
        raise InputError(
            gettext_noop(
                "%(what)s has no key %(keys)s in the archive format (docs/archive.md): "
                "expected %(allowed)s"
            ),
            file=path,
            line=line,
            what=what,
            keys=", ".join(repr(key[:40]) for key in unknown[:5]),
            allowed=", ".join(sorted(allowed)),
        )


def checked_value(
    path: str, line: int, label: str, field: models.Field[Any, Any], value: Any
) -> Any:
    """``value`` of the column ``field`` of ``label``'s row as the database will store it."""
    try:
        return _checked(label, field, value)
    except (ValidationError, ValueError, TypeError, OverflowError) as error:
        reason: object = (
            "; ".join(error.messages)
            if isinstance(error, ValidationError)
            else error.args[0]
            if error.args and isinstance(error.args[0], Text)
            else str(error)
        )
        raise InputError(
            gettext_noop("%(table)s.%(field)s: %(value)s is not valid (%(error)s)"),
            file=path,
            line=line,
            table=label,
            field=field.attname,
            value=_short(value),
            error=reason,
        ) from None


def _checked(label: str, field: models.Field[Any, Any], value: Any) -> Any:
    if value is None:
        if not field.null:
            raise ValueError(Text(gettext_noop("this column holds a value in every row")))
        return None
    _check_type(field, value)
    for text in _texts(value):
        allowed = MULTILINE if isinstance(field, (models.TextField, models.JSONField)) else ""
        if any(unicodedata.category(c) == "Cc" and c not in allowed for c in text):
            raise ValueError(Text(gettext_noop("a control character")))
    python = field.to_python(value)
    field.run_validators(python)
    if type(field) is models.DateField and python < bounds.EARLIEST_DATE:  # the writers' bound
        raise ValueError(
            Text(
                gettext_noop("%(date)s is before %(earliest)s: expected the date of a chess event"),
                date=python.isoformat(),
                earliest=bounds.EARLIEST_DATE.isoformat(),
            )
        )
    if field.choices and python not in {key for key, _ in field.flatchoices}:
        raise ValueError(
            Text(
                gettext_noop("expected one of %(values)s"),
                values=", ".join(repr(key) for key, _ in field.flatchoices),
            )
        )
    if (choices := CHOICES.get((label, field.attname))) is not None and python not in choices:
        raise ValueError(
            Text(
                gettext_noop("expected one of %(values)s"),
                values=", ".join(map(repr, sorted(choices))),
            )
        )
    if (limits := RANGES.get((label, field.attname))) is not None and not limits[
        0
    ] <= python <= limits[1]:
        raise ValueError(
            Text(
                gettext_noop("expected a number from %(low)s to %(high)s"),
                low=f"{limits[0]:g}",
                high=f"{limits[1]:g}",
            )
        )
    return python


def _check_type(field: models.Field[Any, Any], value: Any) -> None:
    """JSON's type of the column as export-club writes it: true is no number, 20.0 no count."""
    if isinstance(field, models.BooleanField):
        expected: tuple[type, ...] = (bool,)
    elif isinstance(field, (models.IntegerField, models.AutoField)):
        expected = (int,)
    elif isinstance(field, models.FloatField):
        expected = (int, float)
    elif isinstance(field, models.JSONField):
        return
    else:  # texts, dates and times (ISO 8601)
        expected = (str,)
    if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
        raise ValueError(
            Text(
                gettext_noop("expected %(expected)s, found %(found)s"),
                expected=Text(JSON_TYPES[expected[-1]]),
                found=Text(JSON_TYPES[type(value)]),
            )
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(Text(gettext_noop("expected a finite number")))


JSON_TYPES = {
    bool: gettext_noop("true or false"),
    int: gettext_noop("a whole number"),
    float: gettext_noop("a number"),
    str: gettext_noop("a string"),
    list: gettext_noop("a list"),
    dict: gettext_noop("an object"),
}
"""JSON's names of the types its reader gives (a column of floats takes a whole number too)."""

HEADER = Text(gettext_noop("the header"))
ROW = Text(gettext_noop("a row"))
LOGIN = Text(gettext_noop("an arbiter's login"))
END = Text(gettext_noop("the end line"))


def _texts(value: Any) -> Iterable[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def club_settings_of(path: str, line: int, values: dict[str, Any]) -> None:
    """The club's settings (``values``, checked by :func:`checked_value` already) read as
    ``clubrating settings`` reads them (a time zone of the zone database, the choices, the
    ranges), and its short name as ``init`` makes one."""
    for setting in club_settings.SETTINGS:
        if setting.field in values and setting.field != "slug":  # the slug as stored: below
            try:
                values[setting.field] = setting.read(str(values[setting.field]))
            except InputError as error:
                raise InputError(
                    gettext_noop("club.club.%(field)s: %(error)s"),
                    file=path,
                    line=line,
                    field=setting.field,
                    error=error,
                ) from None
    if "cpi_weights" in values:
        _cpi_weights(path, line, values["cpi_weights"])
    slug = values.get("slug")
    if not isinstance(slug, str) or not slug or slugify(slug) != slug:
        raise InputError(
            gettext_noop(
                "club.club.slug: %(value)s is not a short name: expected lowercase letters, "
                "digits, '-' and '_', as clubrating init makes them"
            ),
            file=path,
            line=line,
            value=_short(slug),
        )


def _cpi_weights(path: str, line: int, weights: Any) -> None:
    """The club's CPI weights as ``clubrating cpi-weights`` takes them: a preset's name, and
    weights each a finite number (a weight the pages could not read made every CPI page fail)."""

    try:
        if not isinstance(weights, dict):
            raise InputError(gettext_noop("expected an object of weights"))
        for name, value in weights.items():
            if name == "preset":
                if value not in PRESETS:
                    raise InputError(
                        gettext_noop("unknown CPI preset %(preset)s: expected one of %(value)s"),
                        preset=_short(value),
                        value=", ".join(PRESETS),
                    )
            elif name == "start" or isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InputError(
                    gettext_noop("%(name)s: %(value)s is not a number"),
                    name=name[:40],
                    value=_short(value),
                )
            elif (
                parse_weight(f"{name}={value!r}")[0] != name
            ):  # "b1" is B1 to the command, not in the file
                raise InputError(
                    gettext_noop("%(name)s: %(value)s is not a number"),
                    name=name[:40],
                    value=_short(value),
                )
    except InputError as error:
        raise InputError(
            gettext_noop("club.club.%(field)s: %(error)s"),
            file=path,
            line=line,
            field="cpi_weights",
            error=error,
        ) from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
