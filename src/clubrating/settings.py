"""Django settings. The database comes from ``CLUBRATING_DATABASE_URL``
(``sqlite:///path`` by default, ``postgres://...`` for a server)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent
from clubrating.djangoenv import (  # noqa: E402  (no Django import there)
    DEFAULT_DATABASE_URL,
    cors_origins,
    page_cache,
    server_database,
    sqlite_database,
)
from clubrating.errors import InputError  # noqa: E402
from clubrating.words import N_  # noqa: E402
from clubrating.web.secret_key import installation_key  # noqa: E402  (no Django import there)

# The databases the product runs on, as dj_database_url names their URLs' schemes.
DATABASE_SCHEMES = ("sqlite", "postgres", "postgresql", "pgsql")


def database_settings(url: str) -> dict[str, Any]:
    """Django's DATABASES["default"] for ``url`` below: a SQLite file or a PostgreSQL
    database. Any other scheme, or a server URL naming no database, is one line naming the
    scheme, never the URL (it may hold a password)."""
    scheme = url.partition("://")[0] if "://" in url else ""
    if scheme not in DATABASE_SCHEMES:
        raise InputError(
            N_(
                "the database URL's scheme %(scheme)s is not one this program uses: expected "
                "sqlite:///PATH or postgres://USER@HOST/NAME"
            ),
            scheme=repr(scheme),
        )
    config = dict(dj_database_url.parse(url, conn_max_age=0))
    if scheme == "sqlite":
        return sqlite_database(config)
    if not config.get("NAME"):
        raise InputError(
            N_("the database URL names no database: expected postgres://USER@HOST/NAME")
        )
    return server_database(config)


DATABASE_URL = os.environ.get("CLUBRATING_DATABASE_URL") or DEFAULT_DATABASE_URL
# Signs sessions, CSRF tokens and the messages cookie: CLUBRATING_SECRET_KEY, else the
# installation's
# own random key (written by `clubrating serve` beside the database, web/secret_key.py), else a
# random key for this process only (a command that serves nothing). Never a constant of the code.
SECRET_KEY = os.environ.get("CLUBRATING_SECRET_KEY") or installation_key(DATABASE_URL)
DEBUG = os.environ.get("CLUBRATING_DEBUG", "") == "1"
ALLOWED_HOSTS = [
    h
    for h in os.environ.get(
        "CLUBRATING_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver"
    ).split(",")
    if h
]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tasks",
    "django_tasks_db",
    "axes",
    "corsheaders",
    "clubrating.club.apps.ClubConfig",
    "clubrating.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "clubrating.web.security.limit_body",  # before anything reads the body
    "clubrating.web.security.security_headers",
    "corsheaders.middleware.CorsMiddleware",  # before CommonMiddleware, which may answer first
    "django.contrib.sessions.middleware.SessionMiddleware",
    "clubrating.web.language.choose_language",  # after the session, before anything renders text
    "clubrating.web.controls.refuse_control_characters",  # in the page's language, before any view
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

# SQLite: WAL and a writer's wait, opened read-only where this process may not write;
# PostgreSQL: a connection kept between requests (database_settings above)
DATABASES = {"default": database_settings(DATABASE_URL)}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The anonymous pages (web.access.club_view): per process unless shared
# (``clubrating serve`` shares a directory between its workers).
CACHES = {"default": page_cache(os.environ.get("CLUBRATING_PAGE_CACHE", ""))}

# Background jobs: the database backend by default (the embedded demo needs nothing
# else); CLUBRATING_REDIS_URL (redis://host:port/db) puts them on RQ, so that workers on many
# machines share one queue (club.jobs.rq_workers). CLUBRATING_TASKS_BACKEND overrides both.
REDIS_URL = os.environ.get("CLUBRATING_REDIS_URL", "")
TASKS = {
    "default": {
        "BACKEND": os.environ.get("CLUBRATING_TASKS_BACKEND")
        or ("django_tasks_rq.RQBackend" if REDIS_URL else "django_tasks_db.DatabaseBackend"),
    }
}
if REDIS_URL:
    INSTALLED_APPS.append("django_rq")
    # django-rq's queue: one, on that server. DEFAULT_TIMEOUT: a whole tournament's fan-out or
    # one game; a game job sets its own (club.jobs.rq_workers.GAME_TIMEOUT).
    RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 3600}}

# An arbiter's invitation and password reset links (club/services/accounts.py) work once, for
# three days: long enough to pass a link on by hand, short enough that a lost one soon dies.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"  # the language of a page when neither the visitor nor the club chose one
# The languages of the catalogue, each under its own name (a switcher lists them for people who
# may not read the page's language). A visitor's choice, the Accept-Language header and the club's
# default pick among them (web/language.py).
LANGUAGES = [("en", "English"), ("hy", "Հայերեն"), ("ru", "Русский")]
# The one catalogue of every text a person reads: locale/<lang>/LC_MESSAGES/django.po
# (scripts/messages
# writes it; the .mo files are compiled by the install step, never committed).
LOCALE_PATHS = [BASE_DIR / "locale"]
# The dates of the pages in each language (Django has no Armenian formats): web/formats/.
FORMAT_MODULE_PATH = ["clubrating.web.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
LOGIN_URL = "login"

# Security basics: Django's own machinery, not hand-written.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# CLUBRATING_HTTPS=1: the site is reached over HTTPS through a proxy that sets X-Forwarded-Proto
# (gunicorn believes it from 127.0.0.1 only, or FORWARDED_ALLOW_IPS): secure cookies, a redirect
# of plain HTTP, and HSTS for a year (hstspreload.org's minimum).
HTTPS = os.environ.get("CLUBRATING_HTTPS", "") == "1"
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
# Preloading is the domain owner's decision (the header is taken as consent by hstspreload.org),
# not a program's: security.W021 (preload not set) is silenced on purpose.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

# What a page may load (Content-Security-Policy, web/security.py): nothing but itself. No script
# runs anywhere (a test reads every template); the pages' one <style> block and the SVG charts'
# style attributes need 'unsafe-inline' for styles; the favicon is a data: URL.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)

# Request bodies: a tournament file is kilobytes; 5 MB (web/arbiter.MAX_UPLOAD_BYTES)
# is generous. A body announced larger than the file limit and 1 MB of form fields is refused
# with 413 before anything reads it (web/security.limit_body); Django's own limits stop the rest
# (fields: DATA_UPLOAD_MAX_MEMORY_SIZE, a file kept in memory up to the same size, never on disk).
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES

# Login lockout (django-axes): 5 failures lock that login from that address for an hour, so one
# attacker behind a shared proxy locks out no other arbiter (axes' docs, "Configuration").
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1  # hours
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The client's address: REMOTE_ADDR, or, behind a reverse proxy, the header it sets
# (CLUBRATING_PROXY_HEADER=X-Forwarded-For or X-Real-IP); off by default, since a client
# could otherwise choose its address and escape the lockout.
CLUBRATING_PROXY_HEADER = os.environ.get("CLUBRATING_PROXY_HEADER", "")
AXES_CLIENT_IP_CALLABLE = "clubrating.web.security.client_ip"

# Cross-origin reads of the read-only API (django-cors-headers): off unless the installation
# names the origins whose pages may fetch it (CLUBRATING_CORS_ORIGINS, docs/operations.md);
# /api/ only, GET only, no cookies (CORS_ALLOW_CREDENTIALS stays False), so a token link's
# documents are readable only by a page that already knows the token.
CORS_ALLOWED_ORIGINS = cors_origins(os.environ.get("CLUBRATING_CORS_ORIGINS", ""))
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_METHODS = ("GET",)

# Every handler hides a moves link's token (web/security.HideMovesTokens), Django's request
# lines of the development server ("django.server", as Django's DEFAULT_LOGGING has it) too.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"moves-tokens": {"()": "clubrating.web.security.HideMovesTokens"}},
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "filters": ["moves-tokens"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["moves-tokens"],
        },
    },
    "loggers": {
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False}
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
}
