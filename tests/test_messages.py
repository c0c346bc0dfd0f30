"""The translation catalogue is up to date with every marked text: ``scripts/messages --check``
fails the suite when a text marked for translation is missing from a .po file (the translators
then never see it), and writes nothing either way."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCALE = Path("src/clubrating/locale")


def check(
    root: Path, python: str | None = sys.executable, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``scripts/messages --check`` of ``root``, with PYTHON set to ``python`` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    return subprocess.run(
        [str(root / "scripts/messages"), "--check"],
        capture_output=True,
        text=True,
        env=env if python is None else {**env, "PYTHON": python},
        cwd=cwd,
        timeout=120,
        check=False,
    )


def catalogues(root: Path) -> dict[str, str]:
    return {
        str(po): po.read_text(encoding="utf-8")
        for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/django.po"))
    }


def copy_of_the_tree(target: Path) -> Path:
    """The script and the package in a directory of their own: the check rewrites catalogues while
    it
    runs, and other tests read the real ones at the same time."""
    shutil.copytree(ROOT / "scripts", target / "scripts")
    shutil.copytree(
        ROOT / "src/clubrating",
        target / "src/clubrating",
        ignore=shutil.ignore_patterns("__pycache__", "*.mo"),
    )
    return target


def test_every_marked_text_is_in_the_catalogue(tmp_path: Path) -> None:
    root = copy_of_the_tree(tmp_path)
    before = catalogues(root)
    result = check(root)
    assert (result.returncode, result.stderr) == (0, "")
    assert catalogues(root) == before and len(before) == 3


@pytest.mark.parametrize("python", [None, ".venv/bin/{}", "./.venv/bin/{}"])
def test_the_python_of_a_relative_path_or_of_the_projects_venv_is_found(
    tmp_path: Path, python: str | None
) -> None:
    # the script changes directory before it runs Python: a relative path is read from where it
    # was called, and the default is the .venv of the project (here a link to the tests' own)
    root = copy_of_the_tree(tmp_path)
    (root / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    name = Path(sys.executable).name
    result = check(root, None if python is None else python.format(name), cwd=root)
    assert (result.returncode, result.stderr) == (0, "")


def test_a_marked_text_missing_from_the_catalogue_fails_the_check(tmp_path: Path) -> None:
    root = copy_of_the_tree(tmp_path)
    template = root / "src/clubrating/web/templates/web/index.html"
    template.write_text(
        template.read_text(encoding="utf-8") + '{% translate "A text no catalogue has yet" %}\n',
        encoding="utf-8",
    )
    before = catalogues(root)
    result = check(root)
    assert result.returncode == 1
    assert result.stderr == (
        "messages: the catalogue of en hy ru is not up to date with the marked texts: "
        "run scripts/messages\n"
    )
    assert catalogues(root) == before


def test_no_message_of_the_catalogue_is_a_fuzzy_guess() -> None:
    """Django skips a fuzzy message (the English shows), and a translator could take the guess for
    done."""
    fuzzy = {po: text.count("#, fuzzy") for po, text in catalogues(ROOT).items()}
    assert len(fuzzy) == 3 and all(count == 0 for count in fuzzy.values()), fuzzy
