"""Every real TRF file in ../shared/data/trf/ is read with the right players, rounds
and unplayed cells. The expected counts are taken here from the columns of the
files directly (TRF-16: round r at column 92 + 10(r - 1)), not from the reader,
and the players and rounds also from the data's README."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from clubrating.files import read_tournament_file
from clubrating.formats.records import ByeKind, TournamentRecord

TRF_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "trf"

# From ../shared/data/README.md: players and rounds in the file (Gros: 4 played + round 5 in
# progress).
README_FIGURES = {
    "fide_example1_karl_mala_2005.trf": (284, 7),
    "gros_open_2010_javafo_TRFXSample2.trf": (52, 5),
    "gros_open_2010_competichess_variant.trf": (52, 5),
}
CLEAN_POINTS = (
    "fide_example1_karl_mala_2005.trf",
    "gros_open_2010_javafo_TRFXSample2.trf",
    "lichess_swiss_mai_5plus0_2020.trf",
    "lichess_swiss_juni_blitz_5plus0_2020.trf",
)


def trf_files() -> list[Path]:
    if not TRF_DIR.is_dir():
        pytest.fail(f"the real data folder {TRF_DIR} is missing")
    files = sorted(TRF_DIR.glob("*.trf"))
    if not files:
        pytest.fail(f"no .trf file in {TRF_DIR}")
    return files


def cells_by_columns(path: Path) -> tuple[int, int, int, int]:
    """(players, rounds, played cells, unplayed cells) counted from the raw columns."""
    rows = []
    for line in path.read_bytes().decode("latin-1").splitlines():
        if line.startswith("001"):
            cells = [line[start : start + 8].ljust(8) for start in range(91, len(line), 10)]
            rows.append(cells)
    rounds = max(
        (index + 1 for cells in rows for index, cell in enumerate(cells) if cell.strip()), default=0
    )
    played = sum(
        1
        for cells in rows
        for cell in cells[:rounds]
        if cell[:4].strip() not in ("", "0000") and cell[7] in "10="
    )
    return len(rows), rounds, played, len(rows) * rounds - played


def unplayed_in_record(record: TournamentRecord) -> int:
    return 2 * sum(1 for p in record.pairings if not p.played) + len(record.byes)


@pytest.mark.parametrize("path", trf_files(), ids=lambda path: path.name)
def test_every_real_trf_file_has_the_players_rounds_and_unplayed_cells_of_its_columns(
    path: Path,
) -> None:
    record = read_tournament_file(str(path))
    players, rounds, played, unplayed = cells_by_columns(path)
    assert len(record.players) == players
    assert record.rounds == rounds
    assert 2 * sum(1 for p in record.pairings if p.played) == played
    assert unplayed_in_record(record) == unplayed
    if path.name in README_FIGURES:
        assert (len(record.players), record.rounds) == README_FIGURES[path.name]
    if path.name in CLEAN_POINTS:
        assert record.warnings == ()  # the points written agree with the points computed


def test_the_gros_open_is_the_same_crosstable_from_both_programs() -> None:
    javafo = read_tournament_file(str(TRF_DIR / "gros_open_2010_javafo_TRFXSample2.trf"))
    variant = read_tournament_file(str(TRF_DIR / "gros_open_2010_competichess_variant.trf"))
    # forfeits carry colours in JaVaFo's file and '-' in the other, so compare who scored what
    games = lambda record: {
        (
            p.round,
            frozenset({(p.white, p.white_points), (p.black, p.black_points)}),  # noqa: E731
            p.played,
        )
        for p in record.pairings
    }
    assert games(javafo) == games(variant)
    assert sum(1 for p in javafo.pairings if not p.played) == 4  # README: 4 forfeit pairs
    half = lambda record: {  # noqa: E731
        (b.round, b.player) for b in record.byes if b.kind is ByeKind.HALF_POINT
    }
    assert half(javafo) == half(variant) and len(half(javafo)) == 16  # 'H' there, '0000 - =' here


def test_the_gelendzhik_file_with_all_zero_points_is_read_with_one_warning() -> None:
    record = read_tournament_file(str(TRF_DIR / "xii_sds_classic_gelendzhik_2016.trf"))
    assert any("all zero" in str(warning) for warning in record.warnings)
    assert record.players[0].name == "Vitaly Boiarintsev"


# The files whose 001 lines carry a final rank (columns 86-89) that agrees with their points; the
# Gelendzhik file's ranks are its start numbers over an all-zero points column (README: the results
# look machine-generated), and the lichess exports leave the column blank.
RANKED_AS_WRITTEN = {
    "fide_example1_karl_mala_2005.trf",
    "gros_open_2010_javafo_TRFXSample2.trf",
    "gros_open_2010_competichess_variant.trf",
}


@pytest.mark.parametrize("path", trf_files(), ids=lambda path: path.name)
def test_every_real_trf_file_is_stored_in_the_order_of_the_ranks_written_in_it(
    path: Path, db: None
) -> None:
    from clubrating.club.services.clubs import create_club
    from clubrating.club.services.tournaments import import_tournament
    from clubrating.club.read import tournaments

    club = create_club("Acceptance", who="acceptance")
    record = read_tournament_file(str(path))
    tournament = import_tournament(
        club, record, who="acceptance", date=record.date or dt.date(2020, 1, 1)
    )
    table = tournaments.standings(tournament)
    written = {p.number: p.rank for p in record.players}
    places = [(p["place"], p["number"]) for p in table["players"]]
    if path.name not in RANKED_AS_WRITTEN:
        assert table["rule"] == "tiebreaks" and [place for place, _ in places] == list(
            range(1, len(places) + 1)
        )
        return
    assert table["rule"] == "written" and table["ranked_by"] == "Ranked as written in the file"
    assert [(written[number], number) for _, number in places if written[number]] == sorted(
        (rank, number) for number, rank in written.items() if rank
    )
    assert all(
        place == written[number] for place, number in places
    )  # None where the file has 0 (withdrawn)


TRF_HEADER_FIELDS = (
    "name",
    "city",
    "federation",
    "startdate",
    "enddate",
    "numplayers",
    "numratedplayers",
    "numteams",
    "type",
    "chiefarbiter",
    "deputyarbiters",
    "rateofplay",
)
"""The header lines as the independent ``trf`` package (1.1.1) names them."""


@pytest.mark.parametrize("path", trf_files(), ids=lambda path: path.name)
def test_every_real_trf_file_s_header_lines_survive_the_export_for_an_independent_reader(
    path: Path,
) -> None:
    import io

    import trf  # type: ignore[import-untyped]

    from clubrating.formats.trf import write_trf

    record = read_tournament_file(str(path))
    original = trf.loads(
        path.read_bytes().decode("latin-1" if "karl_mala" in path.name else "utf-8")
    )
    out = io.StringIO()
    write_trf(record, out)
    exported = trf.loads(out.getvalue())
    differing = {
        f: (getattr(original, f), getattr(exported, f))
        for f in TRF_HEADER_FIELDS
        if getattr(original, f) != getattr(exported, f)
    }
    if (
        path.name == "xii_sds_classic_gelendzhik_2016.trf"
    ):  # 062 announces 14 players, the file has 13
        assert differing == {"numplayers": (14, 13)}
    else:
        assert differing == {}
    assert original.xx_fields.get("XXR") == exported.xx_fields.get("XXR")


FULL_POINT_CODES, HALF_POINT_CODES = "1+WFU", "=DH"
"""TRF-16's result codes that give a point and half a point (the opponent's cell or 0000 alike)."""


def file_result(path: Path) -> dict[int, tuple[float | None, int | None, float]]:
    """Start number -> (points written in columns 81-84, rank in 86-89, points its cells give),
    read from the raw columns, without the reader."""
    rows = {}
    for line in path.read_bytes().decode("latin-1").splitlines():
        if line.startswith("001"):
            points, rank = line[80:84].strip(), line[85:89].strip()
            cells = [line[start : start + 8].ljust(8)[7] for start in range(91, len(line), 10)]
            computed = sum(
                1.0 if code in FULL_POINT_CODES else 0.5 if code in HALF_POINT_CODES else 0.0
                for code in cells
            )
            rows[int(line[4:8])] = (
                float(points) if points else None,
                int(rank) if rank.isdecimal() and int(rank) else None,
                computed,
            )
    return rows


def ranks_order_points(ranks: dict[int, int], points: dict[int, float]) -> bool:
    """Whether the ranks order the points: a better rank never with fewer points, a shared rank
    with the same points."""
    by_rank = sorted((rank, points[number]) for number, rank in ranks.items())
    return all(
        points_above >= points_below and (rank_above < rank_below or points_above == points_below)
        for (rank_above, points_above), (rank_below, points_below) in zip(by_rank, by_rank[1:])
    )


# Measured with the test below: the files whose ranks do not order their points (placeholder ranks).
PLACEHOLDER_RANKS = {
    "xii_sds_classic_gelendzhik_2016.trf"
}  # start numbers over an all-zero points column


@pytest.mark.parametrize("path", trf_files(), ids=lambda path: path.name)
def test_the_standings_places_are_the_file_s_ranks_wherever_they_order_its_points(
    path: Path, db: None
) -> None:
    from clubrating.club.services.clubs import create_club
    from clubrating.club.services.tournaments import import_tournament
    from clubrating.club.read import tournaments

    club = create_club("Acceptance", who="acceptance")
    record = read_tournament_file(str(path))
    tournament = import_tournament(
        club, record, who="acceptance", date=record.date or dt.date(2020, 1, 1)
    )
    table = tournaments.standings(tournament)
    rows = file_result(path)
    written = {n: p for n, (p, _, _) in rows.items() if p is not None}
    if not any(written.values()):  # no points written, or an all-zero column: the results give them
        written = {n: computed for n, (_, _, computed) in rows.items()}
    ranks = {n: rank for n, (_, rank, _) in rows.items() if rank is not None}
    shown = {p["number"]: (p["place"], p["points"]) for p in table["players"]}
    assert {n: points for n, (_, points) in shown.items()} == written  # the file's own points
    ordered = bool(ranks) and ranks_order_points(ranks, written)
    assert (path.name in PLACEHOLDER_RANKS) == (bool(ranks) and not ordered)
    if ordered:
        assert table["rule"] == "written"
        assert {n: place for n, (place, _) in shown.items()} == {n: ranks.get(n) for n in rows}
    else:
        assert table["rule"] == "tiebreaks"
        assert (table["ranking_why"] is not None) == bool(ranks)
