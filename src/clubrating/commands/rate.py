"""``clubrating rate FILE``: the arbiter's calculator, with no database.

The rating change of every player of one tournament file, given prior ratings
and game counts (``name,rating,games``; a player missing from it is new).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from clubrating.cli import print_json, wants_json
from clubrating.errors import InputError
from clubrating.formats.common import check_name
from clubrating.formats.records import MAX_NAME_LENGTH, TournamentRecord
from clubrating.rating.elo import rate_tournament
from clubrating.rating.policy import POLICIES, Policy, policy_named
from clubrating.rating.records import tournament_input
from clubrating.rating.types import PlayerChange, Standing

PRIOR_HEADER = ["name", "rating", "games"]
UNDATED = dt.date(1, 1, 1)   # one tournament alone needs no date to be ordered by


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "rate", parents=[common], help="rate one tournament file (no database)",
        description="The rating change of every player of one tournament file (TRF, PGN or "
                    "CSV), from prior ratings and game counts. Players are matched by name; "
                    "a player missing from the prior file is new.",
        epilog="Example: clubrating rate evening.trf --prior ratings.csv --policy club --json",
    )
    parser.add_argument("file", metavar="FILE", help="the tournament file (TRF, PGN or CSV)")
    parser.add_argument("--prior", metavar="CSV",
                        help="prior ratings: a CSV with the header name,rating,games")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="club",
                        help="rating rules: the club's (default) or FIDE's")
    parser.add_argument("--junior", metavar="NAME", action="append", default=[],
                        help="flag a player as junior (FIDE K 40 below 2300); repeatable")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from clubrating.files import read_tournament_file

    policy = policy_named(args.policy)
    record = read_tournament_file(args.file)
    prior = read_prior(args.prior) if args.prior else {}
    document = rate_record(record, prior, policy, juniors=frozenset(args.junior))
    if wants_json(args):
        print_json(document)
    else:
        print(render_table(document, policy))
    return 0


def name_key(name: str) -> str:
    """Names match whatever their case and spacing ("anna  SMITH" is "Anna Smith")."""
    return " ".join(name.split()).casefold()


def read_prior(path: str) -> dict[str, Standing]:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("no such file", file=path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the prior ratings ({error})", file=path) from None
    return parse_prior(text, path)


def parse_prior(text: str, source: str) -> dict[str, Standing]:
    """``name,rating,games`` lines -> standings by name key; bad lines name file:line."""
    rows = csv.reader(io.StringIO(text, newline=""))
    try:
        return _prior_rows(rows, source)
    except csv.Error as error:   # "field larger than field limit (131072)": no name is that long
        raise InputError(f"unreadable fields ({error}): expected a name of at most {MAX_NAME_LENGTH}"
                         " characters, a rating and a number of games", file=source, line=rows.line_num) from None


def _prior_rows(rows: Any, source: str) -> dict[str, Standing]:
    header = next(rows, None)
    if header is None or [cell.strip().lower() for cell in header] != PRIOR_HEADER:
        raise InputError("expected the header name,rating,games", file=source, line=1)
    prior: dict[str, Standing] = {}
    for row in rows:
        line = rows.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 3:
            raise InputError(f"expected 3 fields (name,rating,games), found {len(row)}", file=source, line=line)
        name, rating, games = (cell.strip() for cell in row)
        check_name(name, source, line)
        key = name_key(name)
        if not key:
            raise InputError("empty name", file=source, line=line)
        if key in prior:
            raise InputError(f"{name!r} is listed twice", file=source, line=line)
        prior[key] = Standing(rating=_rating(rating, source, line), games=_games(games, source, line))
    return prior


def _rating(text: str, source: str, line: int) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise InputError(f"rating {text!r}: expected a number such as 1450 or 1413.8", file=source, line=line)
    return value


def _games(text: str, source: str, line: int) -> int:
    if not (text.isascii() and text.isdigit()):   # '²' is a digit to str.isdigit, not to int()
        raise InputError(f"games {text!r}: expected a whole number of rated games, 0 or more",
                         file=source, line=line)
    return int(text)


def rate_record(record: TournamentRecord, prior: Mapping[str, Standing], policy: Policy,
                juniors: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The JSON document of ``rate`` (DESIGN.md): every player, in start-number order."""
    tournament = tournament_input(record, key=lambda entry: name_key(entry.name),
                                  date=record.date or UNDATED,
                                  juniors=frozenset(name_key(j) for j in juniors))
    outcome, _ = rate_tournament(prior, tournament, policy)
    changes = {change.player: change for change in outcome.changes}
    players = []
    for entry in sorted(record.players, key=lambda e: e.number):
        key = name_key(entry.name)
        change = changes.get(key) or _unchanged(key, prior.get(key) or policy.new_standing(), policy,
                                                key in tournament.juniors)
        players.append(_player_json(entry.name, change))
    return {"tournament": {"name": record.name, "date": record.date.isoformat() if record.date else None},
            "players": players}


def _unchanged(key: str, standing: Standing, policy: Policy, junior: bool) -> PlayerChange:
    """A player without a rated game in the tournament (byes, forfeits only): no change."""
    return PlayerChange(player=key, rating_before=standing.rating, rating_after=standing.rating,
                        change=0.0, k=policy.base_k(standing, junior), games_rated=0, score_rated=0.0,
                        expected=0.0, provisional_before=policy.is_provisional(standing),
                        games_before=standing.games)


def _player_json(name: str, change: PlayerChange) -> dict[str, Any]:
    return {"name": name, "rating_before": float(change.rating_before),
            "rating_after": float(change.rating_after), "change": float(change.change),
            "k": float(change.k), "games_rated": change.games_rated,
            "score_rated": float(change.score_rated), "expected": float(change.expected),
            "provisional_before": change.provisional_before}


def render_table(document: Mapping[str, Any], policy: Policy) -> str:
    """A readable table: ratings to 0.1 (club) or whole numbers (FIDE); (P) = provisional."""
    places = 0 if policy.round_change else 1
    t = document["tournament"]
    lines = [f"{t['name']} ({t['date'] or 'no date'}), {policy.name} rules",
             f"{'Name':<28} {'Before':>8} {'After':>8} {'Change':>7} {'K':>4} {'Games':>5} "
             f"{'Score':>5} {'Exp':>5}"]
    for p in document["players"]:
        mark = " (P)" if p["provisional_before"] else ""
        lines.append(f"{(p['name'] + mark)[:28]:<28} {p['rating_before']:>8.{places}f} "
                     f"{p['rating_after']:>8.{places}f} {p['change']:>+7.{places}f} {p['k']:>4g} "
                     f"{p['games_rated']:>5} {p['score_rated']:>5g} {p['expected']:>5.2f}")
    lines.append("(P) provisional before this tournament: fewer than "
                 f"{policy.provisional_below} rated games")
    return "\n".join(lines)
