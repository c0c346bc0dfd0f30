"""The club's settings: its rating rules (spec R3, R4, R6) as the arbiter changes them.

Each setting is one :class:`Setting` of :data:`SETTINGS` (the one list the CLI,
the web page and the docs read). A change of the rating rules replays the whole
history under the new numbers, in the change's own transaction, and leaves one
audit entry with the old and the new values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.formats import zones
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club
from clubrating.club.services.clubs import slug_for
from clubrating.club.services.outcome import Outcome
from clubrating.errors import InputError, Refused, Text
from clubrating.formats import bounds
from clubrating.words import N_


def _number(low: float, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not low <= value <= high:
            raise InputError(
                gettext_noop("expected a number from %(low)s to %(high)s"),
                low=f"{low:g}",
                high=f"{high:g}",
            )
        return value

    return parse


def _whole(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = bounds.whole_number(text, high)
        if value is None or value < low:
            raise InputError(
                gettext_noop("expected a whole number from %(low)s to %(high)s"), low=low, high=high
            )
        return value

    return parse


def _policy(text: str) -> str:
    if text not in ("club", "fide"):
        raise InputError(gettext_noop("expected 'club' or 'fide'"))
    return text


def _language(text: str) -> str:
    codes = [code for code, _ in settings.LANGUAGES]
    if text not in codes:
        raise InputError(gettext_noop("expected one of %(codes)s"), codes=", ".join(codes))
    return text


def _slug(text: str) -> str:
    slug = slug_for(text)
    if not slug:
        raise InputError(
            gettext_noop("expected letters or digits of any script: the club's address word")
        )
    return slug


def _zone(text: str) -> str:
    try:
        return zones.parse_zone(text)
    except InputError:
        raise InputError(
            gettext_noop(
                "expected an IANA time zone such as Asia/Yerevan or UTC, "
                "or nothing for the server's"
            )
        ) from None


@dataclass(frozen=True)
class Setting:
    """One setting: its name on the command line and the page, the Club field, how it is read."""

    key: str  # "start-rating"
    field: str  # Club.start_rating
    parse: Callable[[str], Any]  # text -> value, a ValueError (InputError) saying what was expected
    help: str
    replays: bool = True  # a change replays the history (the rating rules do)

    def read(self, text: str) -> Any:
        try:
            return self.parse(text.strip())
        except ValueError as error:
            raise InputError(
                gettext_noop("%(key)s %(text)s: %(error)s"),
                key=self.key,
                text=repr(text),
                error=error,
            ) from None


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "policy",
        "policy",
        _policy,
        N_("rating rules: club (the numbers below) or fide (FIDE's own)"),
    ),
    Setting(
        "start-rating",
        "start_rating",
        _number(bounds.MIN_START_RATING, bounds.MAX_START_RATING),
        N_("rating of a new player (R3)"),
    ),
    Setting(
        "k-new",
        "k_new",
        _number(bounds.MIN_K, bounds.MAX_K),
        N_("K of a player's first k-new-games rated games (R4)"),
    ),
    Setting(
        "k-new-games",
        "k_new_games",
        _whole(0, bounds.MAX_SETTING_GAMES),
        N_("rated games played with k-new (R4)"),
    ),
    Setting(
        "k-established",
        "k_established",
        _number(bounds.MIN_K, bounds.MAX_K),
        N_("K afterwards (R4)"),
    ),
    Setting(
        "provisional-games",
        "provisional_games",
        _whole(0, bounds.MAX_SETTING_GAMES),
        N_("provisional while fewer rated games than this (R6)"),
    ),
    Setting(
        "time-zone",
        "time_zone",
        _zone,
        N_(
            "the club's dates and times, e.g. Asia/Yerevan (empty: the "
            "server's zone); stored times stay UTC"
        ),
        replays=False,
    ),
    Setting(
        "inactive-months",
        "inactive_months",
        _whole(0, bounds.MAX_MONTHS),
        N_(
            "members without a rated game in this many months before the list's "
            "latest one are listed apart as inactive, keeping their rating (0: never)"
        ),
        replays=False,
    ),
    Setting(
        "moves-link-days",
        "moves_link_days",
        _whole(1, bounds.MAX_LINK_DAYS),
        N_(
            "a board's moves link (the QR code of its "
            "slip) works this many days after it is printed"
        ),
        replays=False,
    ),
    Setting(
        "list-day",
        "list_day",
        _whole(1, bounds.MAX_LIST_DAY),
        N_(
            "the day of the month (1 to 28) whose start a month's list stands at: it holds "
            "the games before that day; the lists published already keep their day"
        ),
        replays=False,
    ),
    Setting(
        "language",
        "language",
        _language,
        N_(
            "the language of the club's pages (en: English, hy: Armenian, "
            "ru: Russian) for a visitor who chose none and whose browser asks "
            "for none of them"
        ),
        replays=False,
    ),
    Setting(
        "slug",
        "slug",
        _slug,
        N_(
            "the club's address word, /c/WORD/, in Latin letters (other scripts are "
            "transliterated); the old address goes on leading to the new one"
        ),
        replays=False,
    ),
)

BY_KEY = {s.key: s for s in SETTINGS}


def setting_named(key: str) -> Setting:
    found = BY_KEY.get(key.strip().lower().replace("_", "-"))
    if found is None:
        raise InputError(
            gettext_noop("unknown setting %(key)s: expected one of %(value)s"),
            key=repr(key),
            value=", ".join(BY_KEY),
        )
    return found


def current_settings(club: Club) -> dict[str, Any]:
    """Every setting's value, by key, in the order of :data:`SETTINGS`."""
    return {s.key: getattr(club, s.field) for s in SETTINGS}


def parse_settings(texts: Mapping[str, str]) -> dict[Setting, Any]:
    """``{"k-new": "30"}`` -> the settings and their values; a bad one is one InputError."""
    return {setting_named(key): setting_named(key).read(text) for key, text in texts.items()}


def change_settings(club: Club, changes: Mapping[Setting, Any], *, who: str) -> Outcome:
    """Set the club's settings; if a rating rule changed, replay the whole history."""
    from clubrating.club.derived.rebuild import (
        rebuild_derived,
    )  # the replay (numpy) for a change: not when settings are shown

    if not changes:
        raise InputError(gettext_noop("nothing to change: give KEY=VALUE, e.g. k-new=30"))
    with history_write(club) as club:
        old = {s.key: getattr(club, s.field) for s in changes}
        new = {s.key: value for s, value in changes.items()}
        changed = [s for s in changes if old[s.key] != new[s.key]]
        if not changed:
            raise Refused(gettext_noop("the settings are those already: nothing changed"))
        if "slug" in new and Club.objects.filter(slug=new["slug"]).exclude(pk=club.pk).exists():
            raise Refused(
                gettext_noop("a club with the short name %(slug)s exists already"),
                slug=repr(new["slug"]),
            )
        if (
            club.policy == "fide"
            and "policy" not in new
            and any(s.key != "policy" and s.replays for s in changed)
        ):
            raise Refused(
                gettext_noop(
                    "the club rates by FIDE's rules, which fix "
                    "these numbers: set policy=club with them"
                )
            )
        for setting in changed:
            setattr(club, setting.field, changes[setting])
        club.save(update_fields=[s.field for s in changed])
        replays = any(s.replays for s in changed)
        report = (
            rebuild_derived(club, reason=Text(gettext_noop("settings changed")))
            if replays
            else None
        )
        audit.record(
            club,
            who,
            "settings",
            club.slug,
            old={s.key: old[s.key] for s in changed},
            new={s.key: new[s.key] for s in changed},
            summary=report.text if report else "",
        )
    shown = ", ".join(f"{s.key} {_shown(old[s.key])} -> {_shown(new[s.key])}" for s in changed)
    return Outcome(Text(gettext_noop("%(name)s: %(shown)s"), name=club.name, shown=shown), report)


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
