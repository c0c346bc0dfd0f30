"""The player card as the pages, exports and API show it: the pure card
(:mod:`clubrating.rating.card`) with names as this viewer may see them (R16, R17)
and links; one plain document that the HTML, the CSV and the JSON all read."""

from __future__ import annotations

from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy

from clubrating.club.derived.card import player_card
from clubrating.club.store.models import Member
from clubrating.rating.card import Card, Line, Status, Streak, Tally
from clubrating.web.access import ClubAccess
from clubrating.web.labels import label
from clubrating.web.links import game_href
from clubrating.web.reading import figure

RESULT = {2: "1", 1: "½", 0: "0"}
FORFEIT_RESULT = {2: "+", 1: "=", 0: "−"}  # chess-results' marks of a game won or lost unplayed
Flags = dict[int, tuple[str, bool, bool]]


def card_document(access: ClubAccess, hist: dict[str, Any], flags: Flags) -> dict[str, Any]:
    """Every figure of the card, JSON-ready; opponents named as this viewer may see them."""
    card, roots = player_card(access.club, hist)
    names = _names(access, card, roots, flags)
    tournaments = {t["tournament_id"]: t["tournament"] for t in hist["tournaments"]}

    def opponent(member_id: int | None) -> dict[str, Any]:
        return {"opponent_id": member_id, "opponent": names.get(member_id, "") if member_id else ""}

    def line(l: Line) -> dict[str, Any]:
        return {
            "tournament_id": l.tournament_id,
            "tournament": tournaments.get(l.tournament_id, ""),
            "date": l.date.isoformat(),
            "round": l.round,
            "colour": l.colour,
            **opponent(l.opponent),
            "opponent_rating": l.opponent_rating,
            "result": (FORFEIT_RESULT if l.status is Status.FORFEIT else RESULT)[l.points],
            "score": l.points / 2,
            "rated": l.status is Status.RATED,
            "status": l.status.value,
            "expected": l.expected,
            "change": l.change,
            "game_id": l.game_id,
        }

    return {
        "games": [line(l) for l in card.lines],
        "performances": [
            {
                "tournament_id": tid,
                "tournament": tournaments.get(tid, ""),
                "rating": p.rating,
                "average_opponent": p.average_opponent,
                "games": p.games,
                "score": p.score,
            }
            for tid, p in card.performances.items()
        ],
        "peaks": {
            lst: {
                "rating": p.rating,
                "date": p.date.isoformat() if p.date else None,
                "tournament_id": p.tournament_id,
            }
            for lst, p in sorted(card.peaks.items())
        },
        "colours": {c: _tally(t) for c, t in card.colours.items()},
        "head_to_head": [
            {
                **opponent(h.opponent),
                **_tally(h.tally),
                "last_date": h.last_date.isoformat(),
                "last_tournament_id": h.last_tournament_id,
            }
            for h in card.head_to_head
        ],
        "streaks": {"winning": _streak(card.winning), "unbeaten": _streak(card.unbeaten)},
        "best_wins": [line(l) for l in card.best_wins],
    }


def _names(
    access: ClubAccess, card: Card, roots: dict[int, int], flags: Flags
) -> dict[int | None, str]:
    """Opponent (the member now) -> shown name; a merged opponent's name is the active member's."""
    wanted = {l.opponent for l in card.lines if l.opponent is not None}
    known = {m: f for m, f in flags.items() if m in wanted}
    missing = wanted - known.keys()
    if missing:
        known.update(
            {
                m: (n, j, c)
                for m, n, j, c in Member.objects.filter(id__in=missing).values_list(
                    "id", "name", "junior", "full_name_consent"
                )
            }
        )
    return {m: access.name(n, junior=j, consent=c, member_id=m) for m, (n, j, c) in known.items()}


def _tally(t: Tally) -> dict[str, Any]:
    return {
        "games": t.games,
        "wins": t.wins,
        "draws": t.draws,
        "losses": t.losses,
        "score": t.score,
    }


def _streak(s: Streak) -> dict[str, Any]:
    return {
        "length": s.length,
        "from": s.first.date.isoformat() if s.first else None,
        "to": s.last.date.isoformat() if s.last else None,
    }


# --- HTML ------------------------------------------------------------------------------------

WHY = {
    Status.PROVISIONAL_OPPONENT.value: gettext_lazy("not rated: provisional opponent"),
    Status.FORFEIT.value: gettext_lazy("forfeit: not rated"),
    Status.BYE.value: gettext_lazy("bye: not rated"),
    Status.BUGHOUSE.value: gettext_lazy("bughouse: not rated"),
}


def _num(value: float | None, fmt: str) -> str:
    return "" if value is None else figure(value, fmt)


def game_rows(
    doc: dict[str, Any], base: str, vs: int | None = None, with_moves: frozenset[int] = frozenset()
) -> SafeString:
    """The card's games, one header row per tournament with its performance; ``vs``: only the
    games against that opponent; the result of a game in ``with_moves`` links to the game viewer."""
    perf = {p["tournament_id"]: p for p in doc["performances"]}
    out, current = [], None
    for g in doc["games"]:
        if vs is not None and g["opponent_id"] != vs:
            continue
        if g["tournament_id"] != current:
            current = g["tournament_id"]
            p = perf.get(current)
            shown = (
                " · "
                + gettext(
                    "performance <strong>%(rating)s</strong> (%(score)s of %(games)s, opponents "
                    "%(average)s)"
                )
                % {
                    "rating": f"{p['rating']:.0f}",
                    "score": figure(p["score"], "g"),
                    "games": p["games"],
                    "average": f"{p['average_opponent']:.0f}",
                }
                if p
                else ""
            )
            out.append(
                f'<tr class="event"><th scope="rowgroup" colspan="8">{g["date"]} · <a '
                f'href="{escape(base)}t/{current}/">{escape(g["tournament"])}</a>{shown}</th></tr>'
            )
        out.append(_game_row(g, base, g["game_id"] in with_moves))
    return mark_safe("\n".join(out))


def _game_row(g: dict[str, Any], base: str, has_moves: bool = False) -> str:
    opponent = escape(g["opponent"]) if g["opponent_id"] else escape(gettext("bye"))
    if g["opponent_id"]:
        opponent = f'<a href="{escape(base)}p/{g["opponent_id"]}/">{opponent}</a>'
    why = escape(str(WHY.get(g["status"], "")))
    note = f' <span class="not-rated">{why}</span>' if why else ""
    result = g["result"]
    if has_moves:
        href = escape(game_href(base, g["game_id"], g["tournament_id"], has_moves=True))
        result = f'<a href="{href}">{result}</a>'
    change = g["change"]
    cls = "num" if not change else ("num pos" if change > 0 else "num neg")
    return (
        f'<tr><td class="num">{g["round"]}</td><td>{escape(label(g["colour"] or ""))}</td>'
        f'<td>{opponent}</td><td class="num">{_num(g["opponent_rating"], ".0f")}</td>'
        f"<td>{result}{note}</td>"
        f'<td class="num">{_num(g["expected"], ".2f")}</td>'
        f'<td class="{cls}">{_num(change, "+.1f")}</td></tr>'
    )


def head_to_head_rows(doc: dict[str, Any], base: str) -> SafeString:
    out, games = [], gettext("games")  # the link to the games against that opponent
    for h in doc["head_to_head"]:
        link = f"{escape(base)}p/{h['opponent_id']}/"
        out.append(
            f'<tr><td><a href="{link}">{escape(h["opponent"])}</a></td><td '
            f'class="num">{h["games"]}</td><td class="num">+{h["wins"]} '
            f"={h['draws']} −{h['losses']}</td><td "
            f'class="num">{figure(h["score"], "g")}</td><td>{h["last_date"]}</td><td><a '
            f'href="?vs={h["opponent_id"]}#games">{escape(games)}</a></td></tr>'
        )
    return mark_safe("\n".join(out))
