"""``clubrating analyze GAMES.pgn``: the CPI of every game and player, no database.

The JSON document is a stable contract (docs/cli.md, "The JSON of rate, match and analyze").
"""

from __future__ import annotations

import argparse
import hashlib
import os
from typing import TYPE_CHECKING, Any

from clubrating import __version__

from clubrating.analysis.defaults import DEFAULT_BOOK, DEFAULT_ENGINE, DEFAULT_NODES
from clubrating.commands.output import (
    MAX_JOBS,
    MAX_NODES,
    examples,
    option,
    print_json,
    verb_help,
    wants_json,
)
from clubrating import djangoenv
from clubrating.djangoenv import gettext
from clubrating.commands.cpi_words import depth_line, factor_table, plays_like
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.factors import DEFINITIONS_VERSION, mating_attacks
from clubrating.cpi.calibrate import estimate
from clubrating.cpi.registry import COUNTS, SHARES
from clubrating.cpi.index import (
    DEFAULT_PRESET,
    PRESET_POOLS,
    PRESETS,
    PlayerScore,
    Weights,
    fitted_nodes,
    score_game,
)
from clubrating.errors import InputError
from clubrating.words import N_, display_width, fit
from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig
from clubrating.analysis.runner import analyse_games, read_pgn_file, stderr_progress

if TYPE_CHECKING:
    from clubrating.analysis.runner import AnalysisConfig


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "analyze",
        parents=[common],
        help=verb_help("analyze"),
        description=gettext(
            "Analyse every game of a PGN file with a UCI engine (one search per position, "
            "MultiPV 3) and print each player's eleven CPI factors and ΔCPI."
        ),
        epilog=examples(
            "clubrating analyze tuesday.pgn --nodes 150000 --jobs 2 --cache cpi.sqlite --json"
        ),
    )
    parser.add_argument(
        "games", metavar="GAMES.pgn", help=gettext("PGN file with one or more games")
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=DEFAULT_NODES,
        help=gettext("engine nodes per position (default %(nodes)s)")
        % {"nodes": f"{DEFAULT_NODES:,}"},
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=min(os.cpu_count() or 1, MAX_JOBS),
        help=gettext("engine processes in parallel (default: the number of cores)"),
    )
    parser.add_argument(
        "--cache",
        metavar="FILE",
        default=None,
        help=gettext(
            "SQLite file keeping every search: repeated positions and an "
            "interrupted run are not searched again"
        ),
    )
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default=DEFAULT_PRESET,
        help=gettext(
            "the CPI settings that score the factors (default %(preset)s; 'spec': "
            "the specification's weights)"
        )
        % {"preset": DEFAULT_PRESET},
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help=gettext("a line per game on stderr")
    )
    parser.set_defaults(handler=run)


def _config(args: argparse.Namespace) -> AnalysisConfig:
    # the engine's adapter (python-chess) when the command runs, not when the parser is built

    if args.nodes < 1:
        raise InputError(N_("--nodes must be at least 1, not %(nodes)s"), nodes=args.nodes)
    if args.jobs < 1:
        raise InputError(N_("--jobs must be at least 1, not %(jobs)s"), jobs=args.jobs)
    if args.nodes > MAX_NODES or args.jobs > MAX_JOBS:
        raise InputError(
            N_("--nodes must be at most %(nodes)s and --jobs at most %(jobs)s"),
            nodes=f"{MAX_NODES:,}",
            jobs=MAX_JOBS,
        )
    engine = option(args, "engine", "CLUBRATING_ENGINE", DEFAULT_ENGINE)
    book = option(args, "book", "CLUBRATING_BOOK", DEFAULT_BOOK)
    return AnalysisConfig(
        EngineSettings(path=engine, nodes=args.nodes), book=book, cache=args.cache
    )


def game_document(facts: GameFacts, weights: Weights = Weights()) -> dict[str, Any]:
    """One game of the ``analyze`` JSON (docs/cli.md), plus each player's mating
    attacks and the depths the engine reached."""
    scores = score_game(facts, weights)
    players = {}
    elo = weights.model.elo_map
    for color in Color:
        player = scores[color].to_dict()
        if elo is not None and scores[color].scored:
            mean, sd = estimate([scores[color].delta_cpi], elo)
            player["elo_equivalent"] = {"elo": round(mean), "sd": round(sd), "games": 1}
        player["mating_attacks"] = [
            {"start_ply": attack.start_ply, "distance": attack.distance, "found": attack.found}
            for attack in mating_attacks(facts.plies, color, facts.outcome)
        ]
        players[color.value] = player
    return {
        "headers": dict(facts.headers),
        "result": facts.result,
        "engine": facts.engine.to_dict(),
        "depth": facts.depth.to_dict() if facts.depth is not None else None,
        "definitions": DEFINITIONS_VERSION,
        "players": players,
        "plies": [ply.to_dict() for ply in facts.plies],
        "searches": facts.searches,
        "cache_hits": facts.cache_hits,
        "shallow_searches": facts.shallow_searches,
    }


def book_identity(path: str | None) -> dict[str, str] | str:
    """The book as provenance: its path and the first 16 hex digits of its SHA-256, or "none"."""
    if path is None:
        return "none"
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"path": os.path.abspath(path), "sha256": digest.hexdigest()[:16]}


def provenance(config: AnalysisConfig, preset: str = DEFAULT_PRESET) -> dict[str, Any]:
    """What produced the figures, beside the engine each game records: the versions,
    the engine and book, and the CPI settings that scored the factors."""
    return {
        "clubrating": __version__,
        "definitions": DEFINITIONS_VERSION,
        "engine_path": config.engine.path,
        "book": book_identity(config.book),
        "weights": {
            "preset": preset,
            "pool": PRESET_POOLS.get(preset, preset),
            **PRESETS[preset].to_dict(),
        },
    }


def _player_lines(score: PlayerScore, weights: Weights) -> list[str]:
    """A player's game in words: ΔCPI, the Elo it plays like, one row a factor (cpi_words)."""
    factors = score.factors
    doc = {name: factors.share(name).to_dict() for name in SHARES}
    doc.update({name: factors.count(name).to_dict() for name in COUNTS})
    extra = (
        "    "
        + gettext("lichess-style: %(acpl)s centipawns lost a move, accuracy %(accuracy)s %%")
        % {"acpl": f"{factors.acpl:.1f}", "accuracy": f"{factors.accuracy:.1f}"}
        if factors.acpl is not None and factors.accuracy is not None
        else ""
    )
    strength = None
    if weights.model.elo_map is not None and score.scored:
        mean, sd = estimate([score.delta_cpi], weights.model.elo_map)
        strength = {"elo": round(mean), "sd": round(sd)}
    like = plays_like(strength)
    delta = (
        gettext(
            "ΔCPI %(delta)s (the game's change of the index, a result bonus of %(bonus)s included)"
        )
        % {"delta": f"{score.delta_cpi:+.1f}", "bonus": f"{score.result_bonus:+.1f}"}
        if score.scored
        else gettext(
            "ΔCPI not counted: the game is shorter than the %(plies)s plies the preset counts"
        )
        % {"plies": weights.model.min_plies}
    )
    sides = {Color.WHITE: gettext("white"), Color.BLACK: gettext("black")}
    side = fit(sides[score.color], 1 + max(display_width(word) for word in sides.values()))
    said = (
        gettext("%(delta)s; %(plays_like)s") % {"delta": delta, "plays_like": like}
        if like
        else delta
    )
    return [
        f"  {side}{score.name}: {said}",
        *factor_table(doc),
        extra,
    ]


def _print_text(results: list[GameFacts], weights: Weights) -> None:
    for number, facts in enumerate(results, start=1):
        white, black = facts.headers.get("White", "?"), facts.headers.get("Black", "?")
        engine = facts.engine
        print(
            gettext(
                "Game %(number)s: %(white)s - %(black)s %(result)s  [%(engine)s, %(nodes)s "
                "nodes, MultiPV %(multipv)s; %(searches)s searches, %(cached)s cached]"
            )
            % {
                "number": number,
                "white": white,
                "black": black,
                "result": facts.result,
                "engine": f"{engine.name} {engine.version}",
                "nodes": f"{engine.nodes:,}",
                "multipv": engine.multipv,
                "searches": facts.searches,
                "cached": facts.cache_hits,
            }
        )
        for score in score_game(facts, weights).values():
            print("\n".join(line for line in _player_lines(score, weights) if line))


def run(args: argparse.Namespace) -> int:
    config = _config(args)
    games = read_pgn_file(args.games)
    if not games:
        raise InputError(N_("no game in this file"), file=args.games)
    results = analyse_games(
        games, config, jobs=args.jobs, progress=stderr_progress(args.verbose, djangoenv)
    )
    if wants_json(args):
        print_json(
            {
                "provenance": provenance(config, args.preset),
                "games": [game_document(facts, PRESETS[args.preset]) for facts in results],
            }
        )
    else:
        if depth := depth_line(
            fitted_nodes(args.preset), sorted({facts.engine.nodes for facts in results})
        ):
            print(
                gettext("CPI preset %(preset)s: %(depth)s")
                % {"preset": args.preset, "depth": depth}
            )
        _print_text(results, PRESETS[args.preset])
    return 0
