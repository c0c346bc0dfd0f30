"""The code's layout: ``ruff format`` at 100 columns (``[tool.ruff]`` in pyproject.toml) and no line
over 100 characters in the Python code, strings and comments included; the templates linted by
djlint (``[tool.djlint]``: the rules kept and why the others are not) and held to 100 characters
too (wrapped where a browser shows no difference: scripts/compare_pages checks a rewrapping).

A line is measured in characters (Unicode code points), as a reader's editor counts them: an
Armenian or Cyrillic text is not longer than its Latin spelling. Split a long string by implicit
concatenation inside parentheses, a comment or docstring over several lines.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("src", "tests", "benchmarks", "acceptance", "scripts")
LIMIT = 100
TEMPLATES = "src/clubrating/web/templates"


def python_files() -> list[Path]:
    return sorted(
        path
        for folder in CODE
        for path in (ROOT / folder).rglob("*.py")
        if "__pycache__" not in path.parts
    )


def template_files() -> list[Path]:
    return sorted(p for p in (ROOT / "src").rglob("*.html") if "templates" in p.parts)


def long_lines(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Each line over the limit as ``path:line: N characters`` (the path from ``root``)."""
    found = []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if len(line) > LIMIT:
                found.append(f"{path.relative_to(root)}:{number}: {len(line)} characters")
    return found


def test_the_code_is_as_ruff_formats_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", *CODE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def undefined_names(paths: list[str], root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """ruff's pyflakes rule F821 (a name used that nothing defines) over ``paths``."""
    return subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "F821", "--no-fix", "--quiet"]
        + ["--output-format", "concise", *paths],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_no_name_is_used_that_nothing_defines() -> None:
    # a module the tests never import (the acceptance checks, the benchmarks, the scripts) fails
    # only when it runs: a rename that missed one of its names is found here first
    done = undefined_names(list(CODE))
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_undefined_name_is_found_and_named(tmp_path: Path) -> None:
    (tmp_path / "sample.py").write_text("import os\n\nprint(os.sep, tournamentsents)\n")
    done = undefined_names(["sample.py"], tmp_path)
    assert done.returncode == 1 and "sample.py:3:15: F821" in done.stdout, done.stdout


def test_no_line_of_python_is_over_100_characters() -> None:
    files = python_files()
    assert len(files) > 300, "the code was not found"
    assert long_lines(files) == []


def test_a_long_line_is_found_and_named(tmp_path: Path) -> None:
    # the check itself: a line of 101 characters is named with its place, one of 100 is not, nor
    # 100 Armenian letters (two bytes each)
    sample = tmp_path / "sample.py"
    sample.write_text("x = 1\n" + "#" * 100 + "\n" + "#" * 101 + "\n" + "ա" * 100, encoding="utf-8")
    assert long_lines([sample], root=tmp_path) == ["sample.py:3: 101 characters"]


def test_no_line_of_a_template_is_over_100_characters() -> None:
    # every template is wrapped by hand where a browser shows no line break (docs/testing.md)
    files = template_files()
    assert len(files) > 40 and all(str(p).startswith(str(ROOT / TEMPLATES)) for p in files)
    assert long_lines(files, ROOT / TEMPLATES) == []


def djlint(paths: list[str], root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``djlint --lint`` over ``paths`` with the configuration of ``root``'s pyproject.toml."""
    return subprocess.run(
        [sys.executable, "-m", "djlint", "--lint", *paths],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_templates_keep_djlints_rules() -> None:
    done = djlint([TEMPLATES])
    assert done.returncode == 0, done.stdout + done.stderr


def test_djlint_names_a_kept_rule_broken_and_passes_an_ignored_one(tmp_path: Path) -> None:
    # the check itself, under the project's configuration: an <option> left open (H025), a Django
    # tag split over two lines (D058: Django would print it as text) are found; a button without
    # a type (H043, ignored) is not
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "sample.html").write_text(
        "{% load i18n %}\n<p>{% if a %}<b>x</b>{% endif %}</p>\n"
        '<select name="x">{% for v in vs %}<option value="{{ v }}">{% endfor %}</select>\n'
        '<p>{% translate\n  "Hello" %}</p>\n<form><button>Go</button></form>\n'
    )
    done = djlint(["templates"], tmp_path)
    found = sorted({line.split()[0] for line in done.stdout.splitlines() if line[1:4].isdigit()})
    assert done.returncode == 1 and found == ["D058", "H025"], done.stdout
