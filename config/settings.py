"""Cell Safety Planner settings: one module, read from the environment.

With no environment at all the app runs on an embedded default: SQLite in the
project folder, DEBUG on, Celery tasks run in-process. ``DATABASE_URL`` selects
PostgreSQL, ``CELERY_BROKER_URL`` a real broker (Redis) and real workers.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if DEBUG:
    # A development key only: DEBUG off refuses to start without a real one.
    SECRET_KEY = (
        SECRET_KEY or "django-insecure-development-key-do-not-use-in-production"
    )
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "[::1]", "testserver"]
else:
    if not SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "cells",
    "compliance",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: SQLite in the project folder unless DATABASE_URL says otherwise.
if env_str("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            env_str("DATABASE_URL"), conn_max_age=env_int("CONN_MAX_AGE", 60)
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / env_str("SQLITE_NAME", "db.sqlite3"),
            "OPTIONS": {
                # Writers queue instead of failing with "database is locked".
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "cells:project_list"
LOGOUT_REDIRECT_URL = "login"

# Internationalisation: English and Korean; formats follow the active language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ko", _("Korean"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
USE_THOUSAND_SEPARATOR = True
TIME_ZONE = env_str("TIME_ZONE", "Asia/Seoul")

# Static files, served by WhiteNoise in every environment.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Production hardening: on whenever DEBUG is off, so `check --deploy` is clean.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    if env_bool("BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an unauthenticated call gets 401 with WWW-Authenticate.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "cells.api.errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Cell Safety Planner API",
    "DESCRIPTION": (
        "Projects, robot cells and their 2D layouts. Every object belongs to an "
        "organisation; objects of other organisations answer 404."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # 3.1 speaks JSON Schema 2020-12, which the calculators' pydantic models emit.
    "OAS_VERSION": "3.1.0",
    # Choice sets shared by several fields (severity and residual_severity...),
    # named once.
    "ENUM_NAME_OVERRIDES": {
        "SeverityEnum": "compliance.models.RiskParameter.SEVERITY",
        "FrequencyEnum": "compliance.models.RiskParameter.FREQUENCY",
        "AvoidanceEnum": "compliance.models.RiskParameter.AVOIDANCE",
        "PerformanceLevelEnum": "cells.models.PerformanceLevel",
        "CollaborativeModeEnum": "cells.models.CollaborativeMode",
        "RiskLevelEnum": "compliance.assessment.serializers.RISK_LEVEL_CHOICES",
        "ProposalDocumentStatusEnum": "compliance.models.ProposalDocument.Status",
        "RevisionStatusEnum": "compliance.models.RevisionStatus",
        # ISO 13849-1 categories: a library device's and a subsystem's.
        "ArchitectureCategoryEnum": "compliance.safety_functions.models.Category",
        # The calculators' pydantic models carry bare codes (no labels), so their
        # choice sets differ from the models' labelled ones: each gets a name.
        "PerformanceLevelCodeEnum": "compliance.calculators.iso13849_tables.PL_ORDER",
        "SubsystemRouteCodeEnum": "compliance.calculators.iso13849_verify.ROUTES",
        "SubsystemRouteEnum": "compliance.safety_functions.models.SubsystemRoute",
    },
}

# Celery: a real broker when CELERY_BROKER_URL is set, otherwise tasks run
# in-process (eagerly) so the embedded default needs no other service.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# How long a task a worker took may stay unacknowledged before the broker
# (Redis) delivers it again: after a worker host is lost without a trace.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
