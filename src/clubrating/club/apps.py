from django.apps import AppConfig
from django.db.models.signals import post_migrate


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
        from clubrating.club.derived.ledger import rescore_after_upgrade

        post_migrate.connect(
            rescore_after_upgrade, sender=self, dispatch_uid="clubrating-rescore-cpi"
        )
