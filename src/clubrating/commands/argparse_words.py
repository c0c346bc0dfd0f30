"""argparse's own words (``usage:``, ``options``, its parsing errors) in the command's language.

argparse translates them with the ``gettext`` and ``ngettext`` it imports from the standard
library; :func:`speak_the_command_language` points those two names at our catalogue, where the
texts below are: argparse's msgids exactly as Python 3.11's Lib/argparse.py writes them, marked
with ``N_`` so that ``scripts/messages`` keeps them (tests/test_language_help.py checks that
argparse still says each one). Its messages for a programmer's mistakes (conflicting options, a
bad ``dest=``) are left out: they are bugs of ours, not an arbiter's.
"""

from __future__ import annotations

import argparse

from clubrating import djangoenv
from clubrating.words import N_, Nn_

# argparse's texts, as it passes them to gettext (Lib/argparse.py, 3.11)
MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("unexpected option string: %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)
COUNTED = (Nn_("expected %s argument", "expected %s arguments"),)
VERSION_HELP = N_(
    "show program's version number and exit"
)  # argparse's, which it does not translate


def _gettext(message: str) -> str:
    return (
        djangoenv.gettext(message) if message else message
    )  # argparse passes None for a missing description


def speak_the_command_language() -> None:
    """argparse's words from now on in the command's language (the environment's, known before
    Django starts), so that the parser is built and the command line parsed in it.

    argparse looks ``_`` and ``ngettext`` up in its own module at each of its some thirty
    calls (in the parser, the help formatter, the actions and ArgumentError), so setting those
    two names is the one hook that reaches all of them: a subclass would have to copy most of
    argparse, and binding the standard library's global domain (``gettext.textdomain``) would
    hand every library of the process our catalogue, in gettext's choice of language rather than
    :func:`clubrating.djangoenv.language`'s."""
    setattr(argparse, "_", _gettext)
    setattr(argparse, "ngettext", djangoenv.ngettext)
