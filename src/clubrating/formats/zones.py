"""A club's time zone: which calendar day it is and how stored times are shown.

Stored times stay UTC (Django's ``USE_TZ``); a club names an IANA zone
(``Asia/Yerevan``) for its evening's default date, the audit log and every
date and time it shows. An empty setting means the server's own zone.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import zoneinfo

from clubrating.errors import InputError
from clubrating.words import N_

ZONEINFO_DIR = "/usr/share/zoneinfo/"  # where /etc/localtime points on Debian (tzdata)
MAX_ZONE_NAME = 64  # Club.time_zone's max_length; the longest IANA name has 32


@functools.cache
def zone_names() -> frozenset[str]:
    """The zone database's names (``zoneinfo.available_timezones()``), without ``localtime``, a
    link to whatever the server's zone is. A name is checked against this list, never by opening
    a file: ``America`` or ``Etc`` is a directory of the zone database, and ``ZoneInfo`` of it
    fails with ``IsADirectoryError``, of a 300-character name with ``OSError``."""
    return frozenset(zoneinfo.available_timezones() - {"localtime"})


def is_zone(name: str) -> bool:
    return len(name) <= MAX_ZONE_NAME and name in zone_names()


def parse_zone(name: str) -> str:
    """The zone's IANA name, or "" for the server's zone; a name not in the zone database is one
    line."""
    name = name.strip()
    if name in ("", "server"):
        return ""
    if not is_zone(name):
        raise InputError(
            N_("unknown time zone %(name)s: expected an IANA name such as Asia/Yerevan or UTC"),
            name=repr(name[:MAX_ZONE_NAME]),
        ) from None
    return name


def server_zone_name() -> str:
    """The server's zone: $TZ if zoneinfo knows it, else where /etc/localtime points, else UTC."""
    for candidate in (os.environ.get("TZ", "").removeprefix(":"), _localtime_name()):
        if candidate and is_zone(candidate):
            return candidate
    return "UTC"


def _localtime_name() -> str:
    try:
        target = os.path.realpath("/etc/localtime")
    except OSError:
        return ""
    return target.split(ZONEINFO_DIR, 1)[1] if ZONEINFO_DIR in target else ""


def zone_name(setting: str) -> str:
    """The zone a club's setting means (its own, or the server's; a stored name the zone database
    no longer has, the server's too, so that no page fails on it)."""
    return setting if setting and is_zone(setting) else server_zone_name()


def zone(setting: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(zone_name(setting))


def today(setting: str, now: dt.datetime | None = None) -> dt.date:
    """The calendar day it is now in the club's zone."""
    return (now or dt.datetime.now(dt.timezone.utc)).astimezone(zone(setting)).date()


def local_text(moment: dt.datetime, setting: str) -> str:
    """A stored (UTC) moment as the club reads it: ``2026-12-01 23:05:09 +04``."""
    local = moment.astimezone(zone(setting))
    offset = local.strftime("%z")
    short = offset[:3] if offset.endswith("00") else f"{offset[:3]}:{offset[3:]}"
    return f"{local:%Y-%m-%d %H:%M:%S} {short}"
