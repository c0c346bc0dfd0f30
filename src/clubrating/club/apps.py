from typing import Any

from django.apps import AppConfig
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.signals import post_migrate

from clubrating import djangoenv
from clubrating.cpi.version import SCORING_VERSION


class ClubConfig(AppConfig):
    # The app's models and migrations live in its store (club/store/); its label, "club",
    # names the tables and the applied migrations of every existing database.
    name = "clubrating.club.store"
    label = "club"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The app's wiring (the top of club's layers, tests/test_layers.py): the tasks layer's
        # receivers of the services' signals, connected once Django has started: here, as the
        # modules that hold them import the app's models, which Django loads after this module.
        from clubrating.club.jobs import tasks  # noqa: F401

        post_migrate.connect(
            rescore_after_upgrade, sender=self, dispatch_uid="clubrating-rescore-cpi"
        )


def rescore_after_upgrade(
    sender: AppConfig, using: str = DEFAULT_DB_ALIAS, newest: bool = False, **_: Any
) -> None:
    """Django's ``post_migrate``, sent by every command's start (``djangoenv.migrate_once``): a
    new version whose CPI rules changed re-scores each club's stored analyses at once (never the
    engine), so that no page shows a CPI computed by the old rules. One query finds whether any
    club's ledger was scored by other rules than this version's
    (:data:`~clubrating.cpi.version.SCORING_VERSION`); only then is the ledger, and the CPI
    with it, imported (about 0.1 CPU-s a start: docs/benchmarks.md, "The start of a command").

    Only on the newest schema: after Django's ``migrate`` to an older state (``migrate club
    0030``, backwards or forwards from ``zero``, or again with nothing to apply) the tables are
    older than the models (a column added since is not there yet). ``newest``: the start found
    nothing to apply; else the migrations are read again to know."""
    if not newest and not djangoenv.schema_is_newest(connections[using]):
        return
    clubs = sender.get_model("Club")._default_manager.using(using)
    if not clubs.exclude(cpi_scored_with=SCORING_VERSION).exists():
        return
    from clubrating.club.derived.ledger import rescore_stale_clubs

    rescore_stale_clubs()
