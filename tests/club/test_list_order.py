"""The rating list's order (club/read/players.in_list_order) is the order of one sort by the whole
key: provisional last, rating descending, name in the page language's alphabet, member id; the
names' collation keys made only where ratings are equal."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.club.read.players import in_list_order
from clubrating.identity import collation

NAMES = st.text(alphabet="AaÄäEeЕеЁёԱաZz -'", min_size=1, max_size=6)
ROW = st.tuples(
    NAMES,
    st.sampled_from([1200.0, 1450.5, 1450.5000001, 1873.25, 0.0, -0.0]),
    st.booleans(),
)


def by_the_whole_key(rows: list[tuple[Any, ...]], language: str) -> list[tuple[Any, ...]]:
    return sorted(rows, key=lambda r: (bool(r[4]), -r[2], collation.sort_key(r[1], language), r[0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(ROW, max_size=40), st.sampled_from(["en", "ru", "hy"]), st.randoms())
def test_the_list_is_in_the_order_of_one_sort_by_the_whole_key(
    drawn: list[tuple[str, float, bool]], language: str, shuffle: Any
) -> None:
    rows = [
        (member_id, name, rating, 20, provisional, None, False, False)
        for member_id, (name, rating, provisional) in enumerate(drawn, 1)
    ]
    shuffle.shuffle(rows)
    assert in_list_order(rows, language) == by_the_whole_key(rows, language)


def test_names_sharing_a_rating_are_in_the_alphabet_of_the_page() -> None:
    rows = [
        (1, "Ёжиков", 1500.0, 9, False, None, False, False),
        (2, "Жуков", 1500.0, 9, False, None, False, False),
        (3, "Ежов", 1500.0, 9, False, None, False, False),
        (4, "Zed", 1600.0, 9, False, None, False, False),
        (5, "Abe", 1200.0, 2, True, None, False, False),
    ]
    # ё sorts as е first (Ёжиков before Ежов: и before о), Ж after Е; the provisional player last
    assert [r[0] for r in in_list_order(rows, "ru")] == [4, 1, 3, 2, 5]
