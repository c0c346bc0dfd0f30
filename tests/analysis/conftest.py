"""The scripted fake engine, started as a real UCI process by python-chess."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig

HERE = Path(__file__).parent


class FakeEngine:
    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.log = tmp_path / "uci.log"
        self.path = tmp_path / "fakefish"
        self.path.write_text(f'#!/bin/sh\nexec {sys.executable} {HERE / "fake_uci.py"} "$@"\n')
        self.path.chmod(0o755)
        monkeypatch.setenv("FAKE_UCI_LOG", str(self.log))

    def config(self, cache: str | None = None, nodes: int = 1000) -> AnalysisConfig:
        return AnalysisConfig(
            EngineSettings(path=str(self.path), nodes=nodes), book=None, cache=cache
        )

    def commands(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def searches(self) -> list[str]:
        """The ``position`` line sent before each ``go nodes`` (the main searches)."""
        found, last = [], ""
        for line in self.commands():
            if line.startswith("position"):
                last = line
            elif line.startswith("go nodes"):
                found.append(last)
        return found


@pytest.fixture
def fake_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeEngine:
    return FakeEngine(tmp_path, monkeypatch)
