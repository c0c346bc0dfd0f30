"""Commands forked from tests/club/readme/forks.py: each still a process of its own that sets
Django up on its database, without Python's and the libraries' start (the parent imported them)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FORKS = Path(__file__).resolve().parent / "readme" / "forks.py"


class Forks:
    """forks.py started in ``cwd`` with ``env`` (under ``prefix``, e.g. setpriv, as the commands
    would be); :meth:`run` is one ``clubrating ARGV``. Closed by :meth:`close` or a ``with``."""

    def __init__(
        self,
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        prefix: Sequence[str] = (),
    ) -> None:
        self.process = subprocess.Popen(
            [*prefix, sys.executable, str(FORKS)],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, argv: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"argv": argv, "stdin": stdin}) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, (
            f"forks.py ended (exit {self.process.wait()}) at clubrating {shlex.join(argv)}"
        )
        done = json.loads(answer)
        return subprocess.CompletedProcess(
            ["clubrating", *argv], done["exit"], done["stdout"], done["stderr"]
        )

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=60) == 0

    def __enter__(self) -> Forks:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
