"""The audit log in sentences: "result of round 4, board 2 changed from 0-1 to ½-½".

Each stored entry keeps its action, target and old/new values (JSON) as the
services wrote them; :func:`sentence` reads them back for the arbiter. An action
without a sentence of its own (a new service's) still reads as "action target:
key from old to new", never as a Python dict.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from clubrating.words import plural

Values = Any   # the JSON an entry stored: usually a dict, sometimes None


def sentence(action: str, target: str, old: Values, new: Values) -> str:
    """One entry as the arbiter reads it."""
    old_d, new_d = _as_dict(old), _as_dict(new)
    writer = SENTENCES.get(action)
    if writer is not None:
        try:
            if isinstance(writer, str):
                return writer.format(t=target, o=old_d, n=new_d)
            return writer(target, old_d, new_d)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass   # an entry written by an older version with other fields: the general form
    changes = changes_text(old, new)
    return f"{action} {target}" + (f": {changes}" if changes else "")


def _as_dict(value: Values) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def shown(value: Any) -> str:
    """A stored value in words: yes/no, numbers without a trailing .0, results with ½."""
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(shown(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {shown(v)}" for k, v in value.items()) or "none"
    return result_shown(str(value))


def result_shown(text: str) -> str:
    return text.replace("1/2", "½")


def changes_text(old: Values, new: Values) -> str:
    """What changed between two stored values: "visibility from arbiter to public, names ..."."""
    if not isinstance(old, dict) and not isinstance(new, dict):
        if old is None and new is None:
            return ""
        return f"{shown(new)}" if old is None else f"from {shown(old)} to {shown(new)}"
    old_d, new_d = _as_dict(old), _as_dict(new)
    parts = []
    for key in [*old_d, *(k for k in new_d if k not in old_d)]:
        label = key.replace("_", " ")
        if key not in new_d:
            parts.append(f"{label} was {shown(old_d[key])}")
        elif key not in old_d:
            parts.append(f"{label} {shown(new_d[key])}")
        elif old_d[key] != new_d[key]:
            parts.append(f"{label} from {shown(old_d[key])} to {shown(new_d[key])}")
    return ", ".join(parts)


_ROUND = re.compile(r"tournament (?P<t>\d+) round (?P<round>\d+)(?: board (?P<board>\d+))?(?:: (?P<names>.*))?")
_MEMBERS = re.compile(r"member (?P<m>\d+) '(?P<name>.*)' (?:into|from) (?P<other>\d+)")


def _parts(pattern: re.Pattern[str], target: str) -> re.Match[str]:
    """The parts of a target the services wrote in ``pattern``'s form (ValueError otherwise:
    an older entry, read in the general form)."""
    found = pattern.fullmatch(target)
    if found is None:
        raise ValueError(target)
    return found


def _result(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    found = _parts(_ROUND, target)
    where = f"round {found['round']}" + (f", board {found['board']}" if found["board"] else "")
    names = f" ({found['names']})" if found["names"] else ""
    if not old.get("result"):
        return f"result of {where}{names} of tournament {found['t']} entered: {result_shown(new['result'])}"
    return (f"result of {where}{names} of tournament {found['t']} changed from "
            f"{result_shown(old['result'])} to {result_shown(new['result'])}")


def _members(verb: str) -> Callable[[str, dict[str, Any], dict[str, Any]], str]:
    def write(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
        found = _parts(_MEMBERS, target)
        return f"member {found['m']} '{found['name']}' {verb} member {found['other']}"
    return write


def _link(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    if old.get("member"):
        return f"{target} relinked from {old['member']} to {new['member']} (member {new['member_id']})"
    return f"{target} linked to {new['member']} (member {new['member_id']})"


def _unlink(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    return f"{target} unlinked from {old['member']}"


def _import(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    return (f"imported {target} '{new['name']}' dated {new['date']} from {new['file']}: "
            f"{plural(new['players'], 'player')}, {plural(new['games'], 'game')}")


def _rebuild(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    if new.get("matched"):
        return "rebuilt the whole history: the stored ratings matched the replay"
    count = new["changes_differing"]
    return (f"rebuilt the whole history: {plural(count, 'stored rating change')} differed from the replay "
            f"and {'was' if count == 1 else 'were'} replaced")


TABLE_ORDERS = {"lot": "drawn by lot", "numbers": "in the order of entry", "hand": "as the arbiter listed them"}
"""A round robin's table numbers at round 1, as ``evening.pair_next_round`` audits them."""


def _pair(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    bye = f", a pairing bye for #{new['bye']}" if new.get("bye") is not None else ""
    numbers = ""
    if new.get("order") in TABLE_ORDERS:
        seed = f" (seed {new['seed']})" if new.get("seed") is not None else ""
        numbers = f"; table numbers {TABLE_ORDERS[new['order']]}{seed}: " + ", ".join(
            f"{n} {name}" for n, name in enumerate(new.get("table", []), 1))
    return f"paired {target}: {plural(len(new['boards']), 'board')}{bye}{numbers}"


def _arbiter_add(target: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    return f"{target} made an arbiter" + (" (a new login)" if new.get("created") else "")


SENTENCES: dict[str, str | Callable[[str, dict[str, Any], dict[str, Any]], str]] = {
    "create-club": "created the club '{n[name]}' ({t}), policy {n[policy]}",
    "privacy": lambda t, o, n: f"privacy changed: {changes_text(o, {k: v for k, v in n.items() if k != 'token_rotated'})}"
                               + ("; the unlisted link has a new token" if n.get("token_rotated") else ""),
    "settings": lambda t, o, n: f"settings changed: {changes_text(o, n)}",
    "cpi-weights": lambda t, o, n: f"CPI weights changed: {changes_text(o, n)}",
    "import": _import,
    "publish": "published {t}",
    "unpublish": "took {t} back to draft",
    "delete": lambda t, o, n: f"deleted {t} (dated {o['date']}, {o['status']}, {plural(o['games'], 'game')})",
    "correct-result": _result,
    "evening-result": _result,
    "change-date": "date of {t} changed from {o[date]} to {n[date]}",
    "link": _link,
    "unlink": _unlink,
    "link-initial": _link,
    "unlink-initial": _unlink,
    "seed-ratings": lambda t, o, n: f"stored the {t}: {plural(len(n['rows']), 'row')}"
                                    + (f", replacing {plural(len(o['rows']), 'row')}" if o.get("rows") else ""),
    "new-member": "new {t}: '{n[name]}'",
    "merge": _members("merged into"),
    "unmerge": _members("separated again from"),
    "distinct": "{t} marked as two different people",
    "undistinct": "{t} may be one person again",
    "member-flags": lambda t, o, n: f"{t}: {changes_text(o, n) or 'nothing changed'}",
    "rename": "{t} renamed from '{o[name]}' to '{n[name]}'",
    "rebuild": _rebuild,
    "analyse": lambda t, o, n: f"analysed {plural(n['games'], 'game')} with the engine",
    "evening-start": lambda t, o, n: f"started the evening '{n['name']}' of {n['date']} "
                                     f"({plural(n['rounds'], 'round') if 'rounds' in n else n['system']}) as {t}",
    "evening-register": "registered '{n[name]}' as {t}, playing from round {n[from_round]}",
    "evening-withdraw": "{t} withdrew: not paired from round {n[withdrawn_from]} on",
    "evening-bye": "{t}: half-point bye in round {n[round]}",
    "evening-pair": _pair,
    "evening-colours": "{t}: colours swapped, now {n[board][0]} - {n[board][1]} (start numbers)",
    "evening-exchange": lambda t, o, n: f"{t}: #{n['players'][0]} and #{n['players'][1]} changed places"
                                        + (" (a rematch, confirmed)" if n.get("rematch") else ""),
    "evening-repair": lambda t, o, n: f"{t} paired again: {plural(len(n['boards']), 'board')}"
                                      + (f", a pairing bye for #{n['bye']}" if n.get("bye") is not None else ""),
    "arbiter-add": _arbiter_add,
    "arbiter-remove": "{t} is no longer an arbiter",
    "import-club": lambda t, o, n: f"the club {t} loaded from the archive {n['file']} ({plural(n['rows'], 'row')})",
    "attach-moves": lambda t, o, n: f"moves of {t} stored from {n['file']}"
                                    + (f" ({'; '.join(n['names'])})" if n.get("names") else ""),
    "analysis-retry": lambda t, o, n: f"the analysis of {t} queued again",
    "moves-links": lambda t, o, n: f"{plural(n['links'], 'moves link')} made for {t}, working {n['days']} days; "
                                   "the boards' earlier links revoked",
    "moves-link-revoke": "the moves link of {t} revoked",
    "moves-links-follow": lambda t, o, n: f"the moves links of {t} follow their players after the pairing change; "
                                          f"{plural(n['revoked'], 'link')} of players no longer paired together "
                                          "revoked",
    "moves-accept": "the moves the players entered for {t} accepted",
    "drop-moves": lambda t, o, n: f"moves of {t} from {n['file']} dropped: the file says {result_shown(n['result'])}, "
                                  f"the stored result {result_shown(o['result'])} was kept",
}
"""The sentence of each action the services record (``audit.record(club, who, ACTION, ...)``):
a template of the target ``t`` and the old and new values ``o`` and ``n`` (``str.format``), or a
function of them where the sentence needs more than their fields."""
