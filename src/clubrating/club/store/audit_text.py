"""The audit log in sentences: "result of round 4, board 2 changed from 0-1 to ½-½".

Each stored entry keeps its action, target and old/new values (JSON) as the
services wrote them; :func:`sentence` reads them back for the arbiter. An action
without a sentence of its own (a new service's) still reads as "action target:
key from old to new", never as a Python dict.

A sentence stored when an operation was done (an entry's summary, a rebuild's
reason) is kept as its English line and as :func:`stored` (the Text's template and
values), which :func:`read_stored` translates when shown; a row without one, or
whose template the catalogue no longer has, reads as the English line it stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

from clubrating.errors import ClubratingError, Text
from clubrating.tournament.roundrobin import PairingSystem

Values = Any  # the JSON an entry stored: usually a dict, sometimes None


def stored(text: str | Text) -> dict[str, Any] | None:
    """A Text as JSON: ``{"template": str or [one, many], "params": {...}}``, a value that is a
    Text (or an error's) nested the same way, any other value that is no JSON scalar as its
    English text. None for a plain string: there is nothing to translate."""
    if not isinstance(text, Text):
        return None
    template = list(text.template) if isinstance(text.template, tuple) else text.template
    return {
        "template": template,
        "params": {name: _stored_value(value) for name, value in text.params.items()},
    }


def _stored_value(value: object) -> object:
    if isinstance(value, ClubratingError):
        value = value.text
    if isinstance(value, Text):
        return stored(value)
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


def _text(data: Any) -> Text:
    """The Text :func:`stored` wrote (ValueError for anything else)."""
    if not isinstance(data, dict) or not isinstance(data.get("params"), dict):
        raise ValueError(data)
    template = data.get("template")
    if (
        isinstance(template, list)
        and len(template) == 2
        and all(isinstance(t, str) for t in template)
    ):
        template = (template[0], template[1])
    elif not isinstance(template, str):
        raise ValueError(data)
    named = set(
        _PLACEHOLDER.findall(" ".join(template) if isinstance(template, tuple) else template)
    )
    if not named <= data["params"].keys():
        raise KeyError(
            named - data["params"].keys()
        )  # a Text without its values would show "%(name)s"
    return Text(
        template,
        **{
            name: _text(value) if isinstance(value, dict) else value
            for name, value in data["params"].items()
        },
    )


_PLACEHOLDER = re.compile(r"%\((\w+)\)")


def _is_known(template: str | tuple[str, str]) -> bool:
    """Whether the active language's catalogue has the template: a template the code no longer
    writes (or English, whose catalogue is the templates themselves) reads as stored."""
    if isinstance(template, tuple):
        return ngettext(*template, 1) != template[0] or ngettext(*template, 2) != template[1]
    return _(template) != template


def read_stored(data: Any, english: str) -> str:
    """A stored sentence in the active language; ``english`` (the line stored beside it) when
    there is none, when its template is not in the catalogue, or when it does not fit it."""
    try:
        text = _text(data)
        if not _is_known(text.template):
            return english
        return text.translated(translation)
    except (KeyError, TypeError, ValueError, AssertionError):
        return english


def sentence(action: str, target: str, old: Values, new: Values) -> str:
    """One entry as the arbiter reads it, in the active language (English when none is)."""
    old_d, new_d = _as_dict(old), _as_dict(new)
    writer = SENTENCES.get(action)
    if writer is not None:
        try:
            return writer(target, old_d, new_d)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # an entry written by an older version with other fields: the general form
    changes = changes_text(old, new)
    return f"{action} {target_shown(target)}" + (f": {changes}" if changes else "")


# Who acted, when it was no person (a person is "web:<login>", "cli:<login>", as typed): the
# analysis run that rebuilds the CPI ledger (jobs.analysis.rebuild_ledger), and the players
# through their moves links (club/services/moves_links.PLAYERS).
_WHO: dict[str, Callable[[], str]] = {
    "analysis": lambda: pgettext("who changed the history", "analysis"),
    "the players (moves link)": lambda: _("the players (moves link)"),
}


def who_shown(who: str) -> str:
    """Who made an entry, in the active language: a login as stored, the analysis run in words."""
    word = _WHO.get(who)
    return word() if word is not None else who


def _as_dict(value: Values) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def counted(count: int, forms: str) -> str:
    """``forms`` (an ``ngettext`` of ``%(count)d`` texts) with its count."""
    return forms % {"count": count}


# The parts of the services' targets a person reads as words ("tournament 3 round 4 board 2: A - B",
# "member 7 'D. White'", "login anna", "initial list from club.csv"); a name between quotes is
# never read as one.
_TARGET_WORDS = [
    (re.compile(r"\btournament (?P<number>\d+)"), gettext_noop("tournament %(number)s")),
    (re.compile(r"\bround (?P<number>\d+)"), gettext_noop("round %(number)s")),
    (re.compile(r"\bboard (?P<number>\d+)"), gettext_noop("board %(number)s")),
    (
        re.compile(r"^members (?P<number>\d+) and (?P<other>\d+)"),
        gettext_noop("members %(number)s and %(other)s"),
    ),
    (re.compile(r"^member (?P<number>\d+)"), gettext_noop("member %(number)s")),
    (re.compile(r"^login (?P<login>\S+)"), gettext_noop("login %(login)s")),
    (re.compile(r"^initial list from (?P<file>.+)$"), gettext_noop("initial list from %(file)s")),
    (re.compile(r"^initial list\b"), gettext_noop("initial list")),
    (re.compile(r"^monthly list (?P<month>\S+)"), gettext_noop("monthly list %(month)s")),
]


def target_shown(target: str) -> str:
    """A stored target in the active language: its nouns translated, names kept as written."""
    first, last = target.find("'"), target.rfind("'")
    if 0 <= first < last:
        return _words(target[:first]) + target[first : last + 1] + _words(target[last + 1 :])
    return _words(target)


def _words(text: str) -> str:
    for pattern, template in _TARGET_WORDS:

        def word(found: re.Match[str], template: str = template) -> str:
            values = found.groupdict()
            return _(template) % values if values else _(template)

        text = pattern.sub(word, text)
    return text


def shown(value: Any) -> str:
    """A stored value in words: yes/no, numbers without a trailing .0, results with ½."""
    if value is None or value == "":
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(shown(v) for v in value) or _("none")
    if isinstance(value, dict):
        return ", ".join(f"{k} {shown(v)}" for k, v in value.items()) or _("none")
    return result_shown(str(value))


def result_shown(text: str) -> str:
    return text.replace("1/2", "½")


# Stored keys a person reads as words; any other (the settings' and factors' names) as typed.
_KEYS = {
    "visibility": gettext_noop("visibility"),
    "names": gettext_noop("names"),
    "junior": gettext_noop("junior"),
    "full_name_consent": gettext_noop("full name consent"),
}


# Stored values a person reads as words: the privacy choices, as the command line types them.
_VALUES: dict[tuple[str, Any], Callable[[], str]] = {
    ("visibility", "arbiter"): lambda: pgettext("who sees the pages", "arbiter"),
    ("visibility", "unlisted"): lambda: pgettext("who sees the pages", "unlisted"),
    ("visibility", "public"): lambda: pgettext("who sees the pages", "public"),
    ("names", "full"): lambda: pgettext("how names are shown", "full"),
    ("names", "initials"): lambda: pgettext("how names are shown", "initials"),
}


def _value(key: str, value: Any) -> str:
    word = _VALUES.get((key, value)) if isinstance(value, str) else None
    return word() if word is not None else shown(value)


def changes_text(old: Values, new: Values) -> str:
    """What changed between two stored values: "visibility from arbiter to public, names ..."."""
    if not isinstance(old, dict) and not isinstance(new, dict):
        if old is None and new is None:
            return ""
        return (
            shown(new)
            if old is None
            else _("from %(old)s to %(new)s") % {"old": shown(old), "new": shown(new)}
        )
    old_d, new_d = _as_dict(old), _as_dict(new)
    parts = []
    for key in [*old_d, *(k for k in new_d if k not in old_d)]:
        label = _(_KEYS[key]) if key in _KEYS else key.replace("_", " ")
        if key not in new_d:
            parts.append(_("%(key)s was %(old)s") % {"key": label, "old": _value(key, old_d[key])})
        elif key not in old_d:
            parts.append(f"{label} {_value(key, new_d[key])}")
        elif old_d[key] != new_d[key]:
            parts.append(
                _("%(key)s from %(old)s to %(new)s")
                % {"key": label, "old": _value(key, old_d[key]), "new": _value(key, new_d[key])}
            )
    return ", ".join(parts)


_ROUND = re.compile(
    r"tournament (?P<t>\d+) round (?P<round>\d+)(?: board (?P<board>\d+))?(?:: (?P<names>.*))?"
)
_MEMBERS = re.compile(r"member (?P<m>\d+) '(?P<name>.*)' (?:into|from) (?P<other>\d+)")


def _parts(pattern: re.Pattern[str], target: str) -> re.Match[str]:
    """The parts of a target the services wrote in ``pattern``'s form (ValueError otherwise:
    an older entry, read in the general form)."""
    found = pattern.fullmatch(target)
    if found is None:
        raise ValueError(target)
    return found


Writer = Callable[[str, dict[str, Any], dict[str, Any]], str]


def _result(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    found = _parts(_ROUND, target)
    where = (_("round %(round)s, board %(board)s") if found["board"] else _("round %(round)s")) % {
        "round": found["round"],
        "board": found["board"],
    }
    values = {
        "where": where,
        "names": f" ({found['names']})" if found["names"] else "",
        "t": found["t"],
        "new": result_shown(new["result"]),
    }
    if not old.get("result"):
        return _("result of %(where)s%(names)s of tournament %(t)s entered: %(new)s") % values
    return _("result of %(where)s%(names)s of tournament %(t)s changed from %(old)s to %(new)s") % {
        **values,
        "old": result_shown(old["result"]),
    }


def _members(template: str) -> Writer:
    def write(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
        found = _parts(_MEMBERS, target)
        return _(template) % {"m": found["m"], "name": found["name"], "other": found["other"]}

    return write


def _link(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    values = {
        "t": target_shown(target),
        "old": old.get("member"),
        "new": new["member"],
        "id": new["member_id"],
    }
    if old.get("member"):
        return _("%(t)s relinked from %(old)s to %(new)s (member %(id)s)") % values
    return _("%(t)s linked to %(new)s (member %(id)s)") % values


def _unlink(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    return _("%(t)s unlinked from %(old)s") % {"t": target_shown(target), "old": old["member"]}


_POLICIES: dict[str, Callable[[], str]] = {
    "club": lambda: pgettext("rating policy", "club"),
    "fide": lambda: pgettext("rating policy", "fide"),
}


def _file(name: str) -> str:
    """Where a tournament or its moves came from: a file's name, or results typed on the page."""
    return pgettext("the source of a tournament", "typed") if name == "typed" else name


def _import(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    return _("imported %(t)s '%(name)s' dated %(date)s from %(file)s: %(players)s, %(games)s") % {
        "t": target_shown(target),
        "name": new["name"],
        "date": new["date"],
        "file": _file(new["file"]),
        "players": counted(
            new["players"], ngettext("%(count)d player", "%(count)d players", new["players"])
        ),
        "games": counted(new["games"], ngettext("%(count)d game", "%(count)d games", new["games"])),
    }


def _rebuild(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    if new.get("matched"):
        return _("rebuilt the whole history: the stored ratings matched the replay")
    count = new["changes_differing"]
    return counted(
        count,
        ngettext(
            "rebuilt the whole history: %(count)d stored rating "
            "change differed from the replay and was replaced",
            "rebuilt the whole history: %(count)d stored rating "
            "changes differed from the replay and were replaced",
            count,
        ),
    )


TABLE_ORDERS = {
    "lot": gettext_noop("drawn by lot"),
    "numbers": gettext_noop("in the order of entry"),
    "hand": gettext_noop("as the arbiter listed them"),
}
"""A round robin's table numbers at round 1, as ``evening.pair_next_round`` audits them."""


def _bye(new: dict[str, Any]) -> str:
    return (
        _(", a pairing bye for #%(number)s") % {"number": new["bye"]}
        if new.get("bye") is not None
        else ""
    )


def _boards(new: dict[str, Any]) -> str:
    n = len(new["boards"])
    return counted(n, ngettext("%(count)d board", "%(count)d boards", n))


def _pair(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    numbers = ""
    if new.get("order") in TABLE_ORDERS:
        seed = _(" (seed %(seed)s)") % {"seed": new["seed"]} if new.get("seed") is not None else ""
        numbers = _("; table numbers %(order)s%(seed)s: %(table)s") % {
            "order": _(TABLE_ORDERS[new["order"]]),
            "seed": seed,
            "table": ", ".join(f"{n} {name}" for n, name in enumerate(new.get("table", []), 1)),
        }
    return _("paired %(t)s: %(boards)s%(bye)s%(numbers)s") % {
        "t": target_shown(target),
        "boards": _boards(new),
        "bye": _bye(new),
        "numbers": numbers,
    }


def _arbiter_password(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    t = {"t": target_shown(target)}
    return {
        "invite": _("%(t)s accepted the invitation and chose a password"),
        "reset": _("%(t)s chose a new password with a reset link"),
    }.get(new.get("how", ""), _("%(t)s changed the password")) % t


def _arbiter_add(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    t = {"t": target_shown(target)}
    return (
        _("%(t)s made an arbiter (a new login)")
        if new.get("created")
        else _("%(t)s made an arbiter")
    ) % t


def _template(template: str) -> Writer:
    """A sentence of the target ``t`` and the stored fields ``old``/``new`` named in it."""

    def write(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
        values: dict[str, Any] = {"t": target_shown(target)}
        values.update({f"old_{k}": result_shown(str(v)) for k, v in old.items()})
        values.update({f"new_{k}": result_shown(str(v)) for k, v in new.items()})
        return _(template) % values

    return write


def _privacy(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    changes = changes_text(o, {k: v for k, v in n.items() if k != "token_rotated"})
    return (
        _("privacy changed: %(changes)s; the unlisted link has a new token")
        if n.get("token_rotated")
        else _("privacy changed: %(changes)s")
    ) % {"changes": changes}


def _delete(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    return _("deleted %(t)s (dated %(date)s, %(status)s, %(games)s)") % {
        "t": target_shown(t),
        "date": o["date"],
        "status": o["status"],
        "games": counted(o["games"], ngettext("%(count)d game", "%(count)d games", o["games"])),
    }


def _rows(count: int) -> str:
    return counted(count, ngettext("%(count)d row", "%(count)d rows", count))


def _seed(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    values = {"t": target_shown(t), "rows": _rows(len(n["rows"]))}
    if o.get("rows"):
        return _("stored the %(t)s: %(rows)s, replacing %(old)s") % {
            **values,
            "old": _rows(len(o["rows"])),
        }
    return _("stored the %(t)s: %(rows)s") % values


def _evening_start(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    rounds = (
        counted(n["rounds"], ngettext("%(count)d round", "%(count)d rounds", n["rounds"]))
        if "rounds" in n
        else _(PairingSystem(n["system"]).label)
    )
    return _("started the evening '%(name)s' of %(date)s (%(rounds)s) as %(t)s") % {
        "name": n["name"],
        "date": n["date"],
        "rounds": rounds,
        "t": target_shown(t),
    }


def _exchange(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    values = {"t": target_shown(t), "a": n["players"][0], "b": n["players"][1]}
    return (
        _("%(t)s: #%(a)s and #%(b)s changed places (a rematch, confirmed)")
        if n.get("rematch")
        else _("%(t)s: #%(a)s and #%(b)s changed places")
    ) % values


def _colours(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    return _("%(t)s: colours swapped, now %(white)s - %(black)s (start numbers)") % {
        "t": target_shown(t),
        "white": n["board"][0],
        "black": n["board"][1],
    }


def _moves_attached(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    values = {
        "t": target_shown(t),
        "file": _file(n["file"]),
        "names": "; ".join(n.get("names") or []),
    }
    return (
        _("moves of %(t)s stored from %(file)s (%(names)s)")
        if n.get("names")
        else _("moves of %(t)s stored from %(file)s")
    ) % values


def _moves_links(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    return _(
        "%(links)s made for %(t)s, working %(days)s days; the boards' earlier links revoked"
    ) % {
        "links": counted(
            n["links"], ngettext("%(count)d moves link", "%(count)d moves links", n["links"])
        ),
        "t": target_shown(t),
        "days": n["days"],
    }


def _moves_follow(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    return _(
        "the moves links of %(t)s follow their players after the pairing "
        "change; %(links)s of players no longer paired together revoked"
    ) % {
        "t": target_shown(t),
        "links": counted(n["revoked"], ngettext("%(count)d link", "%(count)d links", n["revoked"])),
    }


def _drop_moves(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    return _(
        "moves of %(t)s from %(file)s dropped: the file "
        "says %(new)s, the stored result %(old)s was kept"
    ) % {
        "t": target_shown(t),
        "file": n["file"],
        "new": result_shown(n["result"]),
        "old": result_shown(o["result"]),
    }


def _phone_result(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    sender = {"white": _("White's phone"), "black": _("Black's phone")}.get(n["side"])
    return _("%(t)s: %(sender)s sent the result %(result)s") % {
        "t": target_shown(t),
        "sender": sender or _("a phone with the board's link"),
        "result": result_shown(n["result"]),
    }


def _players(count: int) -> str:
    return counted(count, ngettext("%(count)d player", "%(count)d players", count))


def _monthly_list(t: str, o: dict[str, Any], n: dict[str, Any]) -> str:
    """A monthly list published (docs/ratings.md, "Monthly lists"), or published again."""
    lists = "; ".join(f"{_(name)} {_players(v['players'])}" for name, v in n["lists"].items())
    if o:
        return _("published the list of %(month)s again (%(lists)s), replacing %(old)s") % {
            "month": n["month"],
            "lists": lists,
            "old": "; ".join(f"{_(name)} {_players(v['players'])}" for name, v in o.items()),
        }
    return _("published the list of %(month)s (%(lists)s): frozen, no correction changes it") % {
        "month": n["month"],
        "lists": lists,
    }


SENTENCES: dict[str, Writer] = {
    "create-club": lambda t, o, n: (
        _("created the club '%(name)s' (%(t)s), policy %(policy)s")
        % {"name": n["name"], "t": t, "policy": _POLICIES.get(n["policy"], lambda: n["policy"])()}
    ),
    "privacy": _privacy,
    "settings": lambda t, o, n: (
        _("settings changed: %(changes)s") % {"changes": changes_text(o, n)}
    ),
    "cpi-weights": lambda t, o, n: (
        _("CPI weights changed: %(changes)s") % {"changes": changes_text(o, n)}
    ),
    "import": _import,
    "publish": _template(gettext_noop("published %(t)s")),
    "unpublish": _template(gettext_noop("took %(t)s back to draft")),
    "delete": _delete,
    "correct-result": _result,
    "evening-result": _result,
    "change-date": _template(
        gettext_noop("date of %(t)s changed from %(old_date)s to %(new_date)s")
    ),
    "link": _link,
    "unlink": _unlink,
    "link-initial": _link,
    "unlink-initial": _unlink,
    "seed-ratings": _seed,
    "new-member": _template(gettext_noop("new %(t)s: '%(new_name)s'")),
    "merge": _members(gettext_noop("member %(m)s '%(name)s' merged into member %(other)s")),
    "unmerge": _members(
        gettext_noop("member %(m)s '%(name)s' separated again from member %(other)s")
    ),
    "distinct": _template(gettext_noop("%(t)s marked as two different people")),
    "undistinct": _template(gettext_noop("%(t)s may be one person again")),
    "member-flags": lambda t, o, n: (
        target_shown(t) + ": " + (changes_text(o, n) or _("nothing changed"))
    ),
    "rename": _template(gettext_noop("%(t)s renamed from '%(old_name)s' to '%(new_name)s'")),
    "monthly-list": _monthly_list,
    "monthly-list-replaced": _monthly_list,
    "member-left": _template(gettext_noop("%(t)s left the club on %(new_left)s")),
    "member-returned": _template(
        gettext_noop("%(t)s is a member again (had left on %(old_left)s)")
    ),
    "rebuild": _rebuild,
    "analyse": lambda t, o, n: counted(
        n["games"],
        ngettext(
            "analysed %(count)d game with the engine",
            "analysed %(count)d games with the engine",
            n["games"],
        ),
    ),
    "evening-start": _evening_start,
    "evening-register": _template(
        gettext_noop("registered '%(new_name)s' as %(t)s, playing from round %(new_from_round)s")
    ),
    "evening-withdraw": _template(
        gettext_noop("%(t)s withdrew: not paired from round %(new_withdrawn_from)s on")
    ),
    "evening-bye": _template(gettext_noop("%(t)s: half-point bye in round %(new_round)s")),
    "evening-pair": _pair,
    "evening-colours": _colours,
    "evening-exchange": _exchange,
    "evening-repair": lambda t, o, n: (
        _("%(t)s paired again: %(boards)s%(bye)s")
        % {"t": target_shown(t), "boards": _boards(n), "bye": _bye(n)}
    ),
    "arbiter-add": _arbiter_add,
    "arbiter-remove": _template(gettext_noop("%(t)s is no longer an arbiter")),
    "arbiter-invite": _template(
        gettext_noop("%(t)s invited as an arbiter (a one-time link to choose a password)")
    ),
    "arbiter-reset-link": _template(gettext_noop("a password reset link made for %(t)s")),
    "arbiter-password": _arbiter_password,
    "import-club": lambda t, o, n: (
        _("the club %(t)s loaded from the archive %(file)s (%(rows)s)")
        % {"t": t, "file": n["file"], "rows": _rows(n["rows"])}
    ),
    "attach-moves": _moves_attached,
    "analysis-retry": _template(gettext_noop("the analysis of %(t)s queued again")),
    "moves-links": _moves_links,
    "moves-link-revoke": _template(gettext_noop("the moves link of %(t)s revoked")),
    "moves-link-release": _template(
        gettext_noop("the moves link of %(t)s freed from the phone that opened it")
    ),
    "moves-link-device": _template(
        gettext_noop("a moves link of %(t)s opened on its first device, which it now belongs to")
    ),
    "moves-links-follow": _moves_follow,
    "phone-result": _phone_result,
    "moves-accept": _template(gettext_noop("the moves the players entered for %(t)s accepted")),
    "drop-moves": _drop_moves,
}
"""The sentence of each action the services record (``audit.record(club, who, ACTION, ...)``), a
function of the target and the old and new values, in the active language; a template names the
stored fields it reads ``old_<field>`` and ``new_<field>``."""
