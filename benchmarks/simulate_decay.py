"""Decay when inactive: simulated careers with a break under a shipped preset's
measurement model (clubrating.cpi.decay). Per true drift of strength (Elo per √year) and per
``decay`` setting: the error of the shown Elo-equivalent on return after 0-4 years away, and how
often the true strength lies inside the shown ± (68 % is an honest interval).

    .venv/bin/python benchmarks/simulate_decay.py [--preset fide-classical] [--players 2000]
"""

from __future__ import annotations

import argparse
import sys

from clubrating.cpi.decay import GAPS, careers_with_breaks
from clubrating.cpi.index import PRESETS

DRIFTS = (0.0, 50.0, 100.0)  # ours: from "strength fixed" to "a class a year is common"
DECAYS = (0.0, 50.0, 100.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--preset", default="fide-classical", choices=[n for n in PRESETS if n != "spec"]
    )
    parser.add_argument("--players", type=int, default=2000)
    args = parser.parse_args()
    model = PRESETS[args.preset].model.elo_map
    assert model is not None
    print(
        f"{args.preset}: {args.players} simulated players per cell, {len(GAPS)} breaks; "
        "MAE Elo / share inside ± / mean ±"
    )
    print("true drift | decay | " + " | ".join(f"{gap:g} y away" for gap in GAPS))
    for drift in DRIFTS:
        outcomes = careers_with_breaks(model, drift=drift, decays=DECAYS, players=args.players)
        for decay in DECAYS:
            cells = [
                f"{o.mae:.0f} / {o.coverage:.0%} / {o.mean_sd:.0f}"
                for o in outcomes
                if o.decay == decay
            ]
            print(f"{drift:g} | {decay:g} | " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
