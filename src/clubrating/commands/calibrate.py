"""``clubrating calibrate GAMES.pgn ...``: fit the CPI on rated games (spec C4, C7).

Reads the games, analyses them (the search cache makes a second run cheap) and prints what the
pure pipeline of :mod:`clubrating.cpi.fitting` makes of them: each player-side as the factors and
the rating of the ``WhiteElo``/``BlackElo`` tags, the fit of the weights and the Elo map
(:mod:`clubrating.cpi.calibrate`), its cross-validation by leaving players (or games) out, and the
settings with their provenance: a club loads them with ``clubrating cpi-weights --load``.

One fit is one rating pool and one time control: lichess, chess.com and FIDE
ratings are different scales, and blitz is not classical. The pool is named
by the user (``--pool``); the time control is read from each game and games
of another one are left out, never mixed in.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from typing import Any

from clubrating import __version__
from clubrating.analysis.defaults import DEFAULT_BOOK, DEFAULT_ENGINE, DEFAULT_NODES
from clubrating.commands.output import examples, option, print_json, verb_help, wants_json, whole
from clubrating.djangoenv import gettext
from clubrating.cpi import factors as factor_definitions
from clubrating.cpi.fitting import (
    DEFAULT_MIN_PLIES,
    DEFAULT_WINDOW,
    calibration_document,
    pick_games,
    sides_of,
)
from clubrating.cpi.registry import NAMES
from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig, analyse_games, read_pgn_file, stderr_progress
from clubrating.analysis.store import store_settings, unused_store_line

# A club's own analysis depth: a fit at another depth reads the club's games high or low
# (docs/cpi.md, "The engine's depth").
DEFAULT_CALIBRATION_NODES = DEFAULT_NODES


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        parents=[common],
        help=verb_help("calibrate"),
        description=gettext(
            "Analyse rated games (WhiteElo/BlackElo tags) of one rating pool and one time "
            "control, fit the ΔCPI weights and the mapping from CPI to the pool's rating, "
            "cross-validate it (players left out) and write the settings with their provenance."
        ),
        epilog=examples(
            "clubrating calibrate band_*.pgn --pool lichess-2018 --time-control blitz "
            "--cache fit.sqlite --out lichess-blitz.json"
        ),
    )
    parser.add_argument(
        "games", nargs="+", metavar="GAMES.pgn", help=gettext("PGN files of rated games")
    )
    parser.add_argument(
        "--pool",
        required=True,
        help=gettext(
            "the rating pool the Elo tags come from "
            "(e.g. lichess-2018, fide, chesscom): never mix pools in one fit"
        ),
    )
    parser.add_argument(
        "--time-control",
        default=None,
        help=gettext(
            "bullet, blitz, rapid or classical: "
            "games of another are left out; games that say none are taken as this one"
        ),
    )
    parser.add_argument(
        "--nodes",
        type=whole(1),
        default=DEFAULT_CALIBRATION_NODES,
        help=gettext("engine nodes per position (default %(nodes)s)")
        % {"nodes": f"{DEFAULT_CALIBRATION_NODES:,}"},
    )
    parser.add_argument(
        "--jobs", type=whole(1), default=os.cpu_count() or 1, help=gettext("engine processes")
    )
    parser.add_argument(
        "--cache", metavar="FILE", default=None, help=gettext("SQLite search cache (resumes)")
    )
    parser.add_argument(
        "--store",
        metavar="FILE.jsonl.gz",
        action="append",
        default=[],
        help=gettext(
            "a committed store of searches (data/searches/) read beneath the cache; repeatable"
        ),
    )
    parser.add_argument(
        "--folds", type=whole(2, 50), default=5, help=gettext("cross-validation folds (default 5)")
    )
    parser.add_argument(
        "--min-plies",
        type=whole(0, 200),
        default=DEFAULT_MIN_PLIES,
        help=gettext("shorter games are not scored (default %(plies)s)")
        % {"plies": DEFAULT_MIN_PLIES},
    )
    parser.add_argument(
        "--window",
        type=whole(1, 1000),
        default=DEFAULT_WINDOW,
        help=gettext("the CPI is the Elo-equivalent of the last N games (default %(games)s)")
        % {"games": DEFAULT_WINDOW},
    )
    parser.add_argument(
        "--out", metavar="FILE", default=None, help=gettext("write the fitted settings here (JSON)")
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help=gettext("a line per game on stderr")
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # the engine's shell (python-chess) when the command runs, not when the parser is built

    read = (game for path in args.games for game in read_pgn_file(path))
    games, left_out, time_control = pick_games(read, args.time_control)
    if not games:
        raise InputError(
            N_("no game with both WhiteElo and BlackElo to fit on"), file=args.games[0]
        )

    engine = option(args, "engine", "CLUBRATING_ENGINE", DEFAULT_ENGINE)
    book = option(args, "book", "CLUBRATING_BOOK", DEFAULT_BOOK)
    config = AnalysisConfig(
        EngineSettings(path=engine, nodes=args.nodes),
        book=book,
        cache=args.cache,
        stores=tuple(args.store),
    )
    facts = analyse_games(games, config, jobs=args.jobs, progress=stderr_progress(args.verbose))
    if facts and (
        unused := unused_store_line(args.store, store_settings(args.store), facts[0].engine.key)
    ):
        print(unused, file=sys.stderr)
    sides = sides_of(facts, args.min_plies)
    document = calibration_document(
        sides,
        pool=args.pool,
        time_control=time_control,
        folds=args.folds,
        min_plies=args.min_plies,
        window=args.window,
        provenance={
            "clubrating": __version__,
            "definitions": getattr(factor_definitions, "DEFINITIONS_VERSION", 1),
            "engine": facts[0].engine.to_dict() if facts else None,
            "book": book,
            "games": len(games),
            "sides": len(sides),
            "left_out": dict(left_out),
            "files": [os.path.basename(p) for p in args.games],
            "fitted": dt.date.today().isoformat(),
            "command": "clubrating calibrate "
            + " ".join(os.path.basename(p) for p in args.games)
            + f" --pool {args.pool} --time-control {time_control} --nodes {args.nodes}"
            + f" --min-plies {args.min_plies} --window {args.window} --folds {args.folds}",
        },
    )
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as handle:
                json.dump(document, handle, indent=2)
                handle.write("\n")
        except OSError as error:
            raise InputError(
                N_("cannot write (%(strerror)s)"), file=args.out, strerror=error.strerror
            ) from None
    if wants_json(args):
        print_json(document)
    else:
        print(summary(document))
    return 0


def _shown(value: float | None, spec: str) -> str:
    """A figure of the report as text; "n/a" where the data could not give it (None)."""
    return "n/a" if value is None else format(value, spec)


def summary(document: dict[str, Any]) -> str:
    cv, prov, lives = document["cross_validation"], document["provenance"], document["careers"]
    one, ten = cv["per_game"], cv["per_10_games"]
    weights = document["settings"]
    lines = [
        f"{document['pool']} {document['time_control']}: "
        f"{prov['games']} games, {prov['sides']} player-sides",
        f"  per game: r(ΔCPI, Elo) {_shown(cv['delta_r'], '+.3f')} (ACPL alone "
        f"{_shown(cv['acpl_r'], '+.3f')}, the spec's ΔCPI {_shown(cv['spec_delta_r'], '+.3f')}); "
        f"Elo estimate MAE {_shown(one['mae'], '.0f')}, RMSE {_shown(one['rmse'], '.0f')}",
        f"  per 10 games ({ten['n']} held-out sets): MAE {_shown(ten['mae'], '.0f')}, "
        f"RMSE {_shown(ten['rmse'], '.0f')}, r {_shown(ten['r'], '+.3f')}; truth "
        f"within ± 1 sd in {_shown(cv['interval_cover_10'], '.0%')}",
        "  simulated careers: the spec's running sum ranks players by games played "
        f"(Spearman {_shown(lives['spec_sum_vs_games_played'], '+.2f')}) more than by "
        f"strength ({_shown(lives['spec_sum_vs_strength'], '+.2f')}); the window's "
        f"Elo-equivalent by strength ({_shown(lives['window_vs_strength'], '+.2f')}, "
        f"games played {_shown(lives['window_vs_games_played'], '+.2f')})",
        "  weights: " + "  ".join(f"{n}={weights[n]:+.1f}" for n in (*NAMES, "win", "draw")),
    ]
    return "\n".join(lines)
