from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "clubrating.web"
    label = "web"
