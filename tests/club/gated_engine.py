"""A UCI engine for the tests that force an order of events: Stockfish (``argv[2]``), whose
first search waits until the file ``argv[1]`` exists. Every line goes through unchanged; before
the first ``go`` is passed on, ``argv[1]`` + ``.waiting`` is made, so a test knows the engine
holds its game, and the search starts once the test makes ``argv[1]``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time


def main() -> None:
    gate, engine = sys.argv[1], sys.argv[2]
    child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    out = child.stdout

    def answers() -> None:
        for line in out:
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=answers, daemon=True).start()
    held = False
    for line in sys.stdin:
        if line.startswith("go") and not held:
            held = True
            open(f"{gate}.waiting", "w").close()
            while not os.path.exists(gate):
                time.sleep(0.05)
        child.stdin.write(line)
        child.stdin.flush()
        if line.strip() == "quit":
            break
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()
