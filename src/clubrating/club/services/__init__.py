"""Every write to a club's history: import, link, publish, correct, delete, merge.

Each service runs in one transaction together with the rebuild it causes
(spec R13, :func:`clubrating.club.derived.rebuild.rebuild_derived`) and leaves an audit entry
(who, when, old -> new). Views and commands call these; they never write
through the ORM themselves.

Every write to a club's history holds the club's lock
(:func:`clubrating.club.store.locking.history_write`) and reads again, under the
lock, what it checks: two arbiters (or an arbiter and a command) writing at
once wait for each other, and the second one's checks see the first's change.

Split by subject: :mod:`.clubs`, :mod:`.tournaments`, :mod:`.names`,
:mod:`.members`, :mod:`.history`. Every name stays importable from here, with
the lookups the callers use beside them (:mod:`clubrating.club.read`).
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubrating.club.read.clubs import MAX_ID, find_club, parse_id
    from clubrating.club.read.tournaments import game_result_text, get_tournament
    from clubrating.club.read.members import get_member
    from clubrating.club.store.locking import reread
    from clubrating.club.derived.ratings import RebuildReport
    from clubrating.club.services.clubs import create_club, set_privacy
    from clubrating.club.services.history import check_history
    from clubrating.club.services.members import (
        come_back,
        leave,
        mark_distinct,
        merge,
        rename_member,
        set_member_flags,
        unmerge,
    )
    from clubrating.club.services.names import (
        accept_exact,
        all_new_members,
        exact_candidates,
        link,
        new_member,
        unlink,
    )
    from clubrating.club.services.outcome import Outcome
    from clubrating.club.services.tournaments import (
        SameTournament,
        change_date,
        correct_result,
        delete_tournament,
        find_game,
        import_tournament,
        parse_result,
        publish,
        unpublish,
    )
    from clubrating.formats.results import GameResult

# Each name's module, imported on first use (PEP 562): a command that only reads (``ratings``,
# ``player``) finds its club here without importing every service and the rebuild's numpy.
HOMES: dict[str, str] = {
    name: module
    for module, names in (
        (
            "clubrating.club.read.clubs",
            (
                "MAX_ID",
                "find_club",
                "parse_id",
            ),
        ),
        (
            "clubrating.club.read.tournaments",
            (
                "game_result_text",
                "get_tournament",
            ),
        ),
        ("clubrating.club.read.members", ("get_member",)),
        ("clubrating.club.store.locking", ("reread",)),
        ("clubrating.club.derived.ratings", ("RebuildReport",)),
        ("clubrating.club.services.clubs", ("create_club", "set_privacy")),
        ("clubrating.club.services.history", ("check_history",)),
        (
            "clubrating.club.services.members",
            (
                "come_back",
                "leave",
                "mark_distinct",
                "merge",
                "rename_member",
                "set_member_flags",
                "unmerge",
            ),
        ),
        (
            "clubrating.club.services.names",
            ("accept_exact", "all_new_members", "exact_candidates", "link", "new_member", "unlink"),
        ),
        ("clubrating.club.services.outcome", ("Outcome",)),
        (
            "clubrating.club.services.tournaments",
            (
                "SameTournament",
                "change_date",
                "correct_result",
                "delete_tournament",
                "find_game",
                "import_tournament",
                "parse_result",
                "publish",
                "unpublish",
            ),
        ),
        ("clubrating.formats.results", ("GameResult",)),
    )
    for name in names
}


def __getattr__(name: str) -> Any:
    if name not in HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(HOMES[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "MAX_ID",
    "GameResult",
    "Outcome",
    "RebuildReport",
    "SameTournament",
    "accept_exact",
    "all_new_members",
    "change_date",
    "check_history",
    "come_back",
    "correct_result",
    "create_club",
    "delete_tournament",
    "exact_candidates",
    "find_club",
    "find_game",
    "game_result_text",
    "get_member",
    "get_tournament",
    "import_tournament",
    "leave",
    "link",
    "mark_distinct",
    "merge",
    "new_member",
    "parse_id",
    "parse_result",
    "publish",
    "rename_member",
    "reread",
    "set_member_flags",
    "set_privacy",
    "unlink",
    "unmerge",
    "unpublish",
]
