"""Readers of what the views print, for the crawl (crawl.py): HTML tables through the standard
library's HTML parser, CSV through ``csv``, TRF through the independent ``trf`` package, PGN
through python-chess, and the command line's text by its columns."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from html.parser import HTMLParser

import chess.pgn
import trf  # type: ignore[import-untyped]


@dataclass
class Cell:
    text: str = ""
    hrefs: list[str] = field(default_factory=list)


@dataclass
class Table:
    attrs: dict[str, str]
    rows: list[list[Cell]] = field(default_factory=list)


class Page(HTMLParser):
    """A page's tables (body rows only, each cell's text and links) and every element's text by
    id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self.by_id: dict[str, str] = {}
        self._open: list[Table] = []
        self._row: list[Cell] | None = None
        self._cell: Cell | None = None
        self._in_head = False
        self._ids: list[tuple[str, str, list[str]]] = []  # (tag, id, text parts) open
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a or tag == "h1":  # an element with an id, or the page's heading (by_id["h1"])
            self._ids.append((tag, a.get("id", tag), []))
        if tag == "table":
            self._open.append(Table(a))
            self.tables.append(self._open[-1])
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr" and self._open and not self._in_head:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = Cell()
        elif tag == "a" and self._cell is not None:
            self._cell.hrefs.append(a.get("href", ""))

    def handle_endtag(self, tag: str) -> None:
        if self._ids and self._ids[-1][0] == tag:
            _, ident, parts = self._ids.pop()
            self.by_id[ident] = " ".join("".join(parts).split())
        if tag == "table" and self._open:
            self._open.pop()
        elif tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._cell.text = " ".join(self._cell.text.split())
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr" and self._row is not None and self._open:
            self._open[-1].rows.append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.text += data
        for _, _, parts in self._ids:
            parts.append(data)

    def table(self, **attrs: str) -> Table | None:
        return next(
            (t for t in self.tables if all(t.attrs.get(k) == v for k, v in attrs.items())), None
        )


def member_of(href: str) -> int | None:
    """The member id of a link ``.../p/<id>/``."""
    parts = href.rstrip("/").split("/")
    return int(parts[-1]) if len(parts) >= 2 and parts[-2] == "p" and parts[-1].isdigit() else None


def tournament_of(href: str) -> int | None:
    parts = href.rstrip("/").split("/")
    return int(parts[-1]) if len(parts) >= 2 and parts[-2] == "t" and parts[-1].isdigit() else None


def half_points(text: str) -> int:
    """ "2½" -> 5, "½" -> 1, "3" -> 6, "1.5" -> 3."""
    text = text.strip()
    if text.endswith("½"):
        return 2 * int(text[:-1] or 0) + 1
    return round(float(text) * 2)


def csv_rows(content: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8"))))


def trf_players(content: bytes) -> list[trf.Player]:
    return list(trf.loads(content.decode("utf-8")).players)


def pgn_results(content: bytes) -> list[tuple[int, str, bool]]:
    """(round, result, whether a forfeit: Termination "forfeit") of every game of a PGN file."""
    handle, out = io.StringIO(content.decode("utf-8")), []
    while (game := chess.pgn.read_game(handle)) is not None:
        out.append(
            (
                int(game.headers.get("Round", "0").split(".")[0] or 0),
                game.headers["Result"],
                game.headers.get("Termination") == "forfeit",
            )
        )
    return out


def cell_ending_at(line: str, end: int) -> str:
    """The right-aligned cell of a text table whose column ends at ``end`` (its heading's end)."""
    text = line[:end]
    if len(text) < end or text.endswith(" "):
        return ""
    return text.rsplit(" ", 1)[-1]
