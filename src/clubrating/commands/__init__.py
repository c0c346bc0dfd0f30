"""The verbs of the ``clubrating`` command, one module each.

Each module defines ``register(subparsers, common)`` which adds its verb(s).
Modules are listed in :data:`COMMAND_MODULES`; a missing optional module is an
error, not a silent skip.
"""

COMMAND_MODULES = (
    "clubrating.commands.rate",
    "clubrating.commands.club",
    "clubrating.commands.tournaments",
    "clubrating.commands.names",
    "clubrating.commands.history",
    "clubrating.commands.privacy",
    "clubrating.commands.settings",
    "clubrating.commands.initial_list",
    "clubrating.commands.match",
    "clubrating.commands.analyze",
    "clubrating.commands.serve",
    "clubrating.commands.demo",
    "clubrating.commands.arbiter",
    "clubrating.commands.cpi",
    "clubrating.commands.coach",
    "clubrating.commands.calibrate",
    "clubrating.commands.moves",
    "clubrating.commands.backup",
    "clubrating.commands.evening",
    "clubrating.commands.archive",
    "clubrating.commands.monthly",
)
