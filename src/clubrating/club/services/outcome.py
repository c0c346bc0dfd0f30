"""What a service did, for the arbiter: an English sentence (logs, ``--json``) that the command
and the web translate where they show it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clubrating.errors import ENGLISH, Catalogue, Text

if TYPE_CHECKING:
    from clubrating.club.derived.ratings import RebuildReport  # the rebuild's module imports numpy


@dataclass(frozen=True)
class Outcome:
    """What a service did, for the arbiter: a sentence and, if history changed, the rebuild."""

    message: str | Text
    rebuild: RebuildReport | None = None

    def __str__(self) -> str:
        return self.translated()

    def translated(self, catalogue: Catalogue = ENGLISH) -> str:
        """The sentence in the language of ``catalogue`` (English by default, as ``str``)."""
        said = (
            self.message.translated(catalogue)
            if isinstance(self.message, Text)
            else catalogue.gettext(self.message)
        )
        return (
            said
            if self.rebuild is None
            else f"{said}; {rebuild_text(self.rebuild).translated(catalogue)}"
        )


def rebuild_text(report: RebuildReport) -> Text:
    """The rebuild's sentence (RebuildReport's own ``str``, English) to translate."""
    return report.text
