"""Start Django from the command line: choose the database, then ``django.setup()``."""

from __future__ import annotations

import os

DEFAULT_DATABASE_URL = "sqlite:///clubrating.sqlite3"
_ready = False


def setup(database_url: str | None = None, *, migrate: bool = False) -> None:
    """Configure Django once for this process; optionally bring the schema up to date."""
    global _ready
    if database_url:
        os.environ["CLUBRATING_DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    if not _ready:
        import django

        django.setup()
        _ready = True
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
