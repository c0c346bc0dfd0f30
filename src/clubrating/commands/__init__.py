"""The verbs of the ``clubrating`` command, and the module that adds each one.

Each module of :data:`MODULES` defines ``register(subparsers, common)``, which adds its verbs.
:data:`VERBS` lists every verb in the order of ``clubrating --help``, with the line that help
shows and the module that adds it: the one place where the command line imports lazily.
``clubrating --help`` reads this table alone, and a verb imports its own module only (with the
libraries that module imports at its top), so that no command pays for another's libraries
(docs/testing.md, "The start of a command"); ``tests/test_command_start.py`` checks that the
table and the modules agree.

A module marked ``django=True`` imports the club app (its models, services and reads) at its
top: the command line sets Django up on the command's database before importing it. The
others set Django up themselves when their verb needs a database (``serve`` first makes the
server's secret key and page cache, ``demo`` builds the club in a file of its own, ``match``
and ``analyze`` may need none), so they import the club app inside the functions that use it.
"""

from __future__ import annotations

from typing import NamedTuple

from clubrating.words import N_


class Verb(NamedTuple):  # a named tuple: `--help` imports no dataclasses (and inspect) for it
    name: str
    module: str  # under clubrating.commands
    help: str  # its line in ``clubrating --help``, marked for translation
    django: bool = True  # its module imports the club app: Django is set up before it
    words: tuple[tuple[str, str], ...] = ()  # what fills the help's %(...)s

    @property
    def path(self) -> str:
        return f"clubrating.commands.{self.module}"


VERBS = (
    Verb("rate", "rate", N_("rate one tournament file (no database)"), django=False),
    Verb("init", "club", N_("create a club in the database")),
    Verb("import", "tournaments", N_("import a tournament file (TRF, PGN, CSV) as a draft")),
    Verb("publish", "tournaments", N_("rate a draft tournament and show it")),
    Verb("unpublish", "tournaments", N_("take a tournament back to draft (ratings rebuilt)")),
    Verb("delete", "tournaments", N_("delete a tournament (ratings rebuilt)")),
    Verb("correct", "tournaments", N_("correct a game's result (ratings rebuilt)")),
    Verb("redate", "tournaments", N_("change a tournament's date (ratings rebuilt)")),
    Verb("tournament", "tournaments", N_("standings of a tournament (or the list of tournaments)")),
    Verb("entries", "entries", N_("the names of a tournament with the members they could be")),
    Verb("link", "names", N_("confirm which member a name is, or make it a new member")),
    Verb("merge", "names", N_("two members are one person: merge the first into the second")),
    Verb(
        "duplicates",
        "names",
        N_("members whose names look like one person (proposals to merge, never applied)"),
    ),
    Verb("distinct", "names", N_("two members are two people: no longer listed by 'duplicates'")),
    Verb("unmerge", "names", N_("undo a merge")),
    Verb(
        "member",
        "names",
        N_("a member's name, junior flag, full-name consent, and leaving the club"),
    ),
    Verb(
        "rebuild",
        "rebuild",
        N_("replay the whole history and say whether the stored ratings matched (R14)"),
    ),
    Verb("ratings", "history", N_("the rating list, provisional players below")),
    Verb("player", "history", N_("a member's lifetime history")),
    Verb("audit", "history", N_("the audit log: who changed what, when (newest first)")),
    Verb("privacy", "privacy", N_("who sees the club page and how names are shown")),
    Verb(
        "settings",
        "settings",
        N_("the club's settings (rating rules): show them, or change them and replay the history"),
    ),
    Verb(
        "seed-ratings",
        "initial_list",
        N_("store the club's initial list: members' ratings from before its first tournament"),
    ),
    Verb("match", "match", N_("propose the members a typed name could be"), django=False),
    Verb(
        "analyze",
        "analyze",
        N_("engine analysis and CPI of every game of a PGN file"),
        django=False,
    ),
    Verb("serve", "serve", N_("serve the club website"), django=False),
    Verb("worker", "serve", N_("run background jobs (engine analysis)"), django=False),
    Verb("demo", "demo", N_("build a demo club with the seeded simulator"), django=False),
    Verb("arbiter", "arbiter", N_("add, remove or list the club's arbiter logins")),
    Verb("analyse-club", "cpi", N_("engine analysis of the club's published games with moves")),
    Verb(
        "analyse",
        "cpi",
        N_("old name of %(verb)s (goes in the next release)"),
        words=(("verb", "analyse-club"),),
    ),
    Verb("cpi", "cpi", N_("a member's CPI ledger: ΔCPI and factors of every analysed game")),
    Verb("cpi-weights", "cpi", N_("show or change the CPI weights (re-scores without the engine)")),
    Verb("fairplay", "cpi", N_("for the arbiter: game quality against what each rating predicts")),
    Verb("coach", "coach", N_("a member's weakest CPI factor and exercises from their own games")),
    Verb(
        "calibrate",
        "calibrate",
        N_("fit the CPI weights and its Elo-equivalent on rated games"),
        django=False,
    ),
    Verb(
        "moves-links",
        "moves",
        N_(
            "the moves links of a tournament's boards (players type their game on a phone):"
            " list, make, revoke"
        ),
    ),
    Verb(
        "moves",
        "moves",
        N_(
            "add moves to a tournament's stored games: a PGN file matched by round and "
            "players, or one game typed"
        ),
    ),
    Verb(
        "backup",
        "backup",
        N_(
            "copy the whole database into a new file, safe while the server runs (SQLite's "
            "backup API, pg_dump)"
        ),
    ),
    Verb(
        "restore",
        "backup",
        N_("load a backup into an empty database, then apply the migrations newer than it"),
    ),
    Verb(
        "status",
        "backup",
        N_(
            "the installation's health, as /healthz reports it: database, migrations, "
            "analysis queue, workers (exit 1 when not healthy)"
        ),
    ),
    Verb(
        "evening",
        "evening",
        N_("run tonight's evening: start, register, pair, change a round, results"),
    ),
    Verb(
        "export-club",
        "archive",
        N_("write one club's whole history to a portable archive (gzip'd JSON lines)"),
    ),
    Verb(
        "import-club", "archive", N_("load a club's archive into this database, in one transaction")
    ),
    Verb(
        "monthly",
        "monthly",
        N_("publish a month's frozen rating list, list those published, or show one"),
    ),
)
BY_NAME = {verb.name: verb for verb in VERBS}
MODULES = tuple(dict.fromkeys(verb.path for verb in VERBS))
