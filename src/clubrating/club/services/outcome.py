"""What a service did, for the arbiter."""

from __future__ import annotations

from dataclasses import dataclass

from clubrating.club.ratings import RebuildReport


@dataclass(frozen=True)
class Outcome:
    """What a service did, for the arbiter: a sentence and, if history changed, the rebuild."""

    message: str
    rebuild: RebuildReport | None = None

    def __str__(self) -> str:
        return self.message if self.rebuild is None else f"{self.message}; {self.rebuild}"
