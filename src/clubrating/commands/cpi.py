"""The club's CPI verbs: ``analyse-club`` (engine analysis of the published games; the old
name ``analyse`` stays for one release, one letter from ``analyze FILE``),
``cpi PLAYER`` (a member's ledger) and ``cpi-weights`` (show or change the weights).

Thin translations to :mod:`clubrating.club.derived.ledger`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any, cast

from clubrating.club.read.members import get_member
from clubrating.analysis.defaults import DEFAULT_NODES
from clubrating.commands.output import (
    MAX_JOBS,
    MAX_NODES,
    examples,
    option,
    print_json,
    verb_help,
    wants_json,
    whole,
)
from clubrating.djangoenv import gettext, ngettext, pgettext
from clubrating.commands.club import the_club, who
from clubrating.commands.cpi_words import depth_line, factor_table, factor_value, plays_like
from clubrating.cpi.index import PRESETS
from clubrating.cpi.registry import NAMES
from clubrating import djangoenv, words
from clubrating.errors import InputError
from clubrating.words import N_, display_width, fit
from clubrating.club.jobs.analysis import analyse_games
from clubrating.analysis.runner import stderr_progress
from clubrating.club.derived.ledger import json_ready, member_ledger
from clubrating.club.derived.ledger import WEIGHT_NAMES
from clubrating.club.derived.ledger import club_preset, club_weights, parse_weight
from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.club.derived.fairplay import fair_play


def cmd_analyse(args: argparse.Namespace) -> int:
    if args.nodes is not None and args.nodes < 1:
        raise InputError(N_("--nodes must be at least 1, not %(nodes)s"), nodes=args.nodes)
    club = the_club(args)

    report = analyse_games(
        club,
        engine=option(args, "engine", "CLUBRATING_ENGINE"),
        book=option(args, "book", "CLUBRATING_BOOK"),
        nodes=args.nodes,
        jobs=args.jobs,
        reanalyse=args.reanalyse,
        progress=stderr_progress(args.verbose, djangoenv),
    )
    if wants_json(args):
        print_json(report.as_dict())
    else:
        print(report.text.translated(djangoenv))
        for line in report.unreadable:
            print("  " + gettext("not analysed: %(game)s") % {"game": line})
    return 0


ANALYSE_CLUB = "analyse-club"
OLD_ANALYSE = (
    "analyse"  # the earlier name: one letter from 'analyze GAMES.pgn'; removed in the next release
)


def cmd_analyse_old_name(args: argparse.Namespace) -> int:
    """``analyse``, the old name: one line on stderr, then the same as ``analyse-club``."""
    print(
        gettext(
            "clubrating: '%(old)s' is now '%(new)s' (the old name goes in the next release; "
            "'analyze GAMES.pgn' analyses a file)"
        )
        % {"old": OLD_ANALYSE, "new": ANALYSE_CLUB},
        file=sys.stderr,
    )
    return cmd_analyse(args)


def _mean_factors(ledger: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each factor over the ledger's games: shares summed (value = the mean of the measured
    games), counts as the mean a game; a factor never measured stays unmeasured."""
    out: dict[str, dict[str, Any]] = {}
    for name in NAMES:
        cells = [row["factors"][name] for row in ledger if name in row["factors"]]
        if not cells:
            continue
        if "count" in cells[0]:
            out[name] = {
                "count": gettext("%(count)s a game")
                % {"count": f"{sum(c['count'] for c in cells) / len(cells):.2f}"}
            }
            continue
        measured = [c for c in cells if c.get("available")]
        out[name] = {
            "available": bool(measured),
            "numerator": sum(c["numerator"] for c in measured),
            "denominator": sum(c["denominator"] for c in measured),
            "value": sum(c["value"] for c in measured) / len(measured) if measured else None,
        }
    return out


def _headline(doc: dict[str, Any]) -> str:
    figures = {
        "name": doc["name"],
        "member": doc["member_id"],
        "games": doc["games"],
        "cpi": f"{doc['cpi']:.1f}" if doc["cpi"] is not None else "",
    }
    if doc["cpi"] is None:
        return (
            gettext(
                "%(name)s (member %(member)s): no CPI yet: no analysed "
                "game scored (games with moves are analysed after "
                "publishing; the club's settings may leave out short games)"
            )
            % figures
        )
    return (
        ngettext(
            "%(name)s (member %(member)s): CPI %(cpi)s after %(games)s scored game",
            "%(name)s (member %(member)s): CPI %(cpi)s after %(games)s scored games",
            doc["games"],
        )
        % figures
    )


def _ledger_table(ledger: list[dict[str, Any]]) -> list[str]:
    """The games, a line each with the CPI before, ΔCPI and the CPI after (after = before +
    ΔCPI, clamped to 0-4000), its factors under it and what each added to the ΔCPI, in columns
    as wide as their headings."""
    headings = [
        pgettext("cpi table", "date"),
        pgettext("cpi table", "opponent"),
        pgettext("cpi table", "col"),
        pgettext("cpi table", "result"),
        pgettext("cpi table", "before"),
        "ΔCPI",
        pgettext("cpi table", "after"),
    ]
    colours = {"white": gettext("white"), "black": gettext("black")}
    widths = words.widths(
        headings, (10, 24, max(display_width(word) for word in colours.values()), 7, 7, 7, 7)
    )
    aligns = "<<<<>>>"
    lines = [" ".join(fit(h, w, a) for h, w, a in zip(headings, widths, aligns))]
    for row in ledger:
        cells = [
            row["date"].isoformat(),
            row["opponent"],
            colours.get(row["colour"], row["colour"]),
            row["result"],
            f"{row['cpi_before']:.1f}",
            f"{row['delta']:+.1f}",
            f"{row['cpi_after']:.1f}",
        ]
        lines.append(" ".join(fit(c, w, a) for c, w, a in zip(cells, widths, aligns)))
        factors = row["factors"]
        lines.append(
            "    "
            + " · ".join(
                f"{name} {factor_value(name, factors[name])}" for name in NAMES if name in factors
            )
        )
        lines.append("    " + contributions_line(row["contributions"]))
    return lines


def contributions_line(parts: dict[str, float]) -> str:
    """ "ΔCPI: E +3.1 · B1 −2.0 · … · result +0.0 · an average game −4.2": what each factor and the
    result added to the game's ΔCPI, and (fitted presets) the pull of the pool's average game."""
    shown = [
        f"{name} {parts[name]:+.1f}"
        for name in NAMES
        if name in parts and round(parts[name], 1) != 0
    ]
    shown.append(gettext("result %(value)s") % {"value": f"{parts.get('result', 0.0):+.1f}"})
    if round(parts.get("rest", 0.0), 1) != 0:
        shown.append(gettext("an average game %(value)s") % {"value": f"{parts['rest']:+.1f}"})
    return gettext("ΔCPI from: %(parts)s") % {"parts": " · ".join(shown)}


def _print_ledger(doc: dict[str, Any]) -> None:
    print(_headline(doc))
    strength = doc.get("strength")
    if strength is not None:
        print(
            "  "
            + gettext("%(plays_like)s (%(pool)s)")
            % {
                "plays_like": plays_like(strength, strength["games"]),
                "pool": gettext(strength["pool"]),
            }
        )
        if depth := depth_line(strength.get("fitted_nodes"), strength.get("nodes") or []):
            print(f"  {depth}")
    weakest = doc["weakest"]
    if weakest is not None:
        print(
            "  "
            + gettext("weakest factor: %(factor)s (costs %(cost)s ΔCPI a game)")
            % {"factor": weakest["factor"], "cost": f"{weakest['cost_per_game']:.1f}"}
        )
    if doc["ledger"]:
        print(
            "  "
            + ngettext(
                "the factors over this %(count)s game:",
                "the factors over these %(count)s games:",
                len(doc["ledger"]),
            )
            % {"count": len(doc["ledger"])}
        )
        print("\n".join(factor_table(_mean_factors(doc["ledger"]))))
    print("\n".join(_ledger_table(doc["ledger"])))


def cmd_cpi(args: argparse.Namespace) -> int:
    club = the_club(args)

    doc = member_ledger(get_member(club, args.member))
    if wants_json(args):
        print_json(json_ready(doc))
    else:
        _print_ledger(doc)
    return 0


def load_settings(path: str) -> dict[str, float | None]:
    """The ``settings`` of a file written by ``clubrating calibrate --out``, checked."""

    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as error:
        raise InputError(
            N_("cannot read (%(strerror)s)"), file=path, strerror=error.strerror
        ) from None
    except ValueError as error:
        raise InputError(N_("not JSON (%(error)s)"), file=path, error=error) from None
    except (
        RecursionError
    ):  # [[[[... nested deeper than Python's stack: no calibrate --out writes that
        raise InputError(N_("not JSON (%(error)s)"), file=path, error="nested too deep") from None
    settings = document.get("settings") if isinstance(document, dict) else None
    if not isinstance(settings, dict) or not settings:
        raise InputError(
            N_("expected the JSON written by 'clubrating calibrate --out' (a \"settings\" object)"),
            file=path,
        )
    loaded: dict[str, float | None] = {}
    for name, value in settings.items():
        if (
            name not in WEIGHT_NAMES
            or isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise InputError(
                N_("settings.%(name)s: expected one of %(value)s with a number"),
                file=path,
                name=name,
                value=", ".join(WEIGHT_NAMES),
            )
        loaded[name] = float(value)
    return loaded


def cmd_weights(args: argparse.Namespace) -> int:
    club = the_club(args)

    report = None
    changes: dict[str, float | None] = dict(parse_weight(text) for text in args.set or ())
    preset = args.preset
    if args.load:
        changes = {**load_settings(args.load), **changes}
        preset = preset or "spec"  # every setting comes from the file
    if changes or preset:
        report = set_cpi_weights(club, changes, who=who(), preset=preset)
    weights = club_weights(club).to_dict()
    if wants_json(args):
        print_json(
            {
                "preset": club_preset(club),
                "weights": weights,
                "overrides": sorted(k for k in club.cpi_weights or {} if k != "preset"),
                "rebuild": report.as_dict() if report else None,
            }
        )
        return 0
    print(gettext("preset %(preset)s") % {"preset": club_preset(club)})
    print("  ".join(f"{name}={value:g}" for name, value in weights.items()))
    if report is not None:
        print(report.text.translated(djangoenv))
    return 0


def cmd_fairplay(args: argparse.Namespace) -> int:
    club = the_club(args)

    doc = fair_play(club, recent=args.games)
    if wants_json(args):
        print_json(doc)
        return 0
    print(
        ngettext(
            "Game quality of the last %(count)s analysed game against what each club "
            "rating predicts (preset %(preset)s); z >= %(z)s: look closer, nothing more.",
            "Game quality of the last %(count)s analysed games against what each club "
            "rating predicts (preset %(preset)s); z >= %(z)s: look closer, nothing more.",
            doc["recent_games"],
        )
        % {
            "count": doc["recent_games"],
            "preset": doc["preset"],
            "z": f"{doc['look_closer_at_z']:g}",
        }
    )
    print(
        gettext(
            "The club's ratings are not the preset's pool: "
            "read the order and the outliers, not the level."
        )
    )
    print("\n".join(_fairplay_table(doc["members"])))
    return 0


def _fairplay_table(members: list[dict[str, Any]]) -> list[str]:
    """The members, a line each, in columns as wide as their translated headings."""
    headings = [
        pgettext("fairplay table", "member"),
        pgettext("fairplay table", "rating"),
        pgettext("fairplay table", "games"),
        "ΔCPI",
        pgettext("fairplay table", "expected"),
        "z",
        "B1",
        pgettext("fairplay table", "acc."),
    ]
    widths = words.widths(headings, (28, 7, 5, 7, 8, 6, 5, 5))
    aligns = "<>>>>>>>"
    lines = [" ".join(fit(h, w, a) for h, w, a in zip(headings, widths, aligns))]
    for row in members:
        cells = [
            row["name"],
            f"{row['rating']:.0f}",
            str(row["games"]),
            f"{row['mean_delta']:.1f}",
            f"{row['expected_delta']:.1f}",
            f"{row['z']:+.2f}",
            "-" if row["engine_agreement"] is None else f"{row['engine_agreement']:.2f}",
            "-" if row["accuracy"] is None else f"{row['accuracy']:.0f}",
        ]
        mark = "  " + gettext("<- look closer") if row["look_closer"] else ""
        lines.append(" ".join(fit(c, w, a) for c, w, a in zip(cells, widths, aligns)) + mark)
    return lines


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    def add(name: str, handler: Any, description: str, example: str) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(
            name,
            parents=[common],
            help=verb_help(name),
            description=description,
            epilog=examples(example),
        )
        parser.add_argument(
            "--club",
            metavar="SLUG",
            help=gettext("the club (needed when the database holds several)"),
        )
        parser.set_defaults(handler=handler)
        return cast(argparse.ArgumentParser, parser)

    description = gettext(
        "Analyse every published game of the club with moves not analysed yet (one engine "
        "search per position, MultiPV 3, searches shared by all games of the database), store "
        "the facts and rebuild the CPI ledger. An interrupted run resumes where it stopped. (A "
        "PGN file without a database: 'clubrating analyze GAMES.pgn'.)"
    )
    for name, handler in ((ANALYSE_CLUB, cmd_analyse), (OLD_ANALYSE, cmd_analyse_old_name)):
        p = add(name, handler, description, f"clubrating {name} --nodes 150000 --jobs 2")
        p.add_argument(
            "--nodes",
            type=whole(1, MAX_NODES),
            default=None,
            help=gettext("engine nodes per position (default $CLUBRATING_NODES or %(nodes)s)")
            % {"nodes": f"{DEFAULT_NODES:,}"},
        )
        p.add_argument(
            "--jobs",
            type=whole(1, MAX_JOBS),
            default=None,
            help=gettext(
                "engine processes in parallel (default $CLUBRATING_JOBS or the number of cores)"
            ),
        )
        p.add_argument(
            "--reanalyse",
            action="store_true",
            help=gettext(
                "analyse again the games analysed with another engine, version or node budget"
            ),
        )
        p.add_argument(
            "-v", "--verbose", action="store_true", help=gettext("a line per game on stderr")
        )

    p = add(
        "cpi",
        cmd_cpi,
        gettext(
            "A member's Chess Performance Index: every analysed game with "
            "its date, opponent, colour, result, ΔCPI, the CPI after it and "
            "the eleven factors; the current CPI and the weakest factor."
        ),
        "clubrating cpi 'Anna Berg' --json",
    )
    p.add_argument("member", help=gettext("member id, name or any name it is known under"))

    p = add(
        "cpi-weights",
        cmd_weights,
        gettext(
            "Show the weights of ΔCPI (spec C1), or change some with --set "
            "NAME=VALUE (NAME=default puts the spec's value back); the "
            "ledger is re-scored from the stored analyses, never the engine."
        ),
        "clubrating cpi-weights --set B1=25 --set H=-30",
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help=gettext(
            "E, T, O, B1-B3, M1-M3, H, Br, win, draw, loss, start (the starting CPI), "
            "or any other setting the JSON shows"
        ),
    )
    p.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        help=gettext(
            "start again from a named preset ('spec': the specification's arithmetic; "
            "the others: fits on rated games, see the README)"
        ),
    )
    p.add_argument(
        "--load",
        metavar="FILE",
        help=gettext("the settings written by 'clubrating calibrate --out'"),
    )

    p = add(
        "fairplay",
        cmd_fairplay,
        gettext(
            "For the arbiter only: each member's mean ΔCPI, engine agreement and "
            "accuracy over the last analysed games against what their club rating "
            "predicts under the fitted CPI settings, as a z-score. A reason to "
            "look closer, never a verdict: nothing is done automatically."
        ),
        "clubrating fairplay --games 10 --json",
    )
    p.add_argument(
        "--games",
        type=whole(1, 1000),
        default=10,
        help=gettext("the latest N analysed games (default 10)"),
    )
