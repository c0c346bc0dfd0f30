"""Any sequence of arbiter actions keeps the club's numbers right (a stateful property test).

Hypothesis drives the services the way arbiters do: imports (a record, TRF, PGN, CSV,
typed lines; chess or bughouse; a stored tournament again, refused, then forced), links and new
members on drafts and on published tournaments, publish and unpublish, corrections (of a game
found by a member's other spelling too), redating, deletion, merges, renames, flags, members who
leave and come back, stored analyses, and the club's time zone, the evening paired here. A
refusal is a legal outcome of a step, after which nothing stored may differ. After every step:

- the stored ratings and the CPI ledger equal a full replay of the stored history (the
  rebuild is run in a savepoint and rolled back: it must find nothing to change);
- a step that changed the stored history left an audit entry;
- no person holds two names in one tournament, and no derived row names a member merged
  away, a draft, a bughouse tournament, or a member without a game.

Each failure it found is kept as a plain test in ``test_state_regressions.py``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from clubrating.club.services import evening
from clubrating.club.jobs.analysis import rebuild_ledger
from clubrating.club.derived.ledger import rebuild_cpi
from clubrating.club.read.members import members_called, resolve_members
from clubrating.club.store.models import (
    AuditEntry,
    Bye,
    Club,
    CpiEntry,
    CurrentRating,
    Distinct,
    Entry,
    Evening,
    EveningBoard,
    EveningPlayer,
    Game,
    GameAnalysis,
    InitialEntry,
    Member,
    Merge,
    RatingChange,
    Tournament,
    TournamentStatus,
)
from clubrating.club.derived.ratings import rebuild_ratings
from clubrating.club.services import initial_list, moves
from clubrating.club.services.club_settings import SETTINGS, change_settings, parse_settings
from clubrating.errors import ClubratingError
from clubrating.files import read_tournament_bytes
from clubrating.formats.csv import write_csv
from clubrating.formats.pgn import write_pgn
from clubrating.formats.trf import write_trf
from clubrating.formats.pgn import read_pgn
from clubrating.formats.ratinglist import ListedRating
from clubrating.formats.records import TimeControl, TournamentKind, TournamentRecord
from clubrating.formats.typed import parse_typed
from clubrating.identity.same import is_exact

from ..cpi.coach_games import hanging_game
from .conftest import make_record, spec_cpi
from .crawl import assert_views_agree
from .rating_oracle import oracle_differences
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.services.clubs import create_club
from clubrating.club.services.members import mark_distinct, rename_member, set_member_flags
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import (
    SameTournament,
    change_date,
    correct_result,
    delete_tournament,
    find_game,
    import_tournament,
)
from clubrating.club.services import members as member_services
from clubrating.club.services import names as name_services
from clubrating.club.services import tournaments as tournament_services

WHO = "test:arbiter"
TODAY = dt.date(2030, 1, 1)
# Names as arbiters type them: the same person in other spellings, two near-twins.
NAMES = (
    "Anna Berg",
    "Berg, Anna",
    "Ben Cole",
    "Cara Dunn",
    "CARA DUNN",
    "Dan Eng",
    "Eva Fox",
    "Eva Fax",
)
RESULTS = ("1-0", "0-1", "=", "+-", "-+")
TYPED = {"1-0": "1-0", "0-1": "0-1", "=": "1/2-1/2", "+-": "+-", "-+": "-+"}
FORMATS = ("record", "trf", "pgn", "csv", "typed")
THEN = ("draft", "exact", "all-new", "publish", "publish")  # what the arbiter does after an import
DATES = tuple(dt.date(2026, 3, day) for day in (2, 2, 9, 16, 23))
ids = st.integers(0, 10_000)
RULE_VALUES = {
    "policy": ("club", "fide"),
    "start-rating": ("1200", "1500"),
    "k-new": ("40", "25"),
    "k-new-games": ("20", "2"),
    "k-established": ("20", "10"),
    "provisional-games": ("5", "1"),
}
TYPED_MOVES = (
    "1. e4 e5 2. Nf3 Nc6",
    "f3 e5 g4 Qh4#",
    "e4 e5 Ke3",
    "е4 е5 Кf3 1:29:55",
)  # legal, mate, illegal, Russian
LEFT_DAYS = (dt.date(2026, 3, 1), dt.date(2026, 3, 20), dt.date(2099, 1, 1))  # 2099: refused
ZONES = ("UTC", "Asia/Yerevan", "America/New_York", "")  # "": the server's zone

# A small tournament: 2 to 5 names, up to 3 rounds of games between them.
games_strategy = st.lists(
    st.tuples(st.integers(1, 3), ids, ids, st.sampled_from(RESULTS)), min_size=1, max_size=6
)


def tournament_record(
    names: list[str], drawn: list[tuple[int, int, int, str]], date: dt.date, label: str
) -> TournamentRecord | None:
    """The drawn games that fit (one game a player a round, no one against themselves)."""
    busy: set[tuple[int, str]] = set()
    games = []
    for rnd, i, j, result in drawn:
        white, black = names[i % len(names)], names[j % len(names)]
        if white == black or (rnd, white) in busy or (rnd, black) in busy:
            continue
        busy |= {(rnd, white), (rnd, black)}
        games.append((rnd, white, black, result))
    if not games:
        return None
    return make_record(label, date, names, sorted(games))


def as_format(record: TournamentRecord, fmt: str) -> tuple[TournamentRecord, str]:
    """The record written as a file of ``fmt`` and read back the way ``clubrating import`` does."""
    if fmt == "pgn" and not any(p.played for p in record.pairings):
        fmt = "csv"  # a PGN holds played games only: a tournament of forfeits comes as a CSV
    if fmt == "typed" and record.kind is TournamentKind.BUGHOUSE:
        fmt = "record"  # typed lines are chess games: they say nothing of bughouse
    if fmt == "typed" and len({" ".join(p.name.casefold().split()) for p in record.players}) < len(
        record.players
    ):
        # typed lines know a player by the name, whatever its case: "CARA DUNN" is "Cara Dunn"
        fmt = "record"
    if fmt == "record":
        return record, ""
    if fmt == "typed":
        number = {p.number: p.name for p in record.players}
        lines = [
            f"{g.round}\t{number[g.white]}\t{number[g.black]}\t"  # tabs: "Berg, Anna" has a comma
            f"{TYPED[_result_of(g)]}"
            for g in record.pairings
        ]
        return parse_typed("\n".join(lines), name=record.name, date=record.date), ""
    handle = io.StringIO()
    if fmt == "pgn":
        write_pgn(record, handle, results_only=True)
    else:
        {"trf": write_trf, "csv": write_csv}[fmt](record, handle)
    return read_tournament_bytes(handle.getvalue().encode(), f"{record.name}.{fmt}")


RES_POINTS = {
    "1-0": (2, 0, True),
    "0-1": (0, 2, True),
    "=": (1, 1, True),
    "+-": (2, 0, False),
    "-+": (0, 2, False),
}


def _result_of(game: Any) -> str:
    """The typed result of a stored pairing (its points and whether it was played)."""
    points = (game.white_points, game.black_points, game.played)
    return next(k for k, v in RES_POINTS.items() if v == points)


def pick(rows: list[Any], index: int) -> Any:
    return rows[index % len(rows)] if rows else None


# --- what is stored, and the invariants ---------------------------------------------------------


def stored_state(club: Club) -> tuple[Any, ...]:
    """Everything stored about the club's history (not the derived rows nor the audit log)."""
    tournaments = Tournament.objects.filter(club=club)
    return (
        list(Club.objects.filter(pk=club.pk).values_list(*(s.field for s in SETTINGS))),
        list(
            tournaments.order_by("id").values_list(
                "id", "name", "date", "sequence", "status", "rounds", "kind"
            )
        ),
        list(
            Entry.objects.filter(tournament__club=club)
            .order_by("id")
            .values_list("id", "number", "name", "member_id")
        ),
        list(
            Game.objects.filter(tournament__club=club)
            .order_by("id")
            .values_list(
                "id",
                "white_id",
                "black_id",
                "white_points",
                "black_points",
                "played",
                "moves",
                "headers",
            )
        ),
        list(
            Bye.objects.filter(tournament__club=club)
            .order_by("id")
            .values_list("id", "entry_id", "round", "points")
        ),
        list(
            Member.objects.filter(club=club)
            .order_by("id")
            .values_list("id", "name", "junior", "full_name_consent", "merged_into_id", "left")
        ),
        list(Merge.objects.filter(club=club).order_by("id").values_list("id", "undone")),
        list(Distinct.objects.filter(club=club).order_by("id").values_list("one_id", "other_id")),
        list(
            Evening.objects.filter(tournament__club=club)
            .order_by("id")
            .values_list("id", "paired_rounds")
        ),
        list(
            EveningPlayer.objects.filter(entry__tournament__club=club)
            .order_by("id")
            .values_list("id", "joined_round", "withdrawn_from", "seed_rating")
        ),
        list(
            EveningBoard.objects.filter(tournament__club=club)
            .order_by("id")
            .values_list("id", "game_id")
        ),
        list(
            GameAnalysis.objects.filter(game__tournament__club=club)
            .order_by("id")
            .values_list("id", "game_id")
        ),
        list(
            InitialEntry.objects.filter(club=club)
            .order_by("number")
            .values_list("name", "rating", "games", "member_id")
        ),
    )


def derived_state(club: Club) -> tuple[Any, ...]:
    return (
        sorted(
            RatingChange.objects.filter(tournament__club=club).values_list(
                "tournament_id", "member_id", "rating_before", "rating_after"
            )
        ),
        sorted(
            CurrentRating.objects.filter(member__club=club).values_list(
                "member_id", "rating", "games"
            )
        ),
        sorted(
            CpiEntry.objects.filter(member__club=club).values_list(
                "member_id", "game_id", "cpi_after"
            )
        ),
    )


def replay_differences(club: Club) -> tuple[int, int, int]:
    """(rating changes, current ratings, ledger rows) a full rebuild would change; nothing is
    kept. The ledger is rebuilt from scratch, every game scored again whatever is stored: the
    store, written incrementally, must equal it."""
    with transaction.atomic():
        ratings = rebuild_ratings(club, reason="state machine check", expect_difference=False)
        ledger = rebuild_cpi(club, from_scratch=True)
        transaction.set_rollback(True)
    return ratings.changes_differing, ratings.ratings_changed, ledger.entries_differing


def persons_with_two_names(club: Club) -> list[tuple[int, int]]:
    """(tournament, person) twice in one tournament, persons resolved through merges."""
    who = resolve_members(club)
    seen: set[tuple[int, int]] = set()
    twice = []
    for tournament_id, member_id in (
        Entry.objects.filter(tournament__club=club)
        .exclude(member=None)
        .values_list("tournament_id", "member_id")
    ):
        key = (tournament_id, who[member_id])
        if key in seen:
            twice.append(key)
        seen.add(key)
    for member_id in (
        InitialEntry.objects.filter(club=club)
        .exclude(member=None)
        .values_list("member_id", flat=True)
    ):
        key = (0, who[member_id])  # tournament 0: the initial list
        if key in seen:
            twice.append(key)
        seen.add(key)
    return twice


def dangling_rows(club: Club) -> list[str]:
    """Derived rows that should not exist: of drafts, of members merged away, without games."""
    found = []
    merged = set(
        Member.objects.filter(club=club).exclude(merged_into=None).values_list("id", flat=True)
    )
    for row in RatingChange.objects.filter(tournament__club=club).select_related("tournament"):
        if row.tournament.status != TournamentStatus.PUBLISHED:
            found.append(f"rating change of draft tournament {row.tournament_id}")
        if row.member_id in merged:
            found.append(f"rating change of merged member {row.member_id}")
        if not row.tournament.is_rated:
            found.append(f"rating change of bughouse tournament {row.tournament_id}")
    for current in CurrentRating.objects.filter(member__club=club, member_id__in=merged):
        found.append(f"current rating of merged member {current.member_id}")
    for entry in CpiEntry.objects.filter(member__club=club).select_related("game__tournament"):
        if entry.member_id in merged:
            found.append(f"CPI entry of merged member {entry.member_id}")
        if entry.game.tournament.status != TournamentStatus.PUBLISHED:
            found.append(f"CPI entry of a draft's game {entry.game_id}")
        if not entry.game.tournament.is_rated:
            found.append(f"CPI entry of a bughouse game {entry.game_id}")
    published_unlinked = Entry.objects.filter(
        tournament__club=club, member=None, tournament__status=TournamentStatus.PUBLISHED
    )
    found += [f"published entry {e.id} linked to no member" for e in published_unlinked]
    return found


@dataclasses.dataclass(frozen=True)
class Imported:
    """A tournament the machine imported: the record as drawn, its date, its played games then."""

    tournament_id: int
    record: TournamentRecord
    date: dt.date
    games: list[tuple[str, str, int, int]]


def played_games(tournament: Tournament) -> list[tuple[str, str, int, int]]:
    """Its played games as names and points (what :func:`stored_twin` compares, the names as
    written)."""
    return sorted(
        Game.objects.filter(tournament=tournament, played=True).values_list(
            "white__name", "black__name", "white_points", "black_points"
        )
    )


# --- the machine ------------------------------------------------------------------------------


class ClubMachine(RuleBasedStateMachine):
    """One club per example, inside a savepoint rolled back at the end."""

    def __init__(self) -> None:
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()
        Club.objects.filter(slug="state-machine").delete()
        self.club = spec_cpi(create_club("State Machine", who=WHO, slug="state-machine"))
        self.counter = 0
        self.imports: list[Imported] = []  # what a later step may import again
        self.sizes = self.measure()

    @initialize(policy=st.sampled_from(("club", "fide")), separate_lists=st.booleans())
    def choose_settings(self, policy: str, separate_lists: bool) -> None:
        """The club's rating policy (spec R3: under FIDE's the junior flag counts) and its lists."""
        Club.objects.filter(pk=self.club.pk).update(policy=policy, separate_lists=separate_lists)
        self.club.refresh_from_db()

    def measure(self) -> dict[str, int]:
        """How many rows of each kind a rule can pick from (a rule with none is not drawn)."""
        club = self.club
        published = Tournament.objects.filter(club=club, status=TournamentStatus.PUBLISHED)
        return {
            "tournaments": Tournament.objects.filter(club=club).count(),
            "published": published.count(),
            "entries": Entry.objects.filter(tournament__club=club).count(),
            "members": Member.objects.filter(club=club).count(),
            "merged": Member.objects.filter(club=club).exclude(merged_into=None).count(),
            "games": Game.objects.filter(tournament__club=club).count(),
            "unanalysed": Game.objects.filter(
                tournament__in=published, played=True, analysis=None
            ).count(),
            "evenings": Evening.objects.filter(
                tournament__club=club, tournament__status=TournamentStatus.DRAFT
            ).count(),
            "evening_entries": EveningPlayer.objects.filter(entry__tournament__club=club).count(),
            "boards": EveningBoard.objects.filter(tournament__club=club).count(),
            "initial": InitialEntry.objects.filter(club=club).count(),
        }

    def teardown(self) -> None:
        try:  # at the end of each example: every view agrees with the store (crawl.py)
            assert_views_agree(self.club)
        finally:
            transaction.set_rollback(True)
            self.atomic.__exit__(None, None, None)

    # every step goes through here
    def attempt(self, action: Callable[[], object]) -> None:
        before, derived, audits = stored_state(self.club), derived_state(self.club), self.audits()
        step = action.__qualname__.split(".")[1]  # the rule: ClubMachine.<rule>.<locals>.<lambda>
        try:
            action()
            event(f"{step}: done")  # pytest --hypothesis-show-statistics counts them
        except ClubratingError:
            event(f"{step}: refused")
            assert stored_state(self.club) == before, "a refused step changed the stored history"
            assert derived_state(self.club) == derived, "a refused step changed the derived data"
            assert self.audits() == audits, "a refused step left an audit entry"
            return
        finally:
            self.sizes = self.measure()
        if stored_state(self.club) != before:
            assert self.audits() > audits, "a change of the stored history left no audit entry"

    def audits(self) -> int:
        return AuditEntry.objects.filter(club=self.club).count()

    def tournaments(self, **filters: Any) -> list[Tournament]:
        return list(Tournament.objects.filter(club=self.club, **filters).order_by("id"))

    def entries(self, **filters: Any) -> list[Entry]:
        return list(Entry.objects.filter(tournament__club=self.club, **filters).order_by("id"))

    def members(self) -> list[Member]:
        return list(Member.objects.filter(club=self.club).order_by("id"))

    # imports
    @rule(
        names=st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True),
        drawn=games_strategy,
        date=st.sampled_from(DATES),
        fmt=st.sampled_from(FORMATS),
        then=st.sampled_from(THEN),
        control=st.sampled_from(TimeControl),
        juniors=st.booleans(),
        kind=st.sampled_from((TournamentKind.CHESS,) * 3 + (TournamentKind.BUGHOUSE,)),
    )
    def import_file(
        self,
        names: list[str],
        drawn: list[tuple[int, int, int, str]],
        date: dt.date,
        fmt: str,
        then: str,
        control: TimeControl,
        juniors: bool,
        kind: TournamentKind,
    ) -> None:
        """An import (chess, or a bughouse night: never rated), and what the arbiter does next."""
        self.counter += 1
        drawn_record = tournament_record(names, drawn, date, f"Event {self.counter}")
        if drawn_record is None:
            return
        written = dataclasses.replace(drawn_record, time_control=control, kind=kind)
        record, digest = as_format(written, fmt)
        assert record.kind is kind, f"a {fmt} file lost the tournament's kind"
        imported: list[Tournament] = []
        self.attempt(
            lambda: imported.append(
                import_tournament(
                    self.club,
                    record,
                    who=WHO,
                    content_hash=digest,
                    date=date,
                    has_juniors=juniors,
                    today=TODAY,
                )
            )
        )
        if imported:
            self.imports.append(Imported(imported[0].id, written, date, played_games(imported[0])))
            self.confirm(imported[0], then)

    @precondition(lambda self: bool(self.imports))
    @rule(
        i=ids,
        fmt=st.sampled_from(FORMATS),
        shift=st.sampled_from((0, 0, 1, -1)),
        force=st.booleans(),
        then=st.sampled_from(THEN),
    )
    def import_again(self, i: int, fmt: str, shift: int, force: bool, then: str) -> None:
        """A tournament stored already, imported again (another format, a day off): refused as the
        same tournament while it still is, then maybe forced (audited as forced)."""
        earlier = pick(self.imports, i)
        record, digest = as_format(earlier.record, fmt)
        when = earlier.date + dt.timedelta(days=shift)
        still = Tournament.objects.filter(
            pk=earlier.tournament_id,
            date__range=(when - dt.timedelta(days=1), when + dt.timedelta(days=1)),
        ).first()
        # a file without a played game is never taken for a stored one
        # (docs/names-and-duplicates.md)
        expect_twin = (
            still is not None
            and bool(earlier.games)
            and played_games(still) == earlier.games
            and when <= TODAY
            and not (
                digest and Tournament.objects.filter(club=self.club, content_hash=digest).exists()
            )
        )
        refusal: list[ClubratingError] = []
        imported: list[Tournament] = []

        def again(forced: bool) -> None:
            try:
                imported.append(
                    import_tournament(
                        self.club,
                        record,
                        who=WHO,
                        content_hash=digest,
                        date=when,
                        today=TODAY,
                        force=forced,
                    )
                )
            except ClubratingError as error:
                refusal.append(error)
                raise

        self.attempt(lambda: again(False))
        if expect_twin:
            assert imported == [] and isinstance(refusal[0], SameTournament), (
                f"tournament {earlier.tournament_id} imported "
                f"again was not refused as the same: {refusal}"
            )
        if force and isinstance(pick(refusal, 0), SameTournament):
            self.attempt(lambda: again(True))
            if imported:
                entry = (
                    AuditEntry.objects.filter(club=self.club, action="import")
                    .order_by("-id")
                    .first()
                )
                assert entry is not None and "forced" in entry.new, (
                    "a forced import was not audited as forced"
                )
        if imported:
            self.confirm(imported[0], then)

    def confirm(self, tournament: Tournament, then: str) -> None:
        if then != "draft":
            self.attempt(lambda: accept_exact(tournament, who=WHO))
        if then in ("all-new", "publish"):
            self.attempt(lambda: all_new_members(tournament, who=WHO))
        if then == "publish":
            self.attempt(lambda: tournament_services.publish(tournament, who=WHO))

    # names
    @precondition(lambda self: self.sizes["members"] > 0)
    @rule(e=ids, m=ids)
    def link(self, e: int, m: int) -> None:
        entry, member = pick(self.entries(), e), pick(self.members(), m)
        if entry is not None and member is not None:
            self.attempt(lambda: name_services.link(entry, member, who=WHO))

    @precondition(lambda self: self.sizes["entries"] > 0)
    @rule(e=ids, same_name=st.booleans())
    def new_member(self, e: int, same_name: bool) -> None:
        entry = pick(self.entries(), e)
        if entry is not None:
            name = None if same_name else f"{entry.name} Jr"
            self.attempt(lambda: name_services.new_member(entry, who=WHO, name=name))

    @precondition(lambda self: self.sizes["entries"] > 0)
    @rule(e=ids)
    def unlink(self, e: int) -> None:
        entry = pick(self.entries(member__isnull=False), e)
        if entry is not None:
            self.attempt(lambda: name_services.unlink(entry, who=WHO))

    @precondition(lambda self: self.sizes["tournaments"] > 0)
    @rule(t=ids, all_new=st.booleans())
    def link_all(self, t: int, all_new: bool) -> None:
        tournament = pick(self.tournaments(), t)
        if tournament is not None:
            self.attempt(lambda: accept_exact(tournament, who=WHO))
            if all_new:
                self.attempt(lambda: all_new_members(tournament, who=WHO))

    # a tournament's life
    @precondition(lambda self: self.sizes["tournaments"] > 0)
    @rule(t=ids)
    def publish(self, t: int) -> None:
        tournament = pick(self.tournaments(), t)
        if tournament is not None:
            self.attempt(lambda: tournament_services.publish(tournament, who=WHO))

    @precondition(lambda self: self.sizes["published"] > 0)
    @rule(t=ids)
    def unpublish(self, t: int) -> None:
        tournament = pick(self.tournaments(), t)
        if tournament is not None:
            self.attempt(lambda: tournament_services.unpublish(tournament, who=WHO))

    @precondition(lambda self: self.sizes["games"] > 0)
    @rule(g=ids, result=st.sampled_from(RESULTS + ("--",)))
    def correct(self, g: int, result: str) -> None:
        game = pick(list(Game.objects.filter(tournament__club=self.club).order_by("id")), g)
        if game is not None:
            self.attempt(lambda: correct_result(game, result, who=WHO))

    @precondition(lambda self: self.sizes["games"] > 0)
    @rule(g=ids, white=st.booleans(), s=ids, result=st.sampled_from(RESULTS + ("--",)))
    def correct_by_name(self, g: int, white: bool, s: int, result: str) -> None:
        """A correction of a game found as the arbiter types it: the round and any spelling of
        one of its players' member (its name, a name written in another tournament)."""
        game = pick(
            list(
                Game.objects.filter(tournament__club=self.club)
                .select_related("white", "black", "tournament")
                .order_by("id")
            ),
            g,
        )
        entry = game.white if white else game.black
        if entry.member_id is None:
            return
        top = resolve_members(self.club)
        spellings = sorted(
            {
                name
                for name, member in Entry.objects.filter(
                    tournament__club=self.club, member__isnull=False
                ).values_list("name", "member_id")
                if top[member] == top[entry.member_id]
            }
            | {entry.member.name}
        )
        spelling = pick(spellings, s)
        round_names = Game.objects.filter(tournament=game.tournament, round=game.round).values_list(
            "white__name", "black__name"
        )
        by_alias = not any(is_exact(spelling, name) for pair in round_names for name in pair)
        only_this = by_alias and {top[m.id] for m in members_called(self.club, spelling)} == {
            top[entry.member_id]
        }
        found: list[Game] = []
        self.attempt(lambda: found.append(find_game(game.tournament, game.round, spelling)))
        if only_this:  # the spelling is this player's member's alone: it finds this game
            assert [g.id for g in found] == [game.id], (
                f"{spelling!r} found {found}, not game {game.id}"
            )
        if found:
            assert (found[0].tournament_id, found[0].round) == (game.tournament_id, game.round)
            self.attempt(lambda: correct_result(found[0], result, who=WHO))

    @precondition(lambda self: self.sizes["tournaments"] > 0)
    @rule(t=ids, date=st.sampled_from(DATES))
    def redate(self, t: int, date: dt.date) -> None:
        tournament = pick(self.tournaments(), t)
        if tournament is not None:
            self.attempt(lambda: change_date(tournament, date, who=WHO, today=TODAY))

    @precondition(lambda self: self.sizes["tournaments"] > 0)
    @rule(t=ids)
    def delete(self, t: int) -> None:
        tournament = pick(self.tournaments(), t)
        if tournament is not None:
            self.attempt(lambda: delete_tournament(tournament, who=WHO))

    # members
    @precondition(lambda self: self.sizes["members"] > 0)
    @rule(a=ids, b=ids)
    def merge(self, a: int, b: int) -> None:
        members = self.members()
        absorbed, into = pick(members, a), pick(members, b)
        if absorbed is not None:
            self.attempt(lambda: member_services.merge(absorbed, into, who=WHO))

    @precondition(lambda self: self.sizes["merged"] > 0)
    @rule(a=ids)
    def unmerge(self, a: int) -> None:
        member = pick(self.members(), a)
        if member is not None:
            self.attempt(lambda: member_services.unmerge(member, who=WHO))

    @precondition(lambda self: self.sizes["members"] > 0)
    @rule(a=ids, b=ids, undo=st.booleans())
    def distinct(self, a: int, b: int, undo: bool) -> None:
        members = self.members()
        one, other = pick(members, a), pick(members, b)
        if one is not None:
            self.attempt(lambda: mark_distinct(one, other, who=WHO, undo=undo))

    @precondition(lambda self: self.sizes["members"] > 0)
    @rule(a=ids, name=st.sampled_from(NAMES + ("Anna Berg-Cole",)))
    def rename(self, a: int, name: str) -> None:
        member = pick(self.members(), a)
        if member is not None:
            self.attempt(lambda: rename_member(member, name, who=WHO))

    @precondition(lambda self: self.sizes["members"] > 0)
    @rule(a=ids, junior=st.none() | st.booleans(), consent=st.none() | st.booleans())
    def flags(self, a: int, junior: bool | None, consent: bool | None) -> None:
        member = pick(self.members(), a)
        if member is not None:
            self.attempt(lambda: set_member_flags(member, who=WHO, junior=junior, consent=consent))

    @precondition(lambda self: self.sizes["members"] > 0)
    @rule(a=ids, day=st.sampled_from(LEFT_DAYS))
    def leave(self, a: int, day: dt.date) -> None:
        """A member left the club (a day after today is refused): off the list, history kept."""
        member = pick(self.members(), a)
        if member is not None:
            self.attempt(lambda: member_services.leave(member, day, who=WHO))

    @precondition(lambda self: self.sizes["members"] > 0)
    @rule(a=ids)
    def come_back(self, a: int) -> None:
        member = pick(self.members(), a)
        if member is not None:
            self.attempt(lambda: member_services.come_back(member, who=WHO))

    @rule(
        changes=st.dictionaries(
            st.sampled_from(sorted(RULE_VALUES)), st.integers(0, 1), min_size=1, max_size=2
        )
    )
    def change_settings(self, changes: dict[str, int]) -> None:
        """The club's rating rules changed (a start rating, K values, the policy...)."""
        texts = {key: RULE_VALUES[key][i] for key, i in changes.items()}
        self.attempt(lambda: change_settings(self.club, parse_settings(texts), who=WHO))
        self.club.refresh_from_db()

    @rule(zone=st.sampled_from(ZONES))
    def change_time_zone(self, zone: str) -> None:
        """The club's time zone changed: its dates shown differ, its numbers do not (no replay)."""
        rows = sorted(
            RatingChange.objects.filter(tournament__club=self.club).values_list("id", flat=True)
        )
        outcome: list[Any] = []
        self.attempt(
            lambda: outcome.append(
                change_settings(self.club, parse_settings({"time-zone": zone}), who=WHO)
            )
        )
        self.club.refresh_from_db()
        if outcome:
            assert outcome[0].rebuild is None, "a change of the time zone replayed the history"
            assert (
                sorted(
                    RatingChange.objects.filter(tournament__club=self.club).values_list(
                        "id", flat=True
                    )
                )
                == rows
            )

    @rule(
        names=st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True),
        ratings=st.lists(st.sampled_from((1350.0, 1600.0, 1900.0, 2450.0)), min_size=4, max_size=4),
        games=st.sampled_from((None, 3, 30)),
        then=st.sampled_from(("draft", "exact", "all-new")),
    )
    def seed_ratings(
        self, names: list[str], ratings: list[float], games: int | None, then: str
    ) -> None:
        """The club's initial list (ratings from before its first tournament), then its names
        confirmed."""
        listed = [
            ListedRating(name, rating, games, line)
            for line, (name, rating) in enumerate(zip(names, ratings), 1)
        ]
        self.attempt(
            lambda: initial_list.seed_ratings(self.club, listed, who=WHO, source="list.csv")
        )
        if then != "draft":
            self.attempt(lambda: initial_list.accept_exact_initial(self.club, who=WHO))
        if then == "all-new":
            self.attempt(lambda: initial_list.all_new_initial(self.club, who=WHO))

    @precondition(lambda self: self.sizes["initial"] > 0)
    @rule(r=ids, m=ids, action=st.sampled_from(("link", "unlink", "new")))
    def initial_row(self, r: int, m: int, action: str) -> None:
        row = pick(list(InitialEntry.objects.filter(club=self.club).order_by("number")), r)
        member = pick(self.members(), m)
        if action == "link" and member is not None:
            self.attempt(lambda: initial_list.link_initial(row, member, who=WHO))
        elif action == "unlink":
            self.attempt(lambda: initial_list.unlink_initial(row, who=WHO))
        elif action == "new":
            self.attempt(lambda: initial_list.new_member_initial(row, who=WHO))

    @precondition(lambda self: self.sizes["games"] > 0)
    @rule(g=ids, text=st.sampled_from(TYPED_MOVES), confirm=st.booleans())
    def type_moves(self, g: int, text: str, confirm: bool) -> None:
        """One game's moves typed: legal, illegal, or ending in a mate the result may contradict."""
        game = pick(list(Game.objects.filter(tournament__club=self.club).order_by("id")), g)
        if game is not None:
            self.attempt(lambda: moves.attach_typed_moves(game, text, who=WHO, confirm=confirm))

    @precondition(lambda self: self.sizes["games"] > 0)
    @rule(
        g=ids,
        result=st.sampled_from(("same", "same", "1-0", "0-1", "1/2-1/2")),
        accept=st.booleans(),
        decision=st.sampled_from(("none", "correct", "drop", "both")),
        misspell=st.booleans(),
    )
    def attach_pgn(self, g: int, result: str, accept: bool, decision: str, misspell: bool) -> None:
        """A PGN of one stored game attached: its result maybe another, White's name maybe
        misspelled."""
        game = pick(
            list(
                Game.objects.filter(tournament__club=self.club)
                .select_related("white", "black")
                .order_by("id")
            ),
            g,
        )
        if game is None:
            return
        stored = game_result_text(game)
        if result == "same":
            result = stored if stored in ("1-0", "0-1", "1/2-1/2") else "1-0"
        white = game.white.name + ("x" if misspell else "")
        text = (
            f'[Event "?"]\n[Round "{game.round}"]\n[White "{white}"]\n[Black "{game.black.name}"]\n'
            f'[Result "{result}"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n'
        )
        record = read_pgn(io.StringIO(text), "moves.pgn")
        self.attempt(
            lambda: moves.attach_pgn_moves(
                game.tournament,
                record,
                who=WHO,
                accept=accept,
                correct=decision in ("correct", "both"),
                drop=decision in ("drop", "both"),
            )
        )

    @precondition(lambda self: self.sizes["unanalysed"] > 0)
    @rule()
    def analyse(self) -> None:
        """Stored analyses (a recorded one, no engine) of the published games without one."""
        games = Game.objects.filter(
            tournament__club=self.club,
            played=True,
            analysis=None,
            tournament__status=TournamentStatus.PUBLISHED,
        )
        made = GameAnalysis.objects.bulk_create(
            [
                GameAnalysis(
                    game=game,
                    engine="Fake",
                    engine_version="1",
                    nodes=1000,
                    multipv=3,
                    facts=hanging_game(game.id).to_dict(),
                )
                for game in games
            ]
        )
        self.attempt(lambda: rebuild_ledger(self.club, len(made), 0, 0))

    # the evening paired here
    @rule(
        date=st.sampled_from(DATES),
        rounds=st.integers(1, 3),
        names=st.lists(st.sampled_from(NAMES), max_size=5, unique=True),
        then=st.sampled_from(("exact", "all-new", "all-new")),
        pair=st.booleans(),
        control=st.sampled_from(TimeControl),
    )
    def start_evening(
        self,
        date: dt.date,
        rounds: int,
        names: list[str],
        then: str,
        pair: bool,
        control: TimeControl,
    ) -> None:
        """An evening started, its players registered and confirmed, maybe its first round
        paired."""
        self.counter += 1
        started: list[Tournament] = []
        self.attempt(
            lambda: started.append(
                evening.start_evening(
                    self.club,
                    f"Evening {self.counter}",
                    date,
                    rounds,
                    who=WHO,
                    time_control=control.value,
                    today=TODAY,
                )
            )
        )
        for name in names:
            self.attempt(lambda: evening.register(started[0], name, who=WHO))
        self.confirm(started[0], then)
        if pair:
            self.attempt(lambda: evening.pair_next_round(started[0], who=WHO))

    def evenings(self) -> list[Tournament]:
        return self.tournaments(evening__isnull=False, status=TournamentStatus.DRAFT)

    @precondition(lambda self: self.sizes["evenings"] > 0)
    @rule(t=ids, name=st.sampled_from(NAMES), then=st.sampled_from(THEN[:3]))
    def register(self, t: int, name: str, then: str) -> None:
        tournament = pick(self.evenings(), t)
        if tournament is not None:
            self.attempt(lambda: evening.register(tournament, name, who=WHO))
            self.confirm(tournament, then)

    @precondition(lambda self: self.sizes["evenings"] > 0)
    @rule(t=ids)
    def pair(self, t: int) -> None:
        tournament = pick(self.evenings(), t)
        if tournament is not None:
            self.attempt(lambda: evening.pair_next_round(tournament, who=WHO))

    @precondition(lambda self: self.sizes["boards"] > 0)
    @rule(b=ids, result=st.sampled_from(RESULTS + ("--",)))
    def enter_result(self, b: int, result: str) -> None:
        board = pick(
            list(EveningBoard.objects.filter(tournament__club=self.club).order_by("id")), b
        )
        if board is not None:
            self.attempt(lambda: evening.enter_result(board, result, who=WHO))

    @precondition(lambda self: self.sizes["evenings"] > 0)
    @rule(
        t=ids,
        results=st.lists(st.sampled_from(RESULTS), min_size=3, max_size=3),
        pair=st.booleans(),
    )
    def finish_round(self, t: int, results: list[str], pair: bool) -> None:
        """Every open board of an evening's round gets its result, then maybe the next round is
        paired."""
        tournament = pick(self.evenings(), t)
        open_boards = EveningBoard.objects.filter(tournament=tournament, game=None).order_by(
            "board"
        )
        for board, result in zip(open_boards, results):
            self.attempt(lambda: evening.enter_result(board, result, who=WHO))
        if pair:
            self.attempt(lambda: evening.pair_next_round(tournament, who=WHO))

    @precondition(lambda self: self.sizes["evening_entries"] > 0)
    @rule(e=ids)
    def withdraw(self, e: int) -> None:
        entry = pick(self.entries(evening__isnull=False), e)
        if entry is not None:
            self.attempt(lambda: evening.withdraw(entry, who=WHO))

    @precondition(lambda self: self.sizes["evening_entries"] > 0)
    @rule(e=ids, rnd=st.integers(1, 3))
    def request_bye(self, e: int, rnd: int) -> None:
        entry = pick(self.entries(evening__isnull=False), e)
        if entry is not None:
            self.attempt(lambda: evening.request_bye(entry, rnd, who=WHO))

    @precondition(lambda self: self.sizes["evenings"] > 0)
    @rule(t=ids)
    def publish_evening(self, t: int) -> None:
        tournament = pick(self.evenings(), t)
        if tournament is not None:
            self.attempt(lambda: evening.publish_evening(tournament, who=WHO))

    # after every step
    @invariant()
    def ratings_and_ledger_equal_a_replay(self) -> None:
        assert replay_differences(self.club) == (0, 0, 0)

    @invariant()
    def ratings_equal_the_independent_oracle(self) -> None:
        assert oracle_differences(self.club) == []

    @invariant()
    def no_person_holds_two_names_in_a_tournament(self) -> None:
        assert persons_with_two_names(self.club) == []

    @invariant()
    def no_derived_row_names_what_it_should_not(self) -> None:
        assert dangling_rows(self.club) == []


MACHINE_SETTINGS = settings(
    max_examples=12,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_any_sequence_of_arbiter_actions_keeps_the_numbers_right(db: None) -> None:
    run_state_machine_as_test(ClubMachine, settings=MACHINE_SETTINGS)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_import_format_reads_back_the_drawn_tournament(fmt: str) -> None:
    """The machine's files are real ones: written and read back, they hold the drawn games."""
    record = tournament_record(
        ["Anna Berg", "Ben Cole", "Cara Dunn"],
        [(1, 0, 1, "1-0"), (2, 1, 2, "=")],
        DATES[0],
        "Event",
    )
    assert record is not None
    read, _ = as_format(record, fmt)
    assert [(p.round, p.white_points, p.black_points) for p in read.pairings] == [
        (1, 2, 0),
        (2, 1, 1),
    ]
