"""WSGI entry point for ``clubrating serve`` and any WSGI server."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
application = get_wsgi_application()
