"""The long tables (the rating list, a player's tournaments and games) written as HTML
in Python: Django's template loop costs about 0.2 ms a row, this a few microseconds.
Every value is escaped here; the result is marked safe for the templates."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from clubrating.web.labels import label


def _change_class(change: float | None) -> str:
    if change is None or change == 0:
        return "num"
    return "num pos" if change > 0 else "num neg"


def _not_rated() -> str:
    """The mark of a game or result that counts for no rating."""
    text = gettext("not rated")  # named first: xgettext skips f-strings
    return f'<span class="not-rated">{escape(text)}</span>'


def rating_rows(rows: Iterable[dict[str, Any]], base: str, *, provisional: bool) -> SafeString:
    tr = '<tr class="provisional">' if provisional else "<tr>"
    provisional_text = escape(gettext("provisional"))  # named first: xgettext skips f-strings
    tag = f' <span class="tag">{provisional_text}</span>' if provisional else ""
    out = [
        f'{tr}<td class="num">{r["rank"] or ""}</td><td><a '
        f'href="{escape(base)}p/{r["member_id"]}/">{escape(r["name"])}</a>{tag}</td><td '
        f'class="num">{r["rating_text"]}</td><td class="num">{r["games"]}</td><td '
        f'class="last-played">{r["last_played"] or ""}</td></tr>'
        for r in rows
    ]
    return mark_safe("\n".join(out))


def frozen_rows(rows: Iterable[dict[str, Any]], base: str, *, compared: bool) -> SafeString:
    """A monthly list's rows (web/monthly.py), built here as the live list's are: a template loop
    took 0.5 s for a big club's 561 rows (benchmarks/measure_monthly_list.py). ``compared``: the
    change column since the month before."""
    words = gettext("provisional"), gettext("inactive"), pgettext("monthly list", "new")
    provisional, inactive, new = (f'<span class="tag">{escape(w)}</span>' for w in words)
    provisional, inactive = " " + provisional, " " + inactive
    out = []
    for r in rows:
        moved = f"<br><small>↑{r['rank_up']}</small>" if r["rank_up"] else ""
        moved += f"<br><small>↓{r['rank_down']}</small>" if r["rank_down"] else ""
        tags = (provisional if r["provisional"] else "") + (inactive if r["inactive"] else "")
        change = f'<td class="num">{new if r.get("new") else r["rating_change_text"]}</td>'
        out.append(
            f'<tr><td class="num">{r["rank"] or "–"}{moved}</td><td><a href="{escape(base)}p/'
            f'{r["member_id"]}/">{escape(r["name"])}</a>{tags}</td><td class="num">'
            f'{r["rating"]:.0f}</td>{change if compared else ""}<td class="num narrow-hide">'
            f"{r['games']}</td></tr>"
        )
    return mark_safe("\n".join(out))


def history_rows(history: Iterable[dict[str, Any]], base: str, *, is_arbiter: bool) -> SafeString:
    out = []
    not_rated = _not_rated()
    for t in history:
        written = f"<td>{escape(t['name_as_written'])}</td>" if is_arbiter else ""
        rating = f"{t['before_text']} → {t['after_text']}" if t["rated"] else not_rated
        out.append(
            f'<tr><td>{t["date"]}</td><td><a href="{escape(base)}t/{t["tournament_id"]}/">'
            f'{escape(t["tournament"])}</a></td>{written}<td class="num">{t["score_text"]}</td>'
            f'<td class="num">{t["games_rated"]}</td><td class="num">{rating}</td>'
            f'<td class="{_change_class(t["change"])}">{t["change_text"]}</td></tr>'
        )
    return mark_safe("\n".join(out))


def game_rows(games: Iterable[dict[str, Any]], base: str) -> SafeString:
    out = []
    not_rated = " " + _not_rated()
    for g in games:
        opponent = escape(g["opponent"])
        if g["opponent_member_id"]:
            opponent = f'<a href="{escape(base)}p/{g["opponent_member_id"]}/">{opponent}</a>'
        unrated = "" if g["rated"] else not_rated
        out.append(
            f"<tr><td>{g['date']}</td><td>{escape(g['tournament'])}</td>"
            f'<td class="num">{g["round"]}</td>'
            f"<td>{escape(label(g['colour'] or ''))}</td><td>{opponent}</td>"
            f"<td>{escape(g['result'])}{unrated}</td>"
            f'<td class="num">{g["score_text"]}</td></tr>'
        )
    return mark_safe("\n".join(out))


def tournament_rows(rows: Iterable[dict[str, Any]], base: str) -> SafeString:
    """The tournament list (pages.tournament_rows): date, name, time control, players, rounds,
    winners (several: a shared first place), whether games have moves."""
    b = escape(base)
    out = []
    in_progress, draft_text = gettext("in progress, not rated yet"), gettext("draft")
    for t in rows:
        s = t["summary"]
        draft = (
            ""
            if t["is_published"]
            else f' <span class="tag">{escape(in_progress)}</span>'
            if t["paired_rounds"]
            else f' <span class="tag">{escape(draft_text)}</span>'
        )
        kind = escape(label(t["time_control"])) + (
            "" if t["is_rated"] else escape(", " + gettext("bughouse (not rated)"))
        )
        moves = gettext("with moves") if s["has_moves"] else gettext("results only")
        winners = ", ".join(
            f'<a href="{b}p/{w["member_id"]}/">{escape(w["name"])}</a>'
            if w["member_id"]
            else escape(w["name"])
            for w in s["winners"]
        )
        shared = " " + escape(gettext("(shared)")) if len(s["winners"]) > 1 else ""
        out.append(
            f"<tr><td>{t['date'].isoformat()}</td>"
            f'<td><a href="{b}t/{t["id"]}/">{escape(t["name"])}</a>{draft}</td>'
            f'<td>{kind}</td><td class="num">{s["players"]}</td><td class="num">{s["rounds"]}</td>'
            f"<td>{winners}{shared}</td><td>{escape(moves)}</td></tr>"
        )
    return mark_safe("\n".join(out))


def federation_rows(rows: Iterable[dict[str, Any]]) -> SafeString:
    """The federation list (web/federation.py): rating, name (the player's page), club, and
    the games where a phone has room for them."""
    out = [
        f'<tr><td class="num">{r["rating_text"]}</td><td><a href="{escape(r["base"])}p/'
        f'{r["member_id"]}/">{escape(r["name"])}</a></td><td><a href="{escape(r["base"])}">'
        f'{escape(r["club"])}</a></td><td class="num narrow-hide">{r["games"]}</td></tr>'
        for r in rows
    ]
    return mark_safe("\n".join(out))


def _cell(c: dict[str, Any] | None) -> str:
    """One crosstable cell: the opponent's number, colour and score; a link to the game's moves;
    grey and explained when not rated."""
    if not c:
        return '<td class="num">'
    why = str(c.get("why") or "")
    title = f' title="{escape(why)}"' if why else ""
    text = escape(c["text"])
    shown = f'<a href="{escape(c["href"])}">{text}</a>' if c.get("href") else text
    if c.get("unrated"):
        return f'<td class="num not-rated"{title}>{shown}<span class="skip"> ({escape(why)})</span>'
    return f'<td class="num"{title}>{shown}'


def crosstable_rows(
    players: Iterable[dict[str, Any]], base: str, *, teams: bool, progress: bool
) -> SafeString:
    """The tournament page's standings and crosstable (pages.tournament's ``players``): place,
    number, name, team, points, a cell a round, the tie-breaks, and once rated the rating."""
    b = escape(base)
    not_ranked = gettext("not ranked in the file")  # named first: xgettext skips f-strings
    unranked = f'<span class="not-rated" title="{escape(not_ranked)}">–</span>'
    not_rated = _not_rated()
    out = []
    for p in players:
        name = escape(p["name"])
        if p["member_id"]:
            name = f'<a href="{b}p/{p["member_id"]}/">{name}</a>'
        team = f"<td>{escape(p['team'] or '')}</td>" if teams else ""
        cells = "".join(f"{_cell(c)}</td>" for c in p["cells"])
        breaks = "".join(f'<td class="num">{escape(v)}</td>' for v in p["tiebreak_texts"])
        rating = ""
        if not progress:
            change = p["change"]
            sign = "" if change is None or change == 0 else "pos" if change > 0 else "neg"
            shown = (
                f"{p['before_text']} → {p['after_text']}"
                if p["rating_after"] is not None
                else not_rated
            )
            rating = f'<td class="num">{shown}</td><td class="num {sign}">{p["change_text"]}</td>'
        out.append(
            f'<tr><td class="num">{p["place"] or unranked}</td><td class="num">{p["number"]}</td>'
            f'<td>{name}</td>{team}<td class="num">{p["points_text"]}</td>\n'
            f"{cells}{breaks}\n{rating}</tr>\n"
        )
    return mark_safe("".join(out))
