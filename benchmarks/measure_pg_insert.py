"""How long PostgreSQL takes to write 2,000 rating changes four ways: VALUES statements of 181
rows (what ``derived/ratings._insert`` sent before: 2,000 parameters a statement), one VALUES
statement of 2,000 rows, ``INSERT ... SELECT FROM unnest(arrays)``, and ``COPY`` (what it sends
now). Each way in a transaction rolled back, after deleting the same rows, median of ``--runs``:
wall, this process's CPU and the server backend's CPU (its /proc entry), in milliseconds.

    .venv/bin/python benchmarks/measure_pg_insert.py --db postgres://.../DB [--runs 5]

DB: a database holding rating changes, e.g. the club ``bench_cpi_ledger.py --club 50000`` built.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from clubrating import djangoenv

    djangoenv.setup(args.db, migrate=False)
    from bench_cpi_ledger import server_cpu
    from django.db import connection, transaction

    from clubrating.club.derived.ratings import CHANGE_COLUMNS
    from clubrating.club.store.models import RatingChange

    pairs = list(RatingChange.objects.order_by("id").values_list("id", *CHANGE_COLUMNS)[:2000])
    ids, rows = [p[0] for p in pairs], [p[1:] for p in pairs]
    table, names = RatingChange._meta.db_table, ", ".join(CHANGE_COLUMNS)
    types = [
        RatingChange._meta.get_field(c.removesuffix("_id")).db_type(connection).split("(")[0]
        for c in CHANGE_COLUMNS
    ]

    def values(per: int) -> Callable[[], None]:
        def insert() -> None:
            mark = "(" + ", ".join(["%s"] * len(CHANGE_COLUMNS)) + ")"
            with connection.cursor() as cursor:
                for lo in range(0, len(rows), per):
                    chunk = rows[lo : lo + per]
                    cursor.execute(
                        f"INSERT INTO {table} ({names}) VALUES {', '.join([mark] * len(chunk))}",
                        [v for row in chunk for v in row],
                    )

        return insert

    def unnest() -> None:
        arrays = [list(column) for column in zip(*rows)]
        typed = ", ".join(f"%s::{t}[]" for t in types)
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {table} ({names}) SELECT * FROM unnest({typed})", arrays)

    def copy() -> None:
        with connection.cursor() as cursor:
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as out:
                for row in rows:
                    out.write_row(row)

    ways = (("VALUES, 181 rows", values(181)), ("VALUES, 2,000 rows", values(2000)))
    print(f"{len(rows)} rows; ms: wall, client CPU, server CPU (median of {args.runs})")
    for label, way in (*ways, ("unnest", unnest), ("COPY", copy)):
        samples = []
        for _ in range(args.runs):
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute(f"DELETE FROM {table} WHERE id = ANY(%s)", [ids])
                wall, cpu, server = time.perf_counter(), time.process_time(), server_cpu()
                way()
                samples.append(
                    (
                        time.perf_counter() - wall,
                        time.process_time() - cpu,
                        server_cpu() - server,
                    )
                )
                transaction.set_rollback(True)
        figures = (statistics.median(s[i] for s in samples) * 1000 for i in range(3))
        print(f"{label:<20}" + "".join(f"{f:8.0f}" for f in figures))


if __name__ == "__main__":
    main()
