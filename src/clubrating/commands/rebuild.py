"""``clubrating rebuild``: replay the club's whole history and say whether the stored ratings
matched (R14). A module of its own: the replay imports numpy, which the verbs that only read
the history (:mod:`.history`) do without."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clubrating import djangoenv
from clubrating.club.services.history import check_history
from clubrating.club.services.outcome import rebuild_text
from clubrating.commands.club import _add, the_club, who
from clubrating.commands.output import print_json, wants_json
from clubrating.djangoenv import gettext, ngettext


def cmd_rebuild(args: argparse.Namespace) -> int:
    club = the_club(args)

    result = check_history(club, who=who())
    matched = result.changes_differing == 0
    if wants_json(args):
        print_json({**result.as_dict(), "matched": matched})
    else:
        print(rebuild_text(result).translated(djangoenv))
        if matched:
            print(gettext("the stored ratings matched the replay exactly"))
    if not matched:
        print(
            ngettext(
                "clubrating rebuild: warning: %(count)s stored rating change differed from the "
                "replay of the history and was replaced: a rebuild was missed somewhere (R14)",
                "clubrating rebuild: warning: %(count)s stored rating changes differed from the "
                "replay of the history and were replaced: a rebuild was missed somewhere (R14)",
                result.changes_differing,
            )
            % {"count": result.changes_differing},
            file=sys.stderr,
        )
        return 1
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    _add(
        subparsers,
        common,
        "rebuild",
        cmd_rebuild,
        "clubrating rebuild",
    )
