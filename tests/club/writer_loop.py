"""A club's writer in a process of its own, for the backup tests: it corrects a result, and
every third time imports and publishes a new evening, through the real ``clubrating`` command,
until a line comes on stdin. After each write it prints ``wrote N`` (N writes so far).

    python writer_loop.py DATABASE DIRECTORY
"""

from __future__ import annotations

import contextlib
import io
import sys
import threading
from pathlib import Path

EVENING = ["1,Anna Berg,Bob Cole,1-0", "1,Carl Dahl,Dana Eck,0-1", "2,Anna Berg,Dana Eck,1/2-1/2"]


def main() -> int:
    database, directory = sys.argv[1], Path(sys.argv[2])
    from clubrating import cli

    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()

    def run(*argv: str) -> None:
        with contextlib.redirect_stdout(io.StringIO()):  # stdout is the test's: only the counts
            code = cli.main(["--database", database, *argv])
        if code:
            raise SystemExit(f"writer_loop: {argv} ended with {code}")

    writes, tournaments, corrections = 0, 1, 0
    while not stop.is_set():
        if writes % 3 == 2:
            tournaments += 1
            csv = directory / f"evening-{tournaments}.csv"
            csv.write_text(
                f"# date: 2024-02-{tournaments:02d}\nround,white,black,result\n"
                + "\n".join(EVENING)
                + "\n",
                encoding="utf-8",
            )
            run("import", str(csv), "--force")  # the same pairings each time: not a duplicate here
            run("link", str(tournaments), "--exact")
            run("publish", str(tournaments))
        else:
            run(
                "correct", "1", "1", "Anna Berg", "0-1" if corrections % 2 == 0 else "1-0"
            )  # it was 1-0
            corrections += 1
        writes += 1
        print(f"wrote {writes}", file=sys.__stdout__, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
