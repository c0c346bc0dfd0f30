from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "clubrating.club"
    label = "club"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The app's wiring (the top of club's layers, tests/test_layers.py): the tasks layer's
        # receivers of the services' signals, connected once Django has started.
        from clubrating.club import tasks  # noqa: F401
