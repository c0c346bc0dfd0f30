"""The ``clubrating`` command: a thin shell over the library (docs/architecture.md).

Data goes to stdout (one JSON document with ``--json``), progress and logs to
stderr. A :class:`~clubrating.errors.ClubratingError` becomes one line on
stderr and exit status 2; anything else is a bug and keeps its traceback.
A word of the command line holding a control character is refused before any
verb runs, and whatever a command prints goes through :class:`EscapingStream`,
so that no stored text, however it came in, can command the terminal.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from clubrating import __version__
from clubrating import djangoenv
from clubrating.commands import BY_NAME, MODULES, VERBS
from clubrating.commands.argparse_words import VERSION_HELP, speak_the_command_language
from clubrating.commands.output import examples, option, verb_help
from clubrating.djangoenv import gettext
from clubrating.errors import ClubratingError
from clubrating.words import LAYOUT, control_name, escape_controls, find_control

Handler = Callable[[argparse.Namespace], int | None]


class VerbParser(argparse.ArgumentParser):
    """The parser of each verb. A verb that reads words argparse would take for options (say
    ``correct``'s results ``--`` and ``-+``) marks them first with the function it sets as its
    ``prepare_arguments`` default."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        prepare = self.get_default("prepare_arguments")
        if prepare is not None:
            args = prepare(list(sys.argv[1:] if args is None else args))
        return super().parse_known_args(args, namespace)


def common_options() -> argparse.ArgumentParser:
    """Options every verb accepts, before or after the verb's name."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--database",
        metavar="URL",
        default=argparse.SUPPRESS,
        help=gettext(
            "database URL (default: $CLUBRATING_DATABASE_URL or sqlite:///clubrating.sqlite3)"
        ),
    )
    common.add_argument(
        "--engine",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help=gettext("UCI engine (default: $CLUBRATING_ENGINE or /usr/games/stockfish)"),
    )
    common.add_argument(
        "--book",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help=gettext("Polyglot opening book (default: $CLUBRATING_BOOK or Debian's gnuchess-book)"),
    )
    common.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help=gettext("print one JSON document on stdout"),
    )
    return common


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The command line, every text of its help in the command's language (argparse's own too):
    every verb's (``verb`` None; the club app must be set up); the verbs of ``verb``'s module
    only, imported now; or, ``verb`` "", the verbs' lines of ``clubrating --help`` alone, read
    from :data:`clubrating.commands.VERBS` (no command module imported)."""
    speak_the_command_language()
    common = common_options()
    parser = argparse.ArgumentParser(
        prog="clubrating",
        description=gettext("A chess club's own rating list and Chess Performance Index."),
        parents=[common],
        epilog=examples("clubrating rate evening.trf --prior ratings.csv --json"),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"clubrating {__version__}",
        help=gettext(VERSION_HELP),
    )
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=VerbParser
    )
    if verb == "":
        for each in VERBS:
            subparsers.add_parser(each.name, help=verb_help(each.name))
        return parser
    for module in MODULES if verb is None else (BY_NAME[verb].path,):
        importlib.import_module(module).register(subparsers, common)
    return parser


class EscapingStream:
    """stdout or stderr of a command: every control character but the line feed and the tab is
    written as its ``\\uXXXX`` escape (words.escape_controls), so that a name stored with an
    ESC sequence before such names were refused prints as text and clears no screen; the
    escape is JSON's own, so ``--json`` stays valid JSON. Everything else is the stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(escape_controls(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


# The options whose value may run over several lines (moves typed, or pasted, line by line):
# layout (tab, line ends) is allowed there only; every other word of a command line is one line.
MULTILINE_OPTIONS = ("--typed",)


def control_in_words(words: Sequence[str]) -> str | None:
    """The error line for the first word of the command line holding a control character, or
    None (words.CONTROL_RANGES; docs/operations.md, "Control characters")."""
    for position, word in enumerate(words, 1):
        multiline = (
            position > 1
            and words[position - 2] in MULTILINE_OPTIONS
            or word.startswith(tuple(f"{name}=" for name in MULTILINE_OPTIONS))
        )
        if (at := find_control(word, LAYOUT if multiline else "")) >= 0:
            return gettext(
                "clubrating: error: word %(position)s of the command line (%(word)s) has a control "
                "character %(character)s: expected printable text"
            ) % {
                "position": position,
                "word": ascii(word[:40]),
                "character": control_name(word[at]),
            }
    return None


def named_verb(argv: Sequence[str]) -> str | None:
    """The first word of the command line that is not an option (nor an option's value): the
    verb's name as typed, or None when there is none (``--help``, ``--version``)."""
    taking_value = {"--database", "--engine", "--book"}
    words = iter(argv)
    for word in words:
        if word in taking_value:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def prepare(verb: str, words: list[str]) -> None:
    """Before the verb's module is imported: Django set up on the command's database when that
    module imports the club app (:mod:`clubrating.commands`); no connection is opened yet."""
    if BY_NAME[verb].django:
        known, _ = common_options().parse_known_args(words)
        djangoenv.configure(
            option(known, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL)
        )


def main(argv: Sequence[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingStream(out), EscapingStream(err)
    try:
        return run(list(sys.argv[1:] if argv is None else argv))
    finally:
        sys.stdout, sys.stderr = out, err


def run(words: list[str]) -> int:
    """The command line ``words``, run: its exit status."""
    if (refused := control_in_words(words)) is not None:
        print(refused, file=sys.stderr)
        return 2
    verb = named_verb(words)
    if verb is None:  # --help, --version or no verb: argparse prints and exits
        build_parser("").parse_args(words)
        return 2
    if verb not in BY_NAME:  # argparse would say it in English only
        build_parser("").print_usage(sys.stderr)
        print(
            gettext(
                "clubrating: error: unknown command %(verb)s: "
                "see clubrating --help for the commands"
            )
            % {"verb": repr(verb)},
            file=sys.stderr,
        )
        return 2
    return guarded(verb, functools.partial(dispatch, verb, words))


def dispatch(verb: str, words: list[str]) -> int:
    prepare(verb, words)
    args = build_parser(verb).parse_args(words)
    handler: Handler = args.handler
    return handler(args) or 0


def guarded(command: str, act: Callable[[], int]) -> int:
    """``act``'s exit status; a ClubratingError, an interrupt or a database's refusal is one line
    on stderr and its status (2, 130)."""
    try:
        return act()
    except ClubratingError as error:
        print(
            gettext("clubrating %(command)s: error: %(error)s")
            % {"command": command, "error": error.translated(djangoenv)},
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print(
            gettext("clubrating %(command)s: interrupted") % {"command": command},
            file=sys.stderr,
        )
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:
        # the database refused (unreachable server, bad password, a file not
        # writable): the user's setting, not a bug, so one line and no traceback
        database = sys.modules.get("django.db")
        if database is None or not isinstance(error, database.Error):
            raise
        detail = " ".join(str(error).split()) or type(error).__name__
        print(
            gettext("clubrating %(command)s: error: database: %(detail)s")
            % {"command": command, "detail": detail},
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
