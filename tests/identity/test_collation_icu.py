"""The name order against ICU's, the collation library it stands in for: PostgreSQL built with
ICU collates a list of Armenian, Russian and Latin names in each page's language, and the
key must give the same order. ICU is asked through the test PostgreSQL server (scripts/test
starts it for both runs; by hand: scripts/postgres start), whatever database the suite runs on."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from clubrating.identity.collation import sort_key

NAMES = [
    "Семёнов",
    "Семенов",
    "Сёмин",
    "Семин",
    "Ежов",
    "Ёжиков",
    "ёж",
    "еж",
    "Иванов",
    "іванов",
    "Йодко",
    "Ия",
    "Петросян, Левон",
    "Петросян Ашот",
    "Петров-Водкин",
    "Петров, Иван",
    "Ter-Petrosyan",
    "Ter Petrosyan",
    "Terentev",
    "Aronian, Levon",
    "Müller",
    "Muller",
    "Mueller",
    "Łukasz",
    "Lukas",
    "Zhukov",
    "zhukov",
    "Ivanov",
    "Արոնյան, Լևոն",
    "Ավետիսյան",
    "Գևորգյան",
    "Գեվորգյան",
    "Գետրոսյան",
    "Գերասիմյան",
    "Գեւորգեան",
    "Ֆահրադյան",
    "Օհանյան",
    "Քոչարյան",
    "Եվա",
    "Եղիազարյան",
    "ԵՐԵՄՅԱՆ",
    "Ուլիխանյան",
    "Ոսկանյան",
    "Ցոլակյան",
    "Փիլոսյան",
    "Շահինյան",
    "Ռուբեն",
    "Սարգսյան",
    "Վարդանյան",
    "Տեր-Պետրոսյան",
    "Րաֆֆի",
    "Smith, John",
    "smith, john",
    "SMITH, JOHN",
    "Śmigły",
    "Smigly",
    "D'Elia",
    "DElia",
    "Anna-Maria Li",
    "Anna Maria",
    "Яковлев",
    "Ёлкин",
    "Жуков",
    "Їжак",
    "Abbasov",
    "аббасов",
    "АБРАМОВ",
    "Абрамова",
]


# Strings of letters of every alphabet the key knows, mixed, with capitals, accents and the
# punctuation of names: ICU's order must hold for text that is no name at all.
LETTERS = (
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯіїєґў"
    "ԱԲԳԴԵԶԷԸԹԺԻԼԽԾԿՀՁՂՃՄՅՆՇՈՉՊՋՌՍՎՏՐՑՒՓՔՕՖաբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆև"
    "abcdezABCZéüłšøßÆ -',."
)
LANGUAGES = [("en", "en-x-icu"), ("ru", "ru-x-icu"), ("hy", "hy-x-icu")]


ROOT = Path(__file__).resolve().parents[2]


def by_icu(words: list[str], collation: str) -> list[str]:
    import psycopg

    server = subprocess.run(
        [str(ROOT / "scripts" / "postgres"), "url"], capture_output=True, text=True, check=True
    ).stdout.strip()
    with psycopg.connect(server) as connection:
        found = connection.execute(
            "SELECT count(*) FROM pg_collation WHERE collname = %s", [collation]
        ).fetchone()
        assert found is not None and found[0] == 1, (
            f"this PostgreSQL was built without ICU's {collation}"
        )
        # ICU's ties (the same text in another normal form) by code point, as the key's last part
        rows = connection.execute(
            f'SELECT x FROM unnest(%s::text[]) x ORDER BY x COLLATE "{collation}", x COLLATE "C"',
            [words],
        ).fetchall()
        return [row[0] for row in rows]


@pytest.mark.parametrize(("language", "collation"), LANGUAGES)
def test_names_sort_as_icus_collation_of_the_language(language: str, collation: str) -> None:
    assert sorted(NAMES, key=lambda n: sort_key(n, language)) == by_icu(NAMES, collation)


@pytest.mark.parametrize(("language", "collation"), LANGUAGES)
def test_mixed_strings_of_every_alphabet_sort_as_icus_collation(
    language: str, collation: str
) -> None:
    rng = random.Random(7)
    words = sorted(
        {
            "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 6))).strip()
            for _ in range(1000)
        }
        - {""}
    )
    assert sorted(words, key=lambda n: sort_key(n, language)) == by_icu(words, collation)
