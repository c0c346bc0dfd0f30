"""A rating list read from CSV (',' or ';', any header case, games optional) or a TRF's 001
lines; every bad row names the file and the line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from clubrating.errors import InputError
from clubrating.formats.ratinglist import ListedRating, read_rating_list

DATA = Path(__file__).parent / "data"


def _read(text: str) -> tuple[ListedRating, ...]:
    return read_rating_list(io.StringIO(text), "list.csv")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name,rating,games\nAnna Berg,1450,30\n", [("Anna Berg", 1450.0, 30)]),
        ("NAME;Rating;GAMES\nAnna Berg;1450;30\n", [("Anna Berg", 1450.0, 30)]),
        ("name;rating\nAnna Berg;1413,8\n", [("Anna Berg", 1413.8, None)]),
        ("Rating,Name\n1450,Anna Berg\n", [("Anna Berg", 1450.0, None)]),
        (
            "name,rating,games\nAnna Berg,1450,\nBen Cole,1300,0\n",
            [("Anna Berg", 1450.0, None), ("Ben Cole", 1300.0, 0)],
        ),
        (
            '\ufeffname,rating,games,club id\n\n"Berg, Anna",1450,3,77\n',
            [("Berg, Anna", 1450.0, 3)],
        ),
        (" name , rating \n Anna Berg , 1450 \n", [("Anna Berg", 1450.0, None)]),
    ],
)
def test_a_csv_list_is_read_whatever_its_separator_and_header_case(
    text: str, expected: list[tuple]
) -> None:
    assert [(r.name, r.rating, r.games) for r in _read(text)] == expected


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", None, "the file is empty"),
        ("name,points,games\nAnna,1400,3\n", 1, "expected a header with the columns name, rating"),
        ("name,rating,name\nAnna,1400,Anna\n", 1, "expected a header"),
        ("name,rating,games\n", None, "holds no player"),
        ("name,rating,games\nAnna,abc,3\n", 2, "rating 'abc'"),
        ("name,rating,games\nAnna,inf,3\n", 2, "rating 'inf'"),
        ("name,rating,games\nAnna,99999,3\n", 2, "0 to 4000"),
        ("name,rating,games\nAnna,1400,-1\n", 2, "games '-1'"),
        ("name,rating,games\nAnna,1400,2.5\n", 2, "games '2.5'"),
        ("name,rating,games\nAnna,1400\n", 2, "expected 3 fields"),
        ("name;rating\nAnna;1400\n\nANNA ;1500\n", 4, "listed twice \\(first on line 2\\)"),
        ("name,rating,games\n,1400,3\n", 2, "empty name"),
        ("name,rating\n" + "x" * 300 + ",1400\n", 2, "a name of 300 characters"),
    ],
)
def test_a_bad_list_is_refused_naming_the_file_and_the_line(
    text: str, line: int | None, message: str
) -> None:
    with pytest.raises(InputError, match=message) as raised:
        _read(text)
    assert (raised.value.file, raised.value.line) == ("list.csv", line)


def _trf_line(number: int, name: str, rating: str) -> str:
    return f"001 {number:>4} m    {name:<33} {rating:>4} ARM             1990/01/01  1.0    1"


def test_a_trf_gives_the_rating_column_of_its_001_lines_and_no_games() -> None:
    text = (
        "\n".join(
            [
                "012 Club Open",
                _trf_line(1, "Berg, Anna", "1450"),
                _trf_line(2, "Cole, Ben", ""),
                _trf_line(3, "Dunn, Cara", "2401"),
            ]
        )
        + "\n"
    )
    rows = read_rating_list(io.StringIO(text), "open.trf")
    assert [(r.name, r.rating, r.games, r.line) for r in rows] == [
        ("Berg, Anna", 1450.0, None, 2),
        ("Dunn, Cara", 2401.0, None, 4),
    ]


def test_a_trf_with_a_bad_rating_names_its_columns_and_line() -> None:
    text = "012 Club Open\n" + _trf_line(1, "Berg, Anna", "14x0") + "\n"
    with pytest.raises(InputError, match="columns 49-52: rating '14x0'") as raised:
        read_rating_list(io.StringIO(text), "open.trf")
    assert raised.value.line == 2


def test_a_trf_without_ratings_is_refused() -> None:
    text = "012 Club Open\n" + _trf_line(1, "Berg, Anna", "") + "\n"
    with pytest.raises(InputError, match="no 001 line with a rating"):
        read_rating_list(io.StringIO(text), "open.trf")


def test_the_gros_open_gives_the_ratings_of_its_rated_players() -> None:
    path = (
        DATA / "gros_open_2010_javafo_TRFXSample2.trf"
    )  # JaVaFo's TRF sample: 52 players, 41 rated
    rows = read_rating_list(io.StringIO(path.read_text(encoding="latin-1")), path.name)
    assert len(rows) == 41 and (rows[0].name, rows[0].rating, rows[0].games) == (
        "Mirzoev Azer",
        2527.0,
        None,
    )


@pytest.mark.parametrize(
    "header",
    [
        "Անուն;Վարկանիշ;Խաղեր",
        "ԱՆՈՒՆ;ՎԱՐԿԱՆԻՇ;ԽԱՂԵՐ",
        "Խաղացող;Էլո;Վարկանիշային խաղեր",
        "Имя;Рейтинг;Партии",
        "ИГРОК;рейтинг;Количество партий",
        "ФИО;Эло;Сыграно партий",
        "Player;Elo;Rated games",
        "  name ; RATING ; Games  ",
    ],
)
def test_a_list_headed_in_armenian_russian_or_english_words_is_read(header: str) -> None:
    rows = read_rating_list(io.StringIO(f"{header}\nAnna Berg;1450;30\n"), "list.csv")
    assert rows == (ListedRating("Anna Berg", 1450.0, 30, 2),)


def test_a_header_of_other_words_is_refused_naming_the_words_it_takes() -> None:
    with pytest.raises(InputError) as refused:
        read_rating_list(io.StringIO("Фамилия;Очки\nAnna Berg;1450\n"), "list.csv")
    assert str(refused.value).startswith("list.csv:1: expected a header with the columns name")
