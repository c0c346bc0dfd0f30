"""The club the README's commands work on: eleven published evenings before ``tuesday.trf``.

Run as ``python history.py DATABASE_URL`` after ``clubrating init``: the README's
numbers then hold (the next tournament is 12, member 7 is John Smith, member 31 is
Jon Smyth, who looks like him and is another person).
"""

from __future__ import annotations

import datetime as dt
import sys

FIRST = [
    "Anna Berg",
    "Ben Cole",
    "Cara Dunn",
    "Dan Eng",
    "Eva Fox",
    "Finn Gray",
    "John Smith",
    "Gina Hart",
]
LATER = [
    "Ivan Petrov",
    "Mariam Hakobyan",
    "Olga Sidorova",
    "Lars Nilsson",
    "Aisha Khan",
    "Tomas Novak",
    "Elena Rossi",
    "Pedro Alves",
    "Yuki Tanaka",
    "Sara Cohen",
    "Omar Haddad",
    "Nina Berg",
    "Karl Weber",
    "Lucia Marin",
    "Arman Sargsyan",
    "Irina Volkova",
    "Jonas Lind",
    "Maya Patel",
    "Felix Braun",
    "Rosa Lopez",
    "Hugo Martin",
    "Vera Orlova",
]
WHO = "readme:history"


def evenings() -> list[tuple[str, dt.date, list[str]]]:
    """(name, date, players) of the eleven evenings, in order."""
    nights = [("Evening 1", dt.date(2026, 8, 4), FIRST)]
    sizes, start = [3, 3, 3, 3, 2, 2, 2, 2, 2], 0
    for index, size in enumerate(sizes, 2):
        new = LATER[start : start + size]
        start += size
        nights.append(
            (
                f"Evening {index}",
                dt.date(2026, 8, 4) + dt.timedelta(weeks=index - 1),
                ["Anna Berg", *new] if len(new) % 2 else ["Anna Berg", "Ben Cole", *new],
            )
        )
    nights.append(
        ("Evening 11", dt.date(2026, 10, 13), ["Cara Dunn", "Jon Smyth", "Dan Eng", "Eva Fox"])
    )
    return nights


def main(url: str) -> None:
    from clubrating import djangoenv

    djangoenv.setup(url, migrate=True)
    from clubrating.club.read.clubs import find_club
    from clubrating.club.services.names import accept_exact, all_new_members
    from clubrating.club.services.tournaments import import_tournament, publish
    from clubrating.club.store.models import Member
    from clubrating.formats.typed import parse_typed

    club = find_club()
    for name, date, players in evenings():
        text = "\n".join(
            f"1, {white}, {black}, 1-0" for white, black in zip(players[::2], players[1::2])
        )
        tournament = import_tournament(club, parse_typed(text, name=name, date=date), who=WHO)
        accept_exact(tournament, who=WHO)
        all_new_members(tournament, who=WHO)
        publish(tournament, who=WHO)
    names = dict(Member.objects.filter(club=club).values_list("id", "name"))
    assert names[7] == "John Smith" and names[31] == "Jon Smyth" and len(names) == 31, names


if __name__ == "__main__":
    main(sys.argv[1])
