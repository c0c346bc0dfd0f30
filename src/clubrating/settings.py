"""Django settings. The database comes from ``CLUBRATING_DATABASE_URL``
(``sqlite:///path`` by default, ``postgres://...`` for a server)."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent
from clubrating.djangoenv import DEFAULT_DATABASE_URL, page_cache  # noqa: E402  (no Django import there)

SECRET_KEY = os.environ.get("CLUBRATING_SECRET_KEY", "clubrating-dev-only-change-me-in-production")
DEBUG = os.environ.get("CLUBRATING_DEBUG", "") == "1"
ALLOWED_HOSTS = [h for h in os.environ.get("CLUBRATING_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tasks",
    "django_tasks_db",
    "axes",
    "clubrating.club",
    "clubrating.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "clubrating.web.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "clubrating.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("CLUBRATING_DATABASE_URL") or DEFAULT_DATABASE_URL,
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a writer instead of failing at once; WAL lets readers go on.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
         "transaction_mode": "IMMEDIATE"}
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The anonymous pages (web.access.club_view): per process unless shared
# (``clubrating serve`` shares a directory between its workers).
CACHES = {"default": page_cache(os.environ.get("CLUBRATING_PAGE_CACHE", ""))}

TASKS = {
    "default": {
        "BACKEND": os.environ.get("CLUBRATING_TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
LOGIN_URL = "login"

# Security basics (issue 4): Django's own machinery, not hand-written.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = os.environ.get("CLUBRATING_HTTPS", "") == "1"
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1  # hours
AXES_RESET_ON_SUCCESS = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
}
