"""``clubrating rate FILE``: the arbiter's calculator, with no database.

The rating change of every player of one tournament file, given prior ratings
and game counts (a rating list, :mod:`clubrating.formats.ratinglist`; a player
missing from it is new, one listed without a games count is established).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from clubrating.commands.output import examples, print_json, verb_help, wants_json
from clubrating.djangoenv import gettext, ngettext, pgettext
from clubrating.errors import InputError
from clubrating.formats.common import decode_text
from clubrating.formats.ratinglist import name_key, read_rating_list
from clubrating.formats.records import TournamentRecord
from clubrating.rating.elo import rate_tournament
from clubrating.rating.initial import InitialRating, initial_standings
from clubrating.rating.policy import POLICIES, Policy, club_policy, policy_named
from clubrating.rating.records import tournament_input
from clubrating.rating.types import PlayerChange, Standing
from clubrating.words import N_, display_width, fit
from clubrating.files import read_tournament_file

UNDATED = dt.date(1, 1, 1)  # one tournament alone needs no date to be ordered by


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "rate",
        parents=[common],
        help=verb_help("rate"),
        description=gettext(
            "The rating change of every player of one tournament file (TRF, PGN or "
            "CSV), from prior ratings and game counts. Players are matched by name; "
            "a player missing from the prior file is new."
        ),
        epilog=examples("clubrating rate evening.trf --prior ratings.csv --policy club --json"),
    )
    parser.add_argument(
        "file", metavar="FILE", help=gettext("the tournament file (TRF, PGN or CSV)")
    )
    parser.add_argument(
        "--prior",
        metavar="LIST",
        help=gettext(
            "prior ratings: a CSV with the columns name, rating and optionally games "
            "(',' or ';', any header case), or a TRF's rating column"
        ),
    )
    parser.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="club",
        help=gettext("rating rules: the club's (default) or FIDE's"),
    )
    parser.add_argument(
        "--junior",
        metavar="NAME",
        action="append",
        default=[],
        help=gettext("flag a player as junior (FIDE K 40 below 2300); repeatable"),
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    policy = policy_named(args.policy)
    record = read_tournament_file(args.file)
    prior = read_prior(args.prior, policy) if args.prior else {}
    document = rate_record(record, prior, policy, juniors=frozenset(args.junior))
    if wants_json(args):
        print_json(document)
    else:
        print(render_table(document, policy))
    return 0


def read_prior(path: str, policy: Policy | None = None) -> dict[str, Standing]:
    try:
        text = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(N_("no such file"), file=path) from None
    except OSError as error:
        raise InputError(
            N_("cannot read the prior ratings (%(strerror)s)"), file=path, strerror=error.strerror
        ) from None
    return parse_prior(decode_text(text, path), path, policy)


def parse_prior(text: str, source: str, policy: Policy | None = None) -> dict[str, Standing]:
    """A rating list (:mod:`clubrating.formats.ratinglist`: CSV with ``,`` or ``;``, header in
    any case, ``games`` optional; or a TRF) -> standings by name key; bad lines name file:line."""
    rows = read_rating_list(io.StringIO(text, newline=""), source)
    listed = [InitialRating(name_key(row.name), row.rating, row.games) for row in rows]
    return initial_standings(listed, policy or club_policy())


def rate_record(
    record: TournamentRecord,
    prior: Mapping[str, Standing],
    policy: Policy,
    juniors: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The JSON document of ``rate`` (docs/cli.md): every player, in start-number order."""
    tournament = tournament_input(
        record,
        key=lambda entry: name_key(entry.name),
        date=record.date or UNDATED,
        juniors=frozenset(name_key(j) for j in juniors),
    )
    outcome, _ = rate_tournament(prior, tournament, policy)
    changes = {change.player: change for change in outcome.changes}
    players = []
    for entry in sorted(record.players, key=lambda e: e.number):
        key = name_key(entry.name)
        change = changes.get(key) or _unchanged(
            key, prior.get(key) or policy.new_standing(), policy, key in tournament.juniors
        )
        players.append(_player_json(entry.name, change))
    return {
        "tournament": {
            "name": record.name,
            "date": record.date.isoformat() if record.date else None,
        },
        "players": players,
    }


def _unchanged(key: str, standing: Standing, policy: Policy, junior: bool) -> PlayerChange:
    """A player without a rated game in the tournament (byes, forfeits only): no change."""
    return PlayerChange(
        player=key,
        rating_before=standing.rating,
        rating_after=standing.rating,
        change=0.0,
        k=policy.base_k(standing, junior),
        games_rated=0,
        score_rated=0.0,
        expected=0.0,
        provisional_before=policy.is_provisional(standing),
        games_before=standing.games,
    )


def _player_json(name: str, change: PlayerChange) -> dict[str, Any]:
    return {
        "name": name,
        "rating_before": float(change.rating_before),
        "rating_after": float(change.rating_after),
        "change": float(change.change),
        "k": float(change.k),
        "games_rated": change.games_rated,
        "score_rated": float(change.score_rated),
        "expected": float(change.expected),
        "provisional_before": change.provisional_before,
    }


def render_table(document: Mapping[str, Any], policy: Policy) -> str:
    """A readable table in the command's language: ratings to 0.1 (club) or whole numbers (FIDE);
    (P) = provisional. A column is as wide as its values or its translated heading, whichever is
    wider, measured as the terminal shows them (words.display_width)."""
    places = 0 if policy.round_change else 1
    t = document["tournament"]
    headings = [
        pgettext("rate table", "Name"),
        pgettext("rate table", "Before"),
        pgettext("rate table", "After"),
        pgettext("rate table", "Change"),
        pgettext("rate table", "K"),
        pgettext("rate table", "Games"),
        pgettext("rate table", "Score"),
        pgettext("rate table", "Exp"),
    ]
    widths = [
        max(least, display_width(heading))
        for least, heading in zip((28, 8, 8, 7, 4, 5, 5, 5), headings)
    ]
    rows = [
        [
            p["name"] + (gettext(" (P)") if p["provisional_before"] else ""),
            f"{p['rating_before']:.{places}f}",
            f"{p['rating_after']:.{places}f}",
            f"{p['change']:+.{places}f}",
            f"{p['k']:g}",
            f"{p['games_rated']}",
            f"{p['score_rated']:g}",
            f"{p['expected']:.2f}",
        ]
        for p in document["players"]
    ]
    rules = gettext("club rules") if policy.name == "club" else gettext("fide rules")
    lines = [
        gettext("%(name)s (%(date)s), %(rules)s")
        % {"name": t["name"], "date": t["date"] or gettext("no date"), "rules": rules}
    ]
    for cells in [headings, *rows]:
        lines.append(
            " ".join(
                fit(cell, width, "<" if column == 0 else ">")
                for column, (cell, width) in enumerate(zip(cells, widths))
            )
        )
    lines.append(
        ngettext(
            "(P) provisional before this tournament: fewer than %(count)s rated game",
            "(P) provisional before this tournament: fewer than %(count)s rated games",
            policy.provisional_below,
        )
        % {"count": policy.provisional_below}
    )
    return "\n".join(lines)
