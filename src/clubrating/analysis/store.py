"""A committed store of the engine's answers: one gzip'd JSON-lines file per pool of games.

Each row is one search: ``{"position": position_key, "settings": EngineInfo.key, "lines":
[[uci, score], ...]}``. A :class:`StoreCache` reads a store beneath another cache (the SQLite
file of ``--cache``): a position the store holds under the same settings key is never searched
again, anything else is searched and kept in the cache above. Rows of other settings (another
engine version, another node budget) never answer: their key differs.

:func:`write_store` writes rows sorted by settings and position, one compact JSON object a
line, gzip'd without a name or a time stamp, so the same searches always give the same bytes.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from clubrating.analysis.cache import SearchCache, SearchLine, decode_lines, encode_lines
from clubrating.errors import InputError
from clubrating.words import N_

Row = tuple[str, str, tuple[SearchLine, ...]]  # position key, settings key, the lines
ROW_FIELDS = ("position", "settings", "lines")


def _row(text: str) -> Row:
    data = json.loads(text)
    if not isinstance(data, dict) or set(data) != set(ROW_FIELDS):
        raise ValueError("not a row")
    position, settings = data["position"], data["settings"]
    if (
        not isinstance(position, str)
        or not isinstance(settings, str)
        or not isinstance(data["lines"], list)
    ):
        raise ValueError("not a row")
    return position, settings, decode_lines(json.dumps(data["lines"]))


def read_store(path: str | Path) -> Iterator[Row]:
    """Every row of a store; a damaged file is one InputError naming the file and the line."""
    number = 0
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for number, text in enumerate(handle, start=1):
                try:
                    yield _row(text)
                except (ValueError, KeyError, TypeError, AttributeError):
                    raise InputError(
                        N_(
                            'expected a JSON object {"position": ..., "settings": ..., '
                            '"lines": [[move, score], ...]}'
                        ),
                        file=str(path),
                        line=number,
                    ) from None

    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise InputError(
            N_("not a readable gzip'd store of searches (%(reason)s)"),
            reason=reason,
            file=str(path),
            line=number + 1 if number else None,
        ) from None


def row_text(position: str, settings: str, lines: tuple[SearchLine, ...]) -> str:
    """One row as the store writes it: keys in a fixed order, no spaces."""
    return json.dumps(
        {"position": position, "settings": settings, "lines": json.loads(encode_lines(lines))},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def write_store(path: str | Path, rows: Iterable[Row]) -> int:
    """Write the rows sorted by (settings, position), a later duplicate replacing an earlier
    one; the file is replaced at once (a temporary file renamed), so a reader never sees half.
    Returns the number of rows."""
    unique = {(settings, position): lines for position, settings, lines in rows}
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with open(partial, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as packed:
            for settings, position in sorted(unique):
                packed.write(
                    (row_text(position, settings, unique[settings, position]) + "\n").encode()
                )
    os.replace(partial, target)
    return len(unique)


class StoreCache:
    """The store's rows beneath ``above`` (any :class:`SearchCache`, or None): ``get`` asks
    ``above`` first, then the store; ``put`` goes to ``above`` only (the store is written by
    ``benchmarks/fill_searches.py``, never by an analysis)."""

    def __init__(self, paths: Iterable[str | Path], above: SearchCache | None = None) -> None:
        self.above = above
        self.paths = [str(p) for p in paths]
        self._rows: dict[tuple[str, str], tuple[SearchLine, ...]] = {}
        self.settings: dict[str, int] = {}  # settings key -> rows (what the store was made by)
        for path in self.paths:
            for position, settings, lines in read_store(path):
                self._rows[position, settings] = lines
                self.settings[settings] = self.settings.get(settings, 0) + 1
        self.hits = 0

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        found = self.above.get(position, settings) if self.above is not None else None
        if found is None:
            found = self._rows.get((position, settings))
            self.hits += found is not None
        return found

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        if self.above is not None:
            self.above.put(position, settings, lines)

    def rows(self) -> Iterator[Row]:
        for (position, settings), lines in self._rows.items():
            yield position, settings, lines

    def __len__(self) -> int:
        return len(self._rows)

    def close(self) -> None:
        close = getattr(self.above, "close", None)
        if close is not None:
            close()


def store_settings(paths: Iterable[str | Path]) -> dict[str, int]:
    """The settings keys the stores hold and how many rows each (reading every row: a damaged
    store fails here, in one line, before any engine starts)."""
    counts: dict[str, int] = {}
    for path in paths:
        for _, settings, _ in read_store(path):
            counts[settings] = counts.get(settings, 0) + 1
    return counts


def unused_store_line(paths: list[str], counts: dict[str, int], engine_key: str) -> str | None:
    """The one line a fit prints when a store holds no row of the engine's settings: which
    settings made it, so the reader knows every position was searched again."""
    if not counts or engine_key in counts:
        return None
    made_by = ", ".join(f"{key} ({rows:,} rows)" for key, rows in sorted(counts.items()))
    return (
        f"{', '.join(paths)}: not used, made by {made_by}; this engine's "
        f"settings are {engine_key}, so every position is searched again"
    )
