"""benchmarks/bench_federation.py at a tiny scale, on a database of its own on the PostgreSQL
server of ``CLUBRATING_DATABASE_URL`` (a SQLite file on the SQLite run): the figures it
reports hold together (the counts are the scale's, each correction equals a full replay,
every page and query answered), and the simulated federation has the shape it claims."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clubrating.demo.simulate import federation_shapes

pytestmark = (
    pytest.mark.storage
)  # the benchmark makes its database on $CLUBRATING_DATABASE_URL's server

ROOT = Path(__file__).resolve().parents[2]
SCALE = 0.0002  # 2 clubs, 40 members, 1,000 games


def test_the_federation_has_the_issues_totals_and_one_club_of_about_fifty_thousand_games() -> None:
    shapes = federation_shapes(1_000, 200_000, 5_000_000)
    assert (sum(s.members for s in shapes), sum(s.games for s in shapes)) == (200_000, 5_000_000)
    assert 45_000 <= shapes[0].games <= 55_000 and shapes[1].games < 0.8 * shapes[0].games
    assert [s.games for s in shapes] == sorted((s.games for s in shapes), reverse=True)
    median = shapes[len(shapes) // 2].games
    assert median < 5_000 and shapes[-1].games < median / 5  # many small clubs
    assert all(s.members >= 4 and s.tournaments >= 1 for s in shapes)


def test_a_federation_needs_members_and_games_for_every_club() -> None:
    with pytest.raises(ValueError, match="four members a club"):
        federation_shapes(10, 30, 1_000)


def test_the_benchmark_at_a_tiny_scale_reports_figures_that_hold_together(tmp_path: Path) -> None:
    server = os.environ.get("CLUBRATING_DATABASE_URL", "")
    out = tmp_path / "federation.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_federation.py"),
            "--scale",
            str(SCALE),
            "--runs",
            "1",
            "--database",
            server if server.startswith("postgres") else "sqlite",
            "--json",
            str(out),
            "--parts",
            "history",
            "pages",
            "federation_list",
            "--requests",
            "10",
            "--clients",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert doc["vendor"] == ("postgresql" if server.startswith("postgres") else "sqlite")
    counts, expected = doc["counts"], doc["expected"]
    assert (counts["clubs"], counts["members"], counts["games"]) == (2, 40, 1_000)
    assert {k: expected[k] for k in ("clubs", "members", "games")} == {
        "clubs": 2,
        "members": 40,
        "games": 1_000,
    }
    history = doc["history"]
    assert history["club"] == "club-0001" and history["games"] == expected["largest_club_games"]
    assert history["equal_to_full_replay"] is True
    assert set(history["corrections"]) == {"newest tournament", "three weeks back"}
    assert all(0 < c["median_s"] < 60 for c in history["corrections"].values())
    assert (
        history["full_rebuild"]["tournaments"] > 1 and len(history["full_rebuild"]["runs_s"]) == 2
    )
    pages = doc["pages"]
    assert pages["club"] == "club-0002" and pages["rebuilding"] == "club-0001"
    rows = pages["rows"]
    event = next(p for p in pages["pages"] if p.startswith("tournament page"))
    assert event == f"tournament page ({counts['club_0002_members']} players)"  # all of them
    assert all(rows[f"{p}, cold, nothing else"]["cpu_ms"] > 0 for p in ("card", event))
    assert set(rows) == {
        f"{mode}, {beside}"
        for mode in (
            "warm",
            "cold",
            "cold, one client",
            "player page, cold",
            "card, cold",
            f"{event}, cold",
        )
        for beside in ("nothing else", "club-0001 rebuilding")
    } | {"index of all clubs", "federation list, first page", "federation list, middle page"}
    assert all(0 < r["server_median_ms"] <= r["server_p95_ms"] for r in rows.values())
    assert all(n >= 1 for n in rows["cold, club-0001 rebuilding"]["rebuilds_meanwhile"])
    listed = doc["federation_list"]
    assert 0 < listed["players_listed"] <= 40
    assert (
        listed["first_page_rows"] == min(100, listed["players_listed"])
        and listed["first_page_sorted"]
    )
    assert set(listed["keyset"]) == {"first page", "middle page"}
    assert all(r["median_ms"] > 0 for r in listed["keyset"].values())
    assert "| corrections equal to a full replay | yes |" in done.stdout
