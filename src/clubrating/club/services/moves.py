"""Moves into games that are stored already: a PGN for a tournament, or one game typed.

A tournament imported from a TRF, a CSV, the typed form or an evening has results and
no moves. :func:`plan_pgn_moves` matches each game of a PGN file to a stored game of
the tournament by its round and its two players (an entry's name, or any name its
member is known under; other spellings go through the matcher and are proposals the
arbiter confirms, R10). :func:`attach_pgn_moves` stores the moves of the matched games
in one transaction, once every proposal is accepted and every game whose result
differs is decided (the result corrected by a full replay, or those moves dropped);
a game matching no pairing, or two, is listed and not stored. :func:`attach_typed_moves`
stores one game's typed moves. Moves are stored as a PGN import stores them (the same
movetext and kept tags), and a published tournament's new moves are analysed.

The arbiter corrects a game's moves: :func:`replace_typed_moves` and :func:`remove_moves`
change them in one transaction with what derives from them: the game's analysis is deleted
(it no longer counts), the CPI ledger rebuilt without it (``club.derived.ledger.rebuild_cpi``), the
audit entry keeps the old moves and the new, and new moves are queued for analysis.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, cast

from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.derived.ledger import rebuild_cpi
from clubrating.club.store.locking import history_write
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.read.members import names_known, resolve_members
from clubrating.club.store.locking import reread
from django.db.models import Q

from clubrating.club.store.models import Entry, Game, GameAnalysis, MovesSubmission, Tournament
from clubrating.club.services.outcome import Outcome
from clubrating.club.services.tournaments import correct_result
from clubrating.club.store.signals import moves_attached
from clubrating.errors import InputError, Refused, Text
from clubrating.formats.movetext import TypedMoves, read_typed_moves
from clubrating.formats.records import Pairing, TournamentRecord
from clubrating.formats.results import pgn_result
from clubrating.identity.compare import words
from clubrating.identity.match import Matcher, RosterEntry
from clubrating.identity.same import is_exact
from clubrating.words import Nn_

# The states of a players' submission through a moves link (club/services/moves_links.py): waiting
# for the arbiter, and closed because the arbiter brought the game's moves some other way.
SUBMISSION_PENDING, SUBMISSION_SUPERSEDED = "pending", "superseded"


class Status:
    """How a game of the file found its stored game."""

    EXACT = "exact"  # both names written as stored (or as a name the member is known under)
    PROPOSAL = "proposal"  # at least one name found by the matcher: the arbiter confirms
    UNMATCHED = "unmatched"  # no stored game of that round with these two players
    AMBIGUOUS = "ambiguous"  # two stored games or more
    TWICE = "twice"  # two games of the file found the same stored game
    HAS_MOVES = "has-moves"  # the stored game has moves already (kept)

    STORABLE = (EXACT, PROPOSAL)


@dataclass(frozen=True)
class FileGame:
    """One game of the file and what it was matched to."""

    index: int  # 1-based, in file order
    line: int | None
    round: int | None  # None: the file gives no Round tag
    white: str
    black: str
    result: str  # the file's (1-0, 0-1, 1/2-1/2)
    status: str
    game_id: int | None = None
    stored: str | None = None  # the stored game's players and result, for the side-by-side view
    stored_result: str | None = None
    reasons: tuple[str, ...] = ()
    candidates: tuple[int, ...] = ()

    @property
    def differs(self) -> bool:
        return self.status in Status.STORABLE and self.stored_result != self.result

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "line": self.line,
            "round": self.round,
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "status": self.status,
            "game_id": self.game_id,
            "stored": self.stored,
            "stored_result": self.stored_result,
            "differs": self.differs,
            "reasons": list(self.reasons),
            "candidates": list(self.candidates),
        }


@dataclass(frozen=True)
class MovesPlan:
    """What a PGN file would attach to a tournament; nothing of it is stored yet."""

    tournament_id: int
    source: str
    games: tuple[FileGame, ...]
    pairings: tuple[Pairing, ...] = field(repr=False, default=())

    def of(self, status: str) -> list[FileGame]:
        return [g for g in self.games if g.status == status]

    @property
    def differing(self) -> list[FileGame]:
        return [g for g in self.games if g.differs]

    def as_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament_id,
            "file": self.source,
            "games": [g.as_dict() for g in self.games],
        }


class Undecided(Refused):
    """Proposals not accepted or differing results not decided: nothing was stored."""

    def __init__(self, plan: MovesPlan, message: Text) -> None:
        self.plan = plan
        super().__init__(message)


class NeedsConfirmation(Refused):
    """Typed moves end in a position the stored result contradicts: the arbiter confirms."""


# --- matching ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Named:
    exact: bool
    reason: str


def _names_of(tournament: Tournament) -> tuple[list[Entry], dict[int, set[str]]]:
    """The tournament's entries and, for each, every name it is known under."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    top, known = resolve_members(tournament.club), names_known(tournament.club)
    names = {
        e.id: {e.name} | (known.get(top.get(e.member_id, -1), set()) if e.member_id else set())
        for e in entries
    }
    return entries, names


def _entries_called(name: str, names: dict[int, set[str]], matcher: Matcher) -> dict[int, _Named]:
    """Entry id -> how ``name`` names it: exactly, or as the matcher proposes it."""
    exact = {
        entry: _Named(True, "")
        for entry, spellings in names.items()
        if any(is_exact(name, spelling) for spelling in spellings)
    }
    if exact:
        return exact
    try:
        proposals = matcher.propose(name)
    except InputError:
        return {}
    return {
        cast(int, p.key): _Named(
            False, f"{name!r} is {p.member!r}? {p.score:.0f}: {', '.join(words(p.reasons))}"
        )
        for p in proposals
    }


def plan_pgn_moves(tournament: Tournament, record: TournamentRecord) -> MovesPlan:
    """Match every game of ``record`` (a PGN file read by formats.pgn) to a stored game."""
    if not tournament.is_rated:
        raise Refused(
            gettext_noop("'%(name)s' is a bughouse tournament: its games have no moves to analyse"),
            name=tournament.name,
        )
    entries, names = _names_of(tournament)
    matcher = Matcher(
        [RosterEntry(e.id, e.name, tuple(sorted(names[e.id] - {e.name}))) for e in entries]
    )
    numbers = {p.number: p.name for p in record.players}
    stored = list(Game.objects.filter(tournament=tournament).select_related("white", "black"))
    found = []
    for index, pairing in enumerate(record.pairings, start=1):
        tags = dict(pairing.headers)
        round_ = pairing.round if tags.get("Round", "?").strip() not in ("", "?", "-") else None
        white, black = numbers[pairing.white], numbers[pairing.black]
        found.append(
            _match(
                index,
                pairing,
                round_,
                white,
                black,
                stored,
                _entries_called(white, names, matcher),
                _entries_called(black, names, matcher),
            )
        )
    twice: Counter[int | None] = Counter(g.game_id for g in found if g.game_id is not None)
    games = tuple(_final_status(g, twice, stored) for g in found)
    return MovesPlan(tournament.id, record.source or "<pgn>", games, tuple(record.pairings))


def _match(
    index: int,
    pairing: Pairing,
    round_: int | None,
    white: str,
    black: str,
    stored: list[Game],
    by_white: dict[int, _Named],
    by_black: dict[int, _Named],
) -> FileGame:
    result = pgn_result(pairing.white_points, pairing.black_points)
    base = FileGame(index, pairing.line, round_, white, black, result, Status.UNMATCHED)
    candidates = [
        (g, by_white[g.white_id], by_black[g.black_id])
        for g in stored
        if (round_ is None or g.round == round_)
        and g.white_id in by_white
        and g.black_id in by_black
    ]
    exact = [c for c in candidates if c[1].exact and c[2].exact]
    chosen = exact if exact else candidates
    if not chosen:
        return base
    if len(chosen) > 1:
        return _with(base, status=Status.AMBIGUOUS, candidates=tuple(g.id for g, _, _ in chosen))
    game, named_white, named_black = chosen[0]
    reasons = tuple(n.reason for n in (named_white, named_black) if not n.exact)
    return _with(
        base,
        status=Status.PROPOSAL if reasons else Status.EXACT,
        game_id=game.id,
        reasons=reasons,
        stored=f"round {game.round}{'' if game.board is None else f' board {game.board}'}: "
        f"{game.white.name} - {game.black.name} {game_result_text(game)}",
        stored_result=game_result_text(game),
    )


def _with(game: FileGame, **changes: Any) -> FileGame:
    return FileGame(**{**game.__dict__, **changes})


def _final_status(game: FileGame, twice: Counter[int | None], stored: list[Game]) -> FileGame:
    if game.game_id is None:
        return game
    if twice[game.game_id] > 1:
        return _with(game, status=Status.TWICE)
    if next(g for g in stored if g.id == game.game_id).moves.strip():
        return _with(game, status=Status.HAS_MOVES)
    return game


# --- storing -------------------------------------------------------------------------------


def attach_pgn_moves(
    tournament: Tournament,
    record: TournamentRecord,
    *,
    who: str,
    accept: bool | Collection[int] = False,
    correct: bool | Collection[int] = False,
    drop: bool | Collection[int] = False,
) -> tuple[Outcome, MovesPlan]:
    """Store the moves of the file's matched games, all in one transaction.

    ``accept``: the proposals accepted (True: all; else the file's game indices);
    ``correct`` / ``drop``: the games whose result differs, corrected to the file's
    (full replay, audited) or whose moves are dropped. Anything left undecided
    stores nothing (:class:`Undecided`)."""
    with history_write(tournament.club_id):
        reread(tournament)
        plan = plan_pgn_moves(tournament, record)
        chosen = {
            g.index: _decision(g, accept, correct, drop)
            for g in plan.games
            if g.status in Status.STORABLE
        }
        pending = [g for g in plan.games if g.index in chosen and chosen[g.index] is None]
        if pending:
            raise Undecided(plan, _pending_message(pending))
        stored = dropped = corrected = 0
        for game in plan.games:
            decision = chosen.get(game.index)
            if decision is None:
                continue
            row = Game.objects.select_related("white", "black", "tournament").get(
                id=cast(int, game.game_id)
            )
            if decision == "drop":
                audit.record(
                    tournament.club,
                    who,
                    "drop-moves",
                    _target(row),
                    old={"result": game.stored_result},
                    new={"file": plan.source, "result": game.result},
                    summary=Text(
                        gettext_noop("the file's result differs; its moves were not stored")
                    ),
                )
                dropped += 1
                continue
            if decision == "correct":
                correct_result(row, game.result, who=who)
                corrected += 1
            _store(
                row,
                plan.pairings[game.index - 1],
                who=who,
                source=plan.source,
                reasons=game.reasons,
            )
            stored += 1
        if stored and tournament.is_published:
            moves_attached.send(sender=Tournament, tournament=tournament)
    return Outcome(_stored_message(plan, stored, corrected, dropped)), plan


def _decision(
    game: FileGame,
    accept: bool | Collection[int],
    correct: bool | Collection[int],
    drop: bool | Collection[int],
) -> str | None:
    """ "store", "correct" or "drop" for a matched game, or None while it waits for the arbiter."""

    def chosen(choice: bool | Collection[int]) -> bool:
        return choice is True or (not isinstance(choice, bool) and game.index in choice)

    if game.status == Status.PROPOSAL and not chosen(accept):
        return None
    if not game.differs:
        return "store"
    if chosen(correct) and chosen(drop):
        raise InputError(
            gettext_noop(
                "game %(index)s of the file: correct its result or drop its moves, not both"
            ),
            index=game.index,
        )
    return "correct" if chosen(correct) else "drop" if chosen(drop) else None


def _pending_message(pending: list[FileGame]) -> Text:
    proposals = [g for g in pending if g.status == Status.PROPOSAL]
    differing = [g for g in pending if g.differs and g not in proposals]
    said = [
        Text(
            Nn_("%(count)s name proposal to confirm", "%(count)s name proposals to confirm"),
            count=len(proposals),
        )
    ] * bool(proposals) + [
        Text(
            Nn_(
                "%(count)s result differing from the stored one",
                "%(count)s results differing from the stored one",
            ),
            count=len(differing),
        )
    ] * bool(differing)
    what = (
        said[0]
        if len(said) == 1
        else Text(gettext_noop("%(one)s and %(other)s"), one=said[0], other=said[1])
    )
    return Text(
        gettext_noop(
            "nothing stored: %(what)s (accept the proposals; correct the results or drop those "
            "moves)"
        ),
        what=what,
    )


def _stored_message(plan: MovesPlan, stored: int, corrected: int, dropped: int) -> Text:
    left = [g for g in plan.games if g.status not in Status.STORABLE]
    parts = [
        Text(Nn_("moves of %(count)s game stored", "moves of %(count)s games stored"), count=stored)
    ]
    if corrected:
        parts.append(
            Text(Nn_("%(count)s result corrected", "%(count)s results corrected"), count=corrected)
        )
    if dropped:
        parts.append(
            Text(
                Nn_("moves of %(count)s game dropped", "moves of %(count)s games dropped"),
                count=dropped,
            )
        )
    if left:
        parts.append(
            Text(
                Nn_(
                    "%(count)s game of the file not stored (no single pairing, or moves already)",
                    "%(count)s games of the file not stored (no single pairing, or moves already)",
                ),
                count=len(left),
            )
        )
    said = parts[0]
    for part in parts[1:]:
        said = Text("%(first)s; %(then)s", first=said, then=part)  # a separator, not a sentence
    return said


def _target(game: Game) -> str:
    board = "" if game.board is None else f" board {game.board}"
    return (
        f"tournament {game.tournament_id} round {game.round}{board}: "
        f"{game.white.name} - {game.black.name}"
    )


def _store(
    game: Game,
    pairing: Pairing,
    *,
    who: str,
    source: str,
    reasons: tuple[str, ...] = (),
    from_players: bool = False,
) -> None:
    """The pairing's moves and kept tags into the stored game, as a PGN import stores them.

    Moves the arbiter brought (a PGN, a typed scoresheet) close the players' submissions still
    waiting for this game: they are marked superseded, not left pending (the moves link's page
    says the game's moves are stored). Moves from the players' submissions are settled by
    their caller (accepted, set aside)."""
    _save_moves(game, pairing, from_players=from_players)
    audit.record(
        game.tournament.club,
        who,
        "attach-moves",
        _target(game),
        new={"file": source, "line": pairing.line, **({"names": list(reasons)} if reasons else {})},
        summary=Text(gettext_noop("names confirmed: %(names)s"), names="; ".join(reasons))
        if reasons
        else "",
    )


def _save_moves(game: Game, pairing: Pairing, *, from_players: bool = False) -> None:
    game.moves, game.headers = pairing.moves or "", dict(pairing.headers)
    game.save(update_fields=["moves", "headers"])
    if not from_players:
        MovesSubmission.objects.filter(
            Q(link__game=game) | Q(link__evening_board__game=game), state=SUBMISSION_PENDING
        ).update(state=SUBMISSION_SUPERSEDED)


def attach_typed_moves(
    game: Game, text: str, *, who: str, confirm: bool = False, from_players: bool = False
) -> Outcome:
    """Store one game's typed moves (formats.movetext) with the tags a PGN import keeps.

    Moves ending in a position the stored result contradicts are refused unless
    ``confirm`` (:class:`NeedsConfirmation`); a game stored with moves keeps them."""
    moves = read_typed_moves(text)
    with history_write(game.tournament.club_id):
        reread(game)
        game = Game.objects.select_related("white", "black", "tournament").get(id=game.id)
        if game.moves.strip():
            raise Refused(
                gettext_noop(
                    "round %(round)s %(name)s - %(name2)s has its moves already: correct them "
                    "with --replace or --remove, or on the arbiter's page of the game"
                ),
                round=game.round,
                name=game.white.name,
                name2=game.black.name,
            )
        if not game.played:
            raise Refused(
                gettext_noop(
                    "round %(round)s %(name)s - %(name2)s is stored as not played "
                    "(%(value)s): correct its result first"
                ),
                round=game.round,
                name=game.white.name,
                name2=game.black.name,
                value=game_result_text(game),
            )
        why = _contradiction(game, moves, confirm)
        tournament = game.tournament
        pairing = _typed_pairing(game, moves)
        _store(
            game,
            pairing,
            who=who,
            source="typed",
            reasons=(f"confirmed: {why}",) if why else (),
            from_players=from_players,
        )
        if tournament.is_published:
            moves_attached.send(sender=Tournament, tournament=tournament)
    return Outcome(
        Text(
            Nn_(
                "round %(round)s %(white)s - %(black)s: %(count)s half-move stored",
                "round %(round)s %(white)s - %(black)s: %(count)s half-moves stored",
            ),
            round=game.round,
            white=game.white.name,
            black=game.black.name,
            count=moves.plies,
        )
    )


def _contradiction(game: Game, moves: TypedMoves, confirm: bool) -> Text | None:
    """Why the moves end against the game's result (None: they do not), refused unless
    ``confirm``."""
    why = moves.ends_contradicting(game.white_points, game.black_points)
    if why is not None and not confirm:
        raise NeedsConfirmation(
            gettext_noop("%(why)s (%(result)s): confirm to store these moves as they are"),
            why=why,
            result=game_result_text(game),
        )
    return why


def _typed_pairing(game: Game, moves: TypedMoves) -> Pairing:
    """Typed moves as a PGN import would bring them: the movetext and the Seven Tag Roster."""
    result = game_result_text(game)
    tournament = game.tournament
    board = "" if game.board is None else f".{game.board}"
    return Pairing(
        round=game.round,
        white=0,
        black=0,
        white_points=game.white_points,
        black_points=game.black_points,
        moves=f"{moves.movetext} {result}",
        headers=(
            ("Event", tournament.name),
            ("Site", "?"),
            ("Date", f"{tournament.date:%Y.%m.%d}"),
            ("Round", f"{game.round}{board}"),
            ("White", game.white.name),
            ("Black", game.black.name),
            ("Result", result),
        ),
    )


# --- corrections ---------------------------------------------------------------------------


def _stored_game(game: Game) -> Game:
    """The game as stored now, with moves (read under the club's lock)."""
    reread(game)
    game = Game.objects.select_related("white", "black", "tournament").get(id=game.id)
    if not game.moves.strip():
        raise Refused(
            gettext_noop(
                "round %(round)s %(name)s - %(name2)s has no moves to correct: add them "
                "(clubrating moves without --replace, or the game's page)"
            ),
            round=game.round,
            name=game.white.name,
            name2=game.black.name,
        )
    return game


def _forget_analysis(game: Game) -> None:
    """The game's analysis no longer counts: deleted, and the CPI ledger rebuilt without it."""
    GameAnalysis.objects.filter(game=game).delete()
    rebuild_cpi(game.tournament.club)


def replace_typed_moves(game: Game, text: str, *, who: str, confirm: bool = False) -> Outcome:
    """Replace a game's stored moves by typed ones (checked as :func:`attach_typed_moves` checks
    them), in one transaction: the old analysis deleted, the CPI ledger rebuilt, the audit entry
    (old -> new moves), the new moves queued for analysis."""
    moves = read_typed_moves(text)
    with history_write(game.tournament.club_id):
        game = _stored_game(game)
        why = _contradiction(game, moves, confirm)
        pairing = _typed_pairing(game, moves)
        old = game.moves
        if _moves_words(old) == moves.movetext.split():
            raise Refused(
                gettext_noop(
                    "round %(round)s %(name)s - %(name2)s has these moves already: nothing changed"
                ),
                round=game.round,
                name=game.white.name,
                name2=game.black.name,
            )
        _save_moves(game, pairing)
        _forget_analysis(game)
        audit.record(
            game.tournament.club,
            who,
            "replace-moves",
            _target(game),
            old={"moves": old},
            new={"moves": game.moves, **({"confirmed": str(why)} if why else {})},
            summary=Text(gettext_noop("moves replaced; their analysis is made again")),
        )
        if game.tournament.is_published:
            moves_attached.send(sender=Tournament, tournament=game.tournament)
    return Outcome(
        Text(
            Nn_(
                "round %(round)s %(white)s - %(black)s: the moves replaced by %(count)s half-move",
                "round %(round)s %(white)s - %(black)s: the moves replaced by %(count)s half-moves",
            ),
            round=game.round,
            white=game.white.name,
            black=game.black.name,
            count=moves.plies,
        )
    )


def remove_moves(game: Game, *, who: str) -> Outcome:
    """Remove a game's stored moves (its result stays), in one transaction: the analysis
    deleted, the CPI ledger rebuilt, the audit entry keeping the old moves."""
    with history_write(game.tournament.club_id):
        game = _stored_game(game)
        old = game.moves
        game.moves = ""
        game.save(update_fields=["moves"])
        _forget_analysis(game)
        audit.record(
            game.tournament.club,
            who,
            "remove-moves",
            _target(game),
            old={"moves": old},
            new={"moves": ""},
            summary=Text(gettext_noop("moves removed; the result stays")),
        )
    return Outcome(
        Text(
            gettext_noop(
                "round %(round)s %(white)s - %(black)s: the moves removed, the result stays"
            ),
            round=game.round,
            white=game.white.name,
            black=game.black.name,
        )
    )


def _moves_words(movetext: str) -> list[str]:
    """The words of stored movetext without its result: two texts of the same moves and clocks
    written by :func:`_typed_pairing` compare equal."""
    words = movetext.split()
    return words[:-1] if words and words[-1] in ("1-0", "0-1", "1/2-1/2", "*") else words
