"""Every text the Python code marks for translation is in the catalogue, read from the code by
Python's own parser rather than by xgettext (which scripts/messages runs): xgettext skips a call
inside an f-string's braces, so such a text was never translated ("not ranked in the file" showed
in English on Russian and Armenian pages). The calls are found with ``ast``, the catalogue read
from the compiled .mo with Python's gettext."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "clubrating"
LOCALE = SOURCE / "locale"

# Calls whose first argument (or context and text, or singular and plural) is a text to translate.
SINGLE = {"gettext", "_", "gettext_lazy", "gettext_noop", "N_"}
CONTEXT = {"pgettext", "pgettext_lazy"}
PLURAL = {"ngettext", "ngettext_lazy", "Nn_"}
COUNTED_CONTEXT = {"npgettext"}
MARKERS = SINGLE | CONTEXT | PLURAL | COUNTED_CONTEXT


def called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def catalogue_key(call: ast.Call) -> str | tuple[str, int] | None:
    """The key of the call's text in a compiled catalogue (gettext's ``_catalog``): the msgid,
    "context\\x04msgid", or (msgid, 0) for a counted text; None when it is not literal."""
    name, args = called_name(call), [literal(a) for a in call.args]
    if name in SINGLE and args and args[0] is not None:
        return args[0]
    if name in CONTEXT and len(args) >= 2 and None not in args[:2]:
        return f"{args[0]}\x04{args[1]}"
    if name in PLURAL and len(args) >= 2 and args[0] is not None:
        return (args[0], 0)
    if name in COUNTED_CONTEXT and len(args) >= 3 and None not in args[:2]:
        return (f"{args[0]}\x04{args[1]}", 0)
    return None


def marked_texts(tree: ast.AST) -> list[tuple[int, str | tuple[str, int]]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (key := catalogue_key(node)) is not None:
            found.append((node.lineno, key))
    return found


def calls_inside_fstrings(tree: ast.AST) -> list[tuple[int, str]]:
    """Translation calls of a literal text inside an f-string's braces: xgettext does not see
    them (a call of a text held in a name is marked where the text is written)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for part in ast.walk(node):
                if isinstance(part, ast.Call) and catalogue_key(part) is not None:
                    found.append((part.lineno, ast.unparse(part)))
    return found


def sources() -> list[Path]:
    return sorted(p for p in SOURCE.rglob("*.py") if "migrations" not in p.parts)


def test_no_translation_call_sits_inside_an_f_string() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {call}"
        for path in sources()
        for line, call in calls_inside_fstrings(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, "xgettext skips these (give the text a name first):\n" + "\n".join(found)


@pytest.mark.parametrize("language", ["hy", "ru"])
def test_every_text_the_code_marks_is_in_the_compiled_catalogue(language: str) -> None:
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as compiled:
        known = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    missing = [
        f"{path.relative_to(ROOT)}:{line}: {key!r}"
        for path in sources()
        for line, key in marked_texts(ast.parse(path.read_text(encoding="utf-8")))
        if key not in known
    ]
    assert not missing, f"not in locale/{language}: run scripts/messages\n" + "\n".join(missing)


def test_the_checks_find_a_call_in_an_f_string_and_a_text_no_catalogue_has() -> None:
    tree = ast.parse(
        "x = f\"<b>{gettext('A text no catalogue has')}</b>\"\n"
        "y = pgettext('table heading', 'Games')\n"
        "z = ngettext('%(n)s game', '%(n)s games', n)\n"
        "w = f'{gettext(name)}'  # not literal: marked where the text is written\n"
    )
    assert calls_inside_fstrings(tree) == [(1, "gettext('A text no catalogue has')")]
    assert sorted(marked_texts(tree), key=lambda found: found[0]) == [
        (1, "A text no catalogue has"),
        (2, "table heading\x04Games"),
        (3, ("%(n)s game", 0)),
    ]
