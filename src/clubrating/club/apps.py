from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "clubrating.club"
    label = "club"
    default_auto_field = "django.db.models.BigAutoField"
