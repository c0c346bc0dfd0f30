"""Names in the order of the page's language and found as typed: ё with е, the Armenian
alphabet, the page's script first, case folded in every script."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubrating.identity import collation
from clubrating.identity.collation import fold, matches, sort_key


def in_order(names: list[str], language: str) -> list[str]:
    return sorted(names, key=lambda n: sort_key(n, language))


@pytest.mark.parametrize(
    ("language", "names"),
    [
        # ё sorts with е, е first when the names are otherwise equal (CLDR ru)
        ("ru", ["Ёжиков", "Ежов", "Ермаков"]),
        ("ru", ["еж", "ёж", "Ёжиков"]),
        ("ru", ["Семенов", "Семёнов", "Семин", "Сёмин", "Серов"]),
        # the Russian alphabet, not the code points' order (ё is U+0451, after я)
        ("ru", ["Ёлкин", "Жуков", "Яковлев"]),
        # Ukrainian і and ї after и, before й, as CLDR's root order puts them
        ("ru", ["Иванов", "Іванов", "Їжак", "Йодко", "Кузнецов"]),
        # ґ and ў with г and у, as ё with е
        ("ru", ["Ґалаган", "Гвоздев", "Ўладзімір", "Усов"]),
        # Cyrillic before Latin on a Russian page, Latin first on an English one
        ("ru", ["Аронян", "Яковлев", "Aronian", "Zhukov"]),
        ("en", ["Aronian", "Zhukov", "Аронян", "Яковлев", "Արոնյան"]),
        # the Armenian alphabet: ... Ս Վ Տ Ր Ց Ւ Փ Ք Օ Ֆ
        (
            "hy",
            [
                "Աբրահամյան",
                "Բաբայան",
                "Գասպարյան",
                "Ղազարյան",
                "Սարգսյան",
                "Վարդանյան",
                "Տեր-Պետրոսյան",
                "Րաֆֆի",
                "Ցոլակյան",
                "Փիլոսյան",
                "Քոչարյան",
                "Օհանյան",
                "Ֆահրադյան",
            ],
        ),
        # Armenian before Latin and Cyrillic on an Armenian page
        ("hy", ["Արոնյան", "Ֆահրադյան", "Aronian", "Аронян"]),
        # և read as ե+վ on an Armenian page (CLDR hy): between եվ and ետ
        ("hy", ["Գեվորգյան", "Գևորգյան", "Գետրոսյան", "Գերասիմյան", "Գեւորգեան"]),
        # and as ե+ւ, after ե+ց, on the others (CLDR's root order)
        ("en", ["Գեվորգյան", "Գետրոսյան", "Գերասիմյան", "Գեւորգեան", "Գևորգյան"]),
        # case does not order names; lower case first when they differ only by it
        ("ru", ["аббасов", "АБРАМОВ", "Абрамова"]),
        ("hy", ["աբովյան", "ԱԲՐԱՀԱՄՅԱՆ", "Ագաջանյան"]),
        ("en", ["smith, john", "Smith, John", "SMITH, JOHN", "Smithson"]),
        # Latin accents and letters of other alphabets sort with the plain letter
        ("en", ["Lukas", "Łukasz", "Mueller", "Muller", "Müller", "Smigly", "Śmigły"]),
        # a space and a hyphen sort before letters, as in ICU
        ("en", ["Ter Petrosyan", "Ter-Petrosyan", "Terentev"]),
        ("ru", ["Петров-Водкин", "Петров, Иван", "Петрова"]),
    ],
)
def test_names_sort_as_a_reader_of_the_language_expects(language: str, names: list[str]) -> None:
    assert in_order(list(reversed(names)), language) == names


@pytest.mark.parametrize("language", ["ru-RU", "RU", "ru_RU"])
def test_a_region_or_capitals_in_the_language_change_nothing(language: str) -> None:
    assert in_order(["Zhukov", "Аронян"], language) == ["Аронян", "Zhukov"]


@pytest.mark.parametrize("language", ["de", "", "xx-YY"])
def test_another_language_sorts_as_english(language: str) -> None:
    assert in_order(["Аронян", "Zhukov", "Արոնյան", "Aronian"], language) == [
        "Aronian",
        "Zhukov",
        "Аронян",
        "Արոնյան",
    ]


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("Семенов", "Семёнов"),
        ("Семёнов", "Семенов"),
        ("СЁМИН", "сёмин"),
        ("ПЕТРОСЯН", "Петросян, Левон"),
        ("петросян", "ПЕТРОСЯН Л."),
        ("ԱՐՈՆՅԱՆ", "Արոնյան, Լևոն"),
        ("արոնյան", "ԱՐՈՆՅԱՆ"),
        ("Լեվոն", "Արոնյան, Լևոն"),  # և typed as ե+վ, as on keyboards without it
        ("Լևոն", "Լեվոն Արոնյան"),
        ("muller", "Müller, Jürgen"),
        ("MÜLLER", "Muller"),
        ("d'elia", "D’Elia, Mario"),  # a typographic apostrophe in the stored name
        ("ivan  pe", "Ivan Petrov"),  # runs of spaces typed
        ("Иванов", "Ива\u0301нов"),  # a stress mark in the stored name
        ("й", "Йодко"),
        ("", "Anyone"),
    ],
)
def test_a_search_finds_the_name_however_its_case_and_e_are_written(query: str, name: str) -> None:
    assert matches(query, name)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("Иванов", "Йванов"),  # й is a letter of its own, not и with a mark
        ("Семенова", "Семёнов"),
        ("Aronian", "Аронян"),  # no search across scripts: the shown name only
        ("Petrosyan", "Петросян"),
        ("Գեւ", "Գևորգյան"),  # the classical ե+ւ is not the ligature in a search
    ],
)
def test_a_search_does_not_find_another_spelling(query: str, name: str) -> None:
    assert not matches(query, name)


def test_fold_puts_every_script_in_one_case_and_e_for_yo() -> None:
    assert fold("  ЁЖИКОВ   Müller ԱՐՈՆՅԱՆ ") == "ежиков muller արոնյան"


@given(st.lists(st.text(max_size=12), max_size=20), st.sampled_from(["en", "ru", "hy"]))
def test_the_order_is_total_whatever_the_names(names: list[str], language: str) -> None:
    once = in_order(names, language)
    assert in_order(list(reversed(once)), language) == once  # no two different names tie


LETTERS = st.text(st.sampled_from("AaZzÜüŁłßЁёЕеЙйИиЯяԱաՖֆևԵեՎվ -,'"), max_size=12)


@given(LETTERS, LETTERS)
def test_a_name_is_found_by_its_own_beginning(name: str, rest: str) -> None:
    assert matches(name, name + rest)


def test_every_plain_character_is_its_own_fold() -> None:
    low, high = "\u0430", "\u044f"  # а-я, and the Armenian ա-ֆ: the ranges PLAIN names
    plain = [c for c in map(chr, range(0x20, 0x590)) if collation._NOT_PLAIN.fullmatch(c) is None]
    assert (
        {low, high, "\u0561", "\u0586", "z", "-"} <= set(plain)
        and "ё" not in plain
        and "A" not in plain
    )
    assert [c.translate(collation._FOLDED) for c in plain] == plain


def test_the_fold_table_stops_growing_at_its_size() -> None:
    fold("".join(map(chr, range(0x4E00, 0x4E00 + collation.TABLE_SIZE + 100))))
    assert len(collation._FOLDED) <= collation.TABLE_SIZE
