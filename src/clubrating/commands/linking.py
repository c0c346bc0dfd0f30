"""What ``link`` does alike in a tournament's names and in the club's initial list
(:mod:`.names`, :mod:`.initial_list`): its options applied in order, all or none."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clubrating.club.read.members import get_member
from clubrating.commands.club import one_transaction
from clubrating.errors import InputError
from clubrating.words import N_


@dataclass(frozen=True)
class LinkTarget:
    """What ``link`` confirms names in (a tournament, or the initial list): how it finds a row
    by its number and the services that act on its rows, for :func:`link_outcomes`."""

    usage: str  # the word in ``clubrating link USAGE NUMBER MEMBER``
    find: Callable[[str], Any]  # NUMBER -> the row
    accept_exact: Callable[[], Any]
    new_member: Callable[[Any], Any]
    link: Callable[[Any, Any], Any]  # the row, the member
    unlink: Callable[[Any], Any]
    all_new: Callable[[], Any]


def link_outcomes(args: argparse.Namespace, club: Any, target: LinkTarget) -> list[Any]:
    """``link``'s options applied in order (--exact, --new, NUMBER MEMBER, --all-new), all or
    none: the outcomes."""
    with one_transaction():
        return _link_steps(args, club, target)


def _link_steps(args: argparse.Namespace, club: Any, target: LinkTarget) -> list[Any]:
    outcomes = []
    if args.exact:
        outcomes.append(target.accept_exact())
    for number in args.new or ():
        outcomes.append(target.new_member(target.find(number)))
    if args.number is not None:
        row = target.find(args.number)
        if args.member is None:
            raise InputError(
                N_("say which member: clubrating link %(usage)s NUMBER MEMBER (id, name or alias)"),
                usage=target.usage,
            )
        if args.member == "-":
            outcomes.append(target.unlink(row))
        else:
            outcomes.append(target.link(row, get_member(club, args.member)))
    if args.all_new:
        outcomes.append(target.all_new())
    if not outcomes:
        raise InputError(
            N_("nothing to do: give NUMBER MEMBER, --new NUMBER, --exact or --all-new")
        )
    return outcomes
