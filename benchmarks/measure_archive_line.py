"""Peak memory and time of ``import-club`` refusing an archive with one line of 1 GiB.

The archive is 1 MB of gzip: a header, then a member whose name is 1 GiB of "A". A reader that
reads lines whole holds the line (and its decoded copy) before it can refuse it; a reader with
a bounded line refuses it after MAX_LINE_CHARS (docs/archive.md, "Limits"). The import runs in a
process of its own, on a new SQLite database; its peak resident memory is that process's
``ru_maxrss``.

    .venv/bin/python benchmarks/measure_archive_line.py
    .venv/bin/python benchmarks/measure_archive_line.py --src /tmp/old/src  # another checkout
    .venv/bin/python benchmarks/measure_archive_line.py --mebibytes 0       # the start alone

Results: docs/benchmarks.md, "The archive's reader".
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHUNK = "A" * (1 << 20)


def write_archive(path: Path, mebibytes: int) -> None:
    header = {"format": "clubrating-club", "version": 1, "club": "long", "schema": "0008_evening"}
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as handle:
        handle.write(json.dumps(header) + "\n")
        handle.write('{"table":"club.club","pk":1,"fields":{"name":"')
        for _ in range(mebibytes):
            handle.write(CHUNK)
        handle.write('","slug":"long"}}\n{"end":{"rows":1}}\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--src", default=str(ROOT / "src"), help="the clubrating package's folder to run"
    )
    parser.add_argument(
        "--mebibytes", type=int, default=1024, help="the long line's length in MiB (default 1024)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "long.jsonl.gz"
        write_archive(archive, args.mebibytes)
        env = {**os.environ, "PYTHONPATH": args.src}
        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "clubrating",
                "--database",
                f"sqlite:///{folder}/db.sqlite3",
                "import-club",
                str(archive),
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        seconds = time.monotonic() - started
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak, cpu = (
            usage.ru_maxrss / 1024,
            usage.ru_utime + usage.ru_stime,
        )  # ru_maxrss: KiB on Linux
        print(
            f"archive: {archive.stat().st_size / 1e6:.2f} "
            f"MB of gzip, one line of {args.mebibytes} MiB"
        )
        print(
            f"import-club: exit {done.returncode} in {seconds:.1f} "
            f"s ({cpu:.1f} s of CPU), peak memory {peak:.0f} MiB"
        )
        said = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.stdout.strip()
        print(f"said: {said}"[:300])


if __name__ == "__main__":
    main()
