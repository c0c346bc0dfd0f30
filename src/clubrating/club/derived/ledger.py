"""The club's Chess Performance Index (spec C1-C5): the CPI ledger derived
from the stored engine facts, the weights, and the read side.

- :func:`clubrating.club.jobs.analysis.analyse_games` (the engine side, a
  service above this module) stores each published game's facts in :class:`GameAnalysis`.
- :func:`rebuild_cpi` re-scores the stored facts (no engine) into the derived
  :class:`CpiEntry` rows, as the rating rebuild does for ratings: it runs
  after every rating rebuild (:func:`clubrating.club.derived.rebuild.rebuild_derived`: a
  corrected result, a merge, a deletion)
  and when the weights change (:func:`clubrating.club.services.cpi_weights.set_cpi_weights`).
- :func:`rescore_stale_clubs` re-scores the ledgers a version with other rules stored, at the
  first start of a command of this one (``club/apps.py``).
- :func:`cpi_summary` and :func:`member_ledger` are the read side for the CLI
  and the website, a fixed number of SQL queries each.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count as CountOf  # cpi.factors has a Count of its own
from django.db.models import F, FloatField, Max, OuterRef, Q, Subquery
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from clubrating.club.store.locking import history_write
from clubrating.club.store.models import (
    Club,
    CpiEntry,
    Game,
    GameAnalysis,
    Member,
    Tournament,
    TournamentStatus,
)
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.read.members import resolve_members
from clubrating.cpi.coach import FACTOR_NAMES, shortfalls
from clubrating.cpi.coach import factor_averages as coach_factor_averages
from clubrating.cpi.coach import weakest_factor as coach_weakest_factor
from clubrating.cpi.factors import Count, Factor
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.calibrate import estimate
from clubrating.cpi.index import (
    DEFAULT_PRESET,
    PRESET_POOLS,
    PRESETS,
    LedgerGame,
    PlayerScore,
    Weights,
    contributions,
    fitted_nodes,
    initial_cpi,
    ledger_step,
    score_game,
    years_before,
)
from clubrating.cpi.registry import COUNTS, SHARES, PlayerFactors
from clubrating.cpi.version import SCORING_VERSION
from clubrating.cpi.weights import SETTING_NAMES
from clubrating.errors import InputError, Text
from clubrating.words import N_, Nn_
from clubrating.formats.results import GameResult

PREFETCH_CHUNK = 500  # ours: well under SQLite's 32,766 host parameters per statement
INSERT_BATCH = 2_000  # ours: rows per INSERT of bulk_create
RESULTS = {r.points: r.value for r in GameResult if r.played}  # half-points -> PGN result
LAST_GAMES = 10  # ours: the games listed by cpi_summary
WHITE, BLACK = Color.WHITE.value, Color.BLACK.value  # the ledger rows' colours, as stored
OrderKey = tuple[dt.date, int, int]  # a tournament's (date, sequence, id): the ledger's order


def game_order(
    date: Any, sequence: int, tournament_id: int, round_: int, board: int | None, game_id: int
) -> tuple[Any, ...]:
    """Ledger order: tournament (date, sequence, id), round, board (none last), game id."""
    return (date, sequence, tournament_id, round_, board is None, board or 0, game_id)


# --- the ledger ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CpiReport:
    """What a ledger rebuild did (as the rating rebuild's report)."""

    games: int  # analysed games in the ledger
    entries: int  # CpiEntry rows written
    entries_differing: int  # stored rows that were not what the re-scoring gives
    cpis_changed: int  # members whose current CPI changed

    @property
    def text(self) -> Text:
        """The report in words, translated where it is shown."""
        return Text(
            N_("CPI ledger: %(games)s, %(changed)s"),
            games=Text(
                Nn_("%(count)s analysed game", "%(count)s analysed games"), count=self.games
            ),
            changed=Text(
                Nn_("%(count)s CPI changed", "%(count)s CPIs changed"), count=self.cpis_changed
            ),
        )

    def __str__(self) -> str:
        return str(self.text)

    def as_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


def club_preset(club: Club) -> str:
    """The name of the preset the club's settings start from
    (:data:`~clubrating.cpi.index.PRESETS`)."""
    name = str((club.cpi_weights or {}).get("preset", DEFAULT_PRESET))
    return name if name in PRESETS else DEFAULT_PRESET


def club_weights(club: Club) -> Weights:
    """The club's preset with the club's overrides, starting at the club's CPI start."""
    return Weights.from_dict(
        {**PRESETS[club_preset(club)].to_dict(), **club_overrides(club), "start": club.cpi_start}
    )


def club_overrides(club: Club) -> dict[str, Any]:
    """The weights the club set itself over its preset (``clubrating cpi-weights NAME=VALUE``)."""
    return {k: v for k, v in (club.cpi_weights or {}).items() if k != "preset"}


@dataclass(frozen=True)
class LedgerRow:
    """One analysed game of the published history, as the ledger sees it (no facts)."""

    game_id: int
    white: int  # members, resolved through merges
    black: int
    result: str  # as the club stores it now: a corrected result counts
    date: Any = None  # the tournament's date (datetime.date): the ``decay`` setting needs it


LEDGER_FIELDS = (
    "game_id",
    "game__tournament_id",
    "game__round",
    "game__board",
    "game__white__member_id",
    "game__black__member_id",
    "game__white_points",
    "game__black_points",
)


def from_tournament(since: OrderKey | None, t: str = "game__tournament__") -> Q:
    """The tournaments from ``since`` on in the ledger's order (all without it); ``t``: the path
    from the model filtered to the tournament."""
    if since is None:
        return Q()
    day, sequence, tournament_id = since
    return (
        Q(**{f"{t}date__gt": day})
        | Q(**{f"{t}date": day, f"{t}sequence__gt": sequence})
        | Q(**{f"{t}date": day, f"{t}sequence": sequence, f"{t}id__gte": tournament_id})
    )


def ledger_rows(club: Club, since: OrderKey | None = None) -> list[LedgerRow]:
    """The analysed, played games of the published history (from the tournament ``since`` on),
    in ledger order."""
    published = Tournament.objects.filter(
        from_tournament(since, t=""), club=club, status=TournamentStatus.PUBLISHED
    ).exclude(kind="bughouse")
    # the tournaments' order once each, not their dates converted once a game
    tournaments = {
        t: (day, seq, t) for t, day, seq in published.values_list("id", "date", "sequence")
    }
    rows = list(
        GameAnalysis.objects.filter(
            game__tournament_id__in=published, game__played=True
        ).values_list(*LEDGER_FIELDS)
    )
    rows.sort(key=lambda r: game_order(*tournaments[r[1]], r[2], r[3], r[0]))
    who = resolve_members(club)
    return [
        LedgerRow(
            game_id,
            who.get(white, white),
            who.get(black, black),
            RESULTS.get((white_points, black_points), "*"),
            tournaments[tournament][0],
        )
        for game_id, tournament, _, _, white, black, white_points, black_points in rows
        if white is not None and black is not None
    ]  # published games have both names linked


def stored_facts(rows: Sequence[LedgerRow]) -> dict[int, GameFacts]:
    """The stored facts of these games, with the club's result in place of the PGN's."""
    result = {row.game_id: row.result for row in rows}
    ids = sorted(result)
    facts: dict[int, GameFacts] = {}
    for lo in range(0, len(ids), PREFETCH_CHUNK):
        for game_id, data in GameAnalysis.objects.filter(
            game_id__in=ids[lo : lo + PREFETCH_CHUNK]
        ).values_list("game_id", "facts"):
            facts[game_id] = dataclasses.replace(GameFacts.from_dict(data), result=result[game_id])
    return facts


def ledger_games(club: Club) -> list[LedgerGame]:
    """The analysed games with their facts, for the pure :func:`clubrating.cpi.index.ledger`."""
    rows = ledger_rows(club)
    facts = stored_facts(rows)
    return [
        LedgerGame(row.game_id, row.white, row.black, facts[row.game_id], row.date) for row in rows
    ]


def scoring_key(weights: Weights, result: str) -> str:
    """What a game's ΔCPI depends on beside its facts: the weights (not the start), the result,
    and the rules of this version (the factors' definitions, the presets, the arithmetic:
    :data:`~clubrating.cpi.version.SCORING_VERSION`; a new version may read the same facts
    anew)."""
    shown = {name: value for name, value in weights.to_dict().items() if name != "start"}
    text = f"{json.dumps(shown, sort_keys=True)}|{result}|{SCORING_VERSION}"
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _ledger_samples(clubs: Any) -> Any:
    """Each club with one stored ledger row's scoring key and result (None without a ledger):
    one query whatever the number of clubs, an index lookup per club (member, then entry)."""
    sample = (
        CpiEntry.objects.filter(member__club=OuterRef("pk"))
        .order_by("id")
        .annotate(key=KeyTextTransform("scored_with", "factors"))
    )
    return clubs.annotate(
        sample_key=Subquery(sample.values("key")[:1]),
        sample_white=Subquery(sample.values("game__white_points")[:1]),
        sample_black=Subquery(sample.values("game__black_points")[:1]),
    )


def _is_current(club: Any) -> bool:
    if club.sample_white is None:
        return True  # no ledger yet
    result = RESULTS.get((club.sample_white, club.sample_black), "*")
    return bool(club.sample_key == scoring_key(club_weights(club), result))


def ledger_is_current(club: Club) -> bool:
    """Whether the stored ledger was scored with the club's settings and this version's
    definitions (one row tells: every rebuild re-scores all rows whose key differs)."""
    return _is_current(_ledger_samples(Club.objects.filter(pk=club.pk)).get())


def rescore_stale_clubs() -> int:
    """After an upgrade whose rules differ (:data:`~clubrating.cpi.version.SCORING_VERSION`),
    each club marked with other rules (or none: a database older than the mark, a restored
    backup) is re-scored from its stored analyses (never the engine), or only marked when its
    stored ledger is current; so that no page shows a CPI computed by the old rules. Called by
    the start of every command (``club/apps.py``) once one query found such a club; the number
    of clubs rebuilt."""
    rescored = 0
    for club in list(Club.objects.exclude(cpi_scored_with=SCORING_VERSION).order_by("pk")):
        rescored += rescore_if_stale(club)
    return rescored


def rescore_if_stale(club: Club) -> bool:
    """The club's ledger rebuilt if it was scored by other rules or settings than this version's
    and the club's (or holds no row), and the club marked as scored by this version's rules;
    whether it was rebuilt. Also the import of a club's archive (club/services/archive.py)."""
    with history_write(club) as locked:  # the club's settings as they stand under its lock
        sample = _ledger_samples(Club.objects.filter(pk=locked.pk)).get()
        if sample.sample_white is not None and _is_current(sample):
            _mark_scored(locked)
            return False
        # no row says by which rules the analyses were found too short to score, if any were:
        # a rebuild tells (a few queries without analyses)
        rebuild_cpi(locked)
        return True


def _mark_scored(club: Club) -> None:
    """The club's stored ledger is what this version's rules make of its stored analyses."""
    Club.objects.filter(pk=club.pk).update(cpi_scored_with=SCORING_VERSION)
    club.cpi_scored_with = SCORING_VERSION


def _scored(
    game: GameFacts, weights: Weights, key: str
) -> dict[Color, tuple[float | None, dict[str, Any]]]:
    """Each player's score in the game (Σ w·factor + R, spec C1; None: a game too short to
    score) and factors for display (the analyze JSON's PLAYER without the name, its
    ``delta_cpi`` kept as ``score``: the ledger's ΔCPI is the row's), with the scoring key."""
    scored: dict[Color, tuple[float | None, dict[str, Any]]] = {}
    for color, score in score_game(game, weights).items():
        document = score.to_dict()
        document.pop("name", None)
        document.pop("delta_cpi")
        document["score"] = (
            score.delta_cpi
        )  # unrounded: the ledger steps from it again on a rebuild
        document["scored_with"] = key
        scored[color] = (score.delta_cpi if score.scored else None, document)
    return scored


# id, member, ordinal, colour, CPI before, ΔCPI, CPI after, the scoring key, the game's score
StoredRow = tuple[int, int, int, str, float, float, float, str | None, float | None]


def _stored_entries(
    club: Club,
    since: OrderKey | None,
    members: Collection[int] | None = None,
    games: Collection[int] | None = None,
) -> dict[tuple[int, str], StoredRow]:
    """The stored ledger, by (game, colour), with the scoring key and the score of each row:
    all of it, or the rows a rebuild from ``since`` replaces (those of the tournaments from
    ``since`` on, and of any tournament no longer published); the rows of ``members`` and of
    ``games`` alone when given. The key and the score are read as a text and a float by the
    database, not as JSON by Django (a third of the time)."""
    tournaments = Tournament.objects.filter(club=club)
    if since is not None:
        tournaments = tournaments.filter(
            from_tournament(since, t="") | ~Q(status=TournamentStatus.PUBLISHED)
        )
    rows = (
        CpiEntry.objects.filter(
            Q() if members is None else Q(member_id__in=members),
            Q() if games is None else Q(game_id__in=games),
            game__tournament__in=tournaments,
        )
        .order_by()
        .annotate(
            key=KeyTextTransform("scored_with", "factors"),
            score=Cast(KeyTextTransform("score", "factors"), FloatField()),
        )
        .values_list(
            "id",
            "member_id",
            "game_id",
            "ordinal",
            "color",
            "cpi_before",
            "delta",
            "cpi_after",
            "key",
            "score",
        )
    )
    return {
        (game, color): (row_id, member, ordinal, color, before, delta, after, key, score)
        for row_id, member, game, ordinal, color, before, delta, after, key, score in rows
    }


@dataclass(frozen=True)
class LedgerStart:
    """Where each member's ledger stands before the first game a rebuild replays."""

    cpi: dict[int, float]  # member -> CPI after the member's last earlier row
    played: dict[int, int]  # member -> scored games before
    entries: int  # rows before: the ordinal the replay goes on from


def ledger_start(club: Club, since: OrderKey | None) -> LedgerStart:
    """Each member's CPI and scored games before the tournament ``since``, from the stored rows
    of the earlier published tournaments: each member's rows counted and the newest found by the
    database (GROUP BY; half the time of a window function), then the CPI after it read (one
    query a chunk of members). Nothing before a full rebuild."""
    if since is None:
        return LedgerStart({}, {}, 0)
    tournaments = Tournament.objects.filter(club=club, status=TournamentStatus.PUBLISHED)
    earlier = (
        CpiEntry.objects.filter(
            game__tournament__in=tournaments.exclude(from_tournament(since, t=""))
        )
        .order_by()
        .values("member_id")
        .annotate(newest=Max("ordinal"), games=CountOf("id"))
        .values_list("member_id", "newest", "games")
    )
    newest, played = {}, {}
    for member, ordinal, games in earlier:
        newest[member], played[member] = ordinal, games
    members, cpi = sorted(newest), {}
    for lo in range(0, len(members), PREFETCH_CHUNK):
        chunk = members[lo : lo + PREFETCH_CHUNK]
        rows = (
            CpiEntry.objects.filter(member_id__in=chunk, ordinal__in=[newest[m] for m in chunk])
            .order_by()
            .values_list("member_id", "ordinal", "cpi_after")
        )
        cpi.update({m: after for m, ordinal, after in rows if newest[m] == ordinal})
    return LedgerStart(cpi, played, sum(played.values()))


def _unscored(club: Club, since: OrderKey | None) -> dict[int, str]:
    """Game -> the scoring key under which it was found too short to score (few: one query)."""
    return dict(
        GameAnalysis.objects.filter(
            game__tournament__in=Tournament.objects.filter(from_tournament(since, t=""), club=club)
        )
        .exclude(unscored_with="")
        .values_list("game_id", "unscored_with")
    )


def _scores(
    rows: Sequence[LedgerRow],
    keys: dict[int, str],
    stored: dict[tuple[int, str], StoredRow],
    unscored: dict[int, str],
    weights: Weights,
) -> tuple[dict[tuple[int, str], float | None], dict[int, dict[Color, dict[str, Any]]]]:
    """Each player's score in each game: the stored one when the game's facts, result and the
    weights are those it was scored with (a new analysis deletes its rows and its mark), None
    for a game marked too short under the same key, else scored anew."""
    fresh = [row for row in rows if _stale(row.game_id, keys[row.game_id], stored, unscored)]
    facts = stored_facts(fresh)
    scored = {row.game_id: _scored(facts[row.game_id], weights, keys[row.game_id]) for row in fresh}
    scores: dict[tuple[int, str], float | None] = {(g, c): row[8] for (g, c), row in stored.items()}
    scores.update(
        {
            (game, color): None
            for game, key in keys.items()
            if unscored.get(game) == key
            for color in (WHITE, BLACK)
        }
    )
    scores.update(
        {
            (g, color.value): score
            for g, both in scored.items()
            for color, (score, _) in both.items()
        }
    )
    return scores, {
        g: {color: shown for color, (_, shown) in both.items()} for g, both in scored.items()
    }


def _stale(
    game: int, key: str, stored: dict[tuple[int, str], StoredRow], unscored: dict[int, str]
) -> bool:
    """Whether the game is scored again: neither marked too short under its key, nor both of its
    rows scored under it."""
    if unscored.get(game) == key:
        return False
    white, black = stored.get((game, WHITE)), stored.get((game, BLACK))
    return white is None or black is None or white[7] != key or black[7] != key


def _mark_unscored(
    keys: dict[int, str],
    scores: dict[tuple[int, str], float | None],
    unscored: dict[int, str],
) -> None:
    """Remember the games too short to score under their keys (and forget the marks of the
    games now scored): only the marks that change are written."""
    marks = {
        game: key if scores[game, WHITE] is None and scores[game, BLACK] is None else ""
        for game, key in keys.items()
    }
    for mark in ("", *sorted({m for m in marks.values() if m})):
        changed = [g for g, m in marks.items() if m == mark and unscored.get(g, "") != mark]
        for lo in range(0, len(changed), PREFETCH_CHUNK):
            GameAnalysis.objects.filter(game_id__in=changed[lo : lo + PREFETCH_CHUNK]).update(
                unscored_with=mark
            )


def replay_ledger(
    rows: Sequence[LedgerRow],
    scores: dict[tuple[int, str], float | None],
    weights: Weights,
    start: LedgerStart = LedgerStart({}, {}, 0),
) -> dict[tuple[int, int], tuple[int, str, float, float, float]]:
    """(member, game) -> (ordinal, colour, CPI before, ΔCPI, CPI after): the rule of
    :func:`clubrating.cpi.index.ledger` (:func:`~clubrating.cpi.index.ledger_step`) over known
    scores, a game too short to score (None) left out, from where ``start`` says each member
    stands; a test checks both give the same entries."""
    current, played = dict(start.cpi), dict(start.played)
    initial = initial_cpi(weights)
    ordinal = start.entries
    replayed: dict[tuple[int, int], tuple[int, str, float, float, float]] = {}
    for row in rows:
        for color, member in ((WHITE, row.white), (BLACK, row.black)):
            score = scores[row.game_id, color]
            if score is None:
                continue
            before, games = current.get(member, initial), played.get(member, 0)
            delta, after = ledger_step(before, score, weights, games)
            current[member], played[member], ordinal = after, games + 1, ordinal + 1
            replayed[member, row.game_id] = (ordinal, color, before, delta, after)
    return replayed


def rebuild_cpi(
    club: Club, *, from_scratch: bool = False, since: OrderKey | None = None
) -> CpiReport:
    """Re-score the stored analyses with the club's weights and store the ledger.

    Pure re-scoring of stored facts, never the engine; a game is scored again
    only when its facts, its result or the weights changed (``from_scratch``: every
    game, whatever is stored: what the state machine compares the store with). The
    replay is compared with the stored rows and only the rows that differ are
    rewritten (a publish adds its games' rows; a correction rewrites the two players'
    later rows): the result equals deleting everything and inserting the replay.
    ``since``: the first tournament (its order key) whose games changed, as the rating
    rebuild's: the games before it are neither read nor replayed, each member's ledger goes on
    from its stored row before it (the report then counts the games and rows replayed).
    Runs inside the caller's transaction (the rating rebuild's), or alone in one of
    its own holding the club's lock. A rebuild of the whole ledger marks the club as scored by
    this version's rules (``Club.cpi_scored_with``); one from ``since`` leaves the mark.
    """
    with history_write(club) as locked:
        since = None if from_scratch else since
        if since is None and locked.cpi_scored_with != SCORING_VERSION:
            _mark_scored(club)  # every row is compared below: all scored by this version after
        weights = club_weights(club)
        rows = ledger_rows(club, since)
        # one key a result (the weights' JSON once each, not once a game)
        by_result = {result: scoring_key(weights, result) for result in {r.result for r in rows}}
        keys = {row.game_id: by_result[row.result] for row in rows}
        stored = _stored_entries(club, since)
        unscored = _unscored(club, since)
        start = ledger_start(club, since)
        if from_scratch:
            scores, shown = _scores(rows, keys, {}, {}, weights)
        else:
            scores, shown = _scores(rows, keys, stored, unscored, weights)
        _mark_unscored(keys, scores, unscored)
        replayed = replay_ledger(rows, scores, weights, start)
        before = {(r[1], g): r for (g, _), r in stored.items()}
        old = {key: (r[2], r[3], r[4], r[5], r[6]) for key, r in before.items()}
        differing = {
            key for key in old.keys() | replayed.keys() if old.get(key) != replayed.get(key)
        }
        now = {**start.cpi, **_current(old)}
        then = {**start.cpi, **_current(replayed)}
        changed = sum(1 for m in now.keys() | then.keys() if now.get(m) != then.get(m))
        # a row scored anew to the same figures under another key is written again too, with
        # its new key: else it would be scored again by every rebuild after
        restamped = {
            (r[1], g) for (g, _), r in stored.items() if g in shown and r[7] != keys.get(g)
        }
        _store(replayed, differing | (restamped & replayed.keys()), before, shown)
        return CpiReport(len(rows), len(replayed), len(differing), changed)


def forget_entries(game: Game) -> None:
    """The game's ledger rows, made from facts that a new analysis replaces: the next rebuild
    scores the new facts and writes them anew (the caller holds the club's lock)."""
    CpiEntry.objects.filter(game=game).delete()


def _store(
    replayed: dict[tuple[int, int], tuple[int, str, float, float, float]],
    differing: set[tuple[int, int]],
    before: dict[tuple[int, int], StoredRow],
    shown: dict[int, dict[Color, dict[str, Any]]],
) -> None:
    """Delete the stored rows that differ from the replay and insert the replay's in their
    place (the factors shown: scored anew, or kept from the row replaced)."""
    stale = sorted(before[key][0] for key in differing if key in before)
    kept: dict[tuple[int, str], Any] = {}
    for lo in range(0, len(stale), PREFETCH_CHUNK):
        chunk = CpiEntry.objects.filter(id__in=stale[lo : lo + PREFETCH_CHUNK])
        kept.update({(g, c): f for g, c, f in chunk.values_list("game_id", "color", "factors")})
        chunk.delete()
    CpiEntry.objects.bulk_create(
        [
            CpiEntry(
                member_id=member,
                game_id=game,
                ordinal=ordinal,
                color=color,
                cpi_before=cpi_before,
                delta=delta,
                cpi_after=cpi_after,
                factors=shown[game][Color(color)] if game in shown else kept[game, color],
            )
            for (member, game), (ordinal, color, cpi_before, delta, cpi_after) in replayed.items()
            if (member, game) in differing
        ],
        batch_size=INSERT_BATCH,
    )


def _current(rows: dict[tuple[int, int], tuple[Any, ...]]) -> dict[int, float]:
    """member -> CPI after the member's last entry (the highest ordinal)."""
    latest: dict[int, tuple[int, float]] = {}
    for (member, _), (ordinal, _, _, _, after) in rows.items():
        if member not in latest or ordinal > latest[member][0]:
            latest[member] = (ordinal, after)
    return {member: after for member, (_, after) in latest.items()}


# --- weights -------------------------------------------------------------------------------

WEIGHT_NAMES = SETTING_NAMES  # E ... Br, win/draw/loss, start (the club's cpi_start), the model's


def parse_weight(text: str) -> tuple[str, float | None]:
    """``B1=25`` -> ("B1", 25.0); ``B1=default`` -> ("B1", None): back to the spec's value."""
    name, sep, value = text.partition("=")
    name = name.strip()
    by_folded = {n.casefold(): n for n in WEIGHT_NAMES}
    if not sep or name.casefold() not in by_folded:
        raise InputError(
            N_("expected NAME=VALUE with NAME one of %(names)s, not %(text)s"),
            names=", ".join(WEIGHT_NAMES),
            text=repr(text),
        )
    if value.strip().casefold() == "default":
        return by_folded[name.casefold()], None
    try:
        number = float(value)
    except ValueError:
        raise InputError(
            N_("%(name)s: %(value)s is not a number"), name=name, value=repr(value)
        ) from None
    if number != number or number in (float("inf"), float("-inf")):
        raise InputError(
            N_("%(name)s: %(value)s is not a finite number"), name=name, value=repr(value)
        )
    return by_folded[name.casefold()], number


# --- queries for the CLI and the website ---------------------------------------------------


def _ledger_rows(member: Member, weights: Weights) -> list[dict[str, Any]]:
    """The member's ledger, oldest first: one query whatever the number of games. Each row:
    CPI before, ΔCPI, CPI after (after = clamp(before + ΔCPI, 0, 4000), spec C2), the game's
    score (Σ w·factor + R, C1) and what each factor and the result added to the ΔCPI."""
    entries = (
        CpiEntry.objects.filter(member=member)
        .order_by("ordinal")
        .select_related("game__tournament", "game__white__member", "game__black__member")
        .annotate(analysis_nodes=F("game__analysis__nodes"))
    )
    rows = []
    for played, entry in enumerate(entries):
        game = entry.game
        white = entry.color == Color.WHITE.value
        other = game.black if white else game.white
        shown = entry.factors or {}
        score = float(shown.get("score", entry.delta))
        factors = stored_player_factors(shown.get("factors", {}))
        bonus = float(shown.get("result_bonus") or 0.0)
        parts = contributions(
            PlayerScore("", Color(entry.color), factors, bonus, score),
            entry.cpi_before,
            weights,
            played,
        )
        rows.append(
            {
                "game_id": game.id,
                "tournament_id": game.tournament_id,
                "tournament": game.tournament.name,
                "has_moves": bool(game.moves.strip()),
                "date": game.tournament.date,
                "round": game.round,
                "board": game.board,
                "colour": entry.color,
                "opponent": other.member.name if other.member else other.name,
                "opponent_member_id": other.member_id,
                "result": game_result_text(game),
                "score": (game.white_points if white else game.black_points) / 2,
                "game_score": score,
                "cpi_before": entry.cpi_before,
                "delta": entry.delta,
                "cpi_after": entry.cpi_after,
                "factors": shown.get("factors", {}),
                "acpl": shown.get("acpl"),
                "accuracy": shown.get("accuracy"),
                "contributions": {name: round(value, 6) for name, value in parts.items()},
                "nodes": entry.analysis_nodes,
            }
        )
    return rows


def stored_player_factors(shown: dict[str, Any]) -> PlayerFactors:
    """A ledger row's factors (``CpiEntry.factors["factors"]``) back as the pure value."""

    def share(name: str) -> Factor:
        data = shown.get(name) or {}
        return Factor(data.get("value"), data.get("numerator", 0), data.get("denominator", 0))

    def count(name: str) -> Count:
        data = shown.get(name) or {}
        return Count(int(data.get("count", 0)), tuple(data.get("plies", ())))

    measured: dict[str, Any] = {name: share(name) for name in SHARES}
    measured.update({name: count(name) for name in COUNTS})
    return PlayerFactors(**measured)


def weakest_of(shown: Sequence[dict[str, Any]], weights: Weights) -> dict[str, Any] | None:
    """The member's weakest factor and what it costs, from the factors of the member's ledger
    rows (``CpiEntry.factors["factors"]``): the one rule
    (:func:`clubrating.cpi.coach.weakest_factor`)
    that ``clubrating cpi``, ``clubrating coach``, the player page and the CPI page all show.
    ``costs``: each candidate's cost, ΔCPI a game (:func:`clubrating.cpi.coach.shortfalls`)."""
    averages = coach_factor_averages([stored_player_factors(factors) for factors in shown])
    found = coach_weakest_factor(averages, weights)
    if found is None:
        return None
    return {
        "factor": found.factor,
        "label": FACTOR_NAMES[found.factor],
        "cost_per_game": round(found.cost_per_game, 6),
        "average": found.average,
        "costs": {
            name: round(s.cost_per_game, 6) for name, s in shortfalls(averages, weights).items()
        },
    }


def factor_averages(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per share factor: the mean value over the games where it was available, and in how
    many games it was; per counted factor (H, Br): the total and the mean per game."""
    averages: dict[str, dict[str, Any]] = {}
    for name in SHARES:
        values = [
            row["factors"][name]["value"]
            for row in rows
            if row["factors"].get(name, {}).get("available")
        ]
        averages[name] = {
            "average": sum(values) / len(values) if values else None,
            "available": len(values),
            "games": len(rows),
        }
    for name in COUNTS:
        total = sum(int(row["factors"].get(name, {}).get("count", 0)) for row in rows)
        averages[name] = {
            "average": total / len(rows) if rows else None,
            "total": total,
            "games": len(rows),
        }
    return averages


def member_ledger(member: Member) -> dict[str, Any]:
    """The member's whole CPI ledger (the ``clubrating cpi`` command): every analysed game
    with its CPI before, ΔCPI, CPI after and the factors; averages and the weakest factor."""
    member = member.active()  # a merged member's ledger lives where it was merged
    weights = club_weights(member.club)
    rows = _ledger_rows(member, weights)
    averages = factor_averages(rows)
    return {
        "member_id": member.id,
        "name": member.name,
        "cpi": rows[-1]["cpi_after"] if rows else None,
        "games": len(rows),
        "averages": averages,
        "weakest": weakest_of([row["factors"] for row in rows], weights),
        "strength": playing_strength(rows, weights, club_preset(member.club)),
        "ledger": rows,
    }


MIN_GAMES_FOR_STRENGTH = 5  # ours: fewer games give an interval as wide as the pool itself
MIN_MOVES_FOR_STRENGTH = (
    150  # ours: about five games of 30 moves (a strength only once enough moves exist)
)


def playing_strength(
    rows: Sequence[dict[str, Any]], weights: Weights, preset: str, today: dt.date | None = None
) -> dict[str, Any] | None:
    """ "Plays like 1750 ± 150 over the last 10 games": the Elo-equivalent of the member's last
    ``window`` games in the fitted pool's ratings (:func:`clubrating.cpi.calibrate.estimate`),
    None under settings without an Elo map or before enough moves were analysed.

    With the ``decay`` setting the interval is as of ``today`` (default: the server's date):
    it widens while the member does not play, and once it is as wide as the pool's own spread
    (nothing is known beyond "a player of this pool") the figure is ``stale``."""
    model = weights.model
    elo = model.elo_map
    if elo is None or model.window < 1:
        return None
    recent = list(rows[-model.window :])
    moves = sum(int(row["factors"].get("E", {}).get("denominator") or 0) for row in recent)
    if len(recent) < MIN_GAMES_FOR_STRENGTH or moves < MIN_MOVES_FOR_STRENGTH:
        return None
    today = today or timezone.localdate()
    ages = years_before([row["date"] for row in recent], today) if model.decay > 0 else None
    mean, sd = estimate([row["game_score"] for row in recent], elo, ages=ages, decay=model.decay)
    return {
        "elo": round(mean),
        "sd": round(sd),
        "games": len(recent),
        "moves": moves,
        "pool": PRESET_POOLS.get(preset, preset),
        "last_played": recent[-1]["date"],
        "stale": sd >= elo.prior_sd,
        "fitted_nodes": fitted_nodes(preset),
        "nodes": sorted({row["nodes"] for row in recent if row.get("nodes") is not None}),
    }


def cpi_summary(member: Member, last: int = LAST_GAMES) -> dict[str, Any]:
    """For the member's page: the current CPI, games analysed, per-factor averages with
    availability, the weakest factor, the chart's points [(date, CPI after, None)] and the
    last ``last`` games (newest first). A fixed number of queries whatever the number of games."""
    document = member_ledger(member)
    rows = document.pop("ledger")
    document["chart"] = [(row["date"], row["cpi_after"], None) for row in rows]
    document["last_games"] = list(reversed(rows[-last:])) if last > 0 else []
    return document


def json_ready(value: Any) -> Any:
    """Dates as ISO text, tuples as lists: what ``print_json`` can write."""
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value.isoformat() if hasattr(value, "isoformat") else value
