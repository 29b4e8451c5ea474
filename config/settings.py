"""Cell Safety Planner settings: one module, read from the environment.

With no environment at all the app runs on an embedded default: SQLite in the
project folder, DEBUG on, Celery tasks run in-process. ``DATABASE_URL`` selects
PostgreSQL, ``CELERY_BROKER_URL`` a real broker (Redis) and real workers.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
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


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate such as ``60/min``; ``off`` means no limit."""
    value = env_str(name, default).strip()
    return None if value.lower() in {"off", "none"} else value


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

# Tamper-evidence (issue 13): the key that seals signed revisions and the audit
# chain (compliance/assessment/integrity.py). It must stay out of the database
# and its backups: whoever holds it can seal a forgery. Keep it beside
# SECRET_KEY, but separate, so that rotating one leaves the other alone.
INTEGRITY_KEY_DEVELOPMENT = "development-integrity-key-do-not-use-in-production"
INTEGRITY_KEY = env_str("INTEGRITY_KEY")
if DEBUG:
    INTEGRITY_KEY = INTEGRITY_KEY or INTEGRITY_KEY_DEVELOPMENT
elif len(INTEGRITY_KEY) < 32 or INTEGRITY_KEY == INTEGRITY_KEY_DEVELOPMENT:
    raise ImproperlyConfigured(
        "INTEGRITY_KEY must be set, at least 32 characters, when DEBUG is off."
    )

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
    # Authentication (issue 13): hashed, expiring API tokens; sign-in lockout.
    "knox",
    "axes",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    # Headers (issue 13): django-csp's checks of its settings.
    "csp",
    "cells",
    "compliance",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Headers (issue 13): the Content-Security-Policy on every response.
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Authentication (issue 13): turns a lockout into the page that says so.
    # Last, as django-axes asks.
    "axes.middleware.AxesMiddleware",
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
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Authentication (issue 13): django-axes checks every sign-in first and locks a
# username at one address out after LOGIN_FAILURE_LIMIT wrong passwords in a
# row, for LOGIN_LOCKOUT_MINUTES (each try while locked starts the wait again).
# `manage.py axes_reset_username <username>` (or `axes_reset`) unlocks.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
# Username and address together: a stranger elsewhere cannot lock a person out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "cells.auth.lockout_response"
# No banner on every manage.py command; lockouts are still logged.
AXES_VERBOSE = False
if env_bool("BEHIND_TLS_PROXY", False):
    # Behind the proxy every request comes from it: take the address it saw.
    AXES_CLIENT_IP_CALLABLE = "cells.auth.client_ip"

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
# Hashed and compressed names when DEBUG is off (config/storage.py).
PRODUCTION_STATIC_STORAGE = "config.storage.StaticStorage"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else PRODUCTION_STATIC_STORAGE
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

# Headers (issue 13): the Content-Security-Policy (django-csp 4). Scripts and
# styles come only from our own static files: no inline script, handler or
# style attribute, so markup injected past the escaping could run nothing.
# A <style> element that must travel inside a file (the plan as an SVG
# download) carries the response's nonce. data: images are Swagger UI's icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an unauthenticated call gets 401 with WWW-Authenticate.
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "cells.api.errors.exception_handler",
    # Bounded inputs (issue 13): the API reads JSON, with JSON nested deeper
    # than config.parsers.MAX_JSON_DEPTH a 400 rather than a RecursionError
    # (500). Only the uploads (a CSV, a DXF, a Table K.1) read multipart, each
    # by its own parser_classes: form encodings would let an empty value stand
    # for a field's default, which the schema does not allow.
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Authentication (issue 13): requests per client and period, see below.
    "DEFAULT_THROTTLE_CLASSES": [
        "cells.api.throttling.AnonThrottle",
        "cells.api.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        # Anonymous callers reach only the schema, the docs and the token login.
        "anon": env_rate("API_THROTTLE_ANON", "60/min"),
        # Per person, whatever the endpoint; the pages do not use the API.
        "user": env_rate("API_THROTTLE_USER", "1200/min"),
        # Password guesses at the token login, per address (axes locks too).
        "token_login": env_rate("API_THROTTLE_LOGIN", "10/min"),
    },
    # Behind a proxy, the client is the address the proxy appended.
    "NUM_PROXIES": 1 if env_bool("BEHIND_TLS_PROXY", False) else None,
}

# Authentication (issue 13): API tokens (django-rest-knox) are stored as a
# SHA-512 digest, expire API_TOKEN_TTL_DAYS after they are made and are revoked
# by logging out (or deleting them in the admin).
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env_int("API_TOKEN_TTL_DAYS", 30)),
    "AUTO_REFRESH": False,
}
# Throttle counts live in the cache: per process unless CACHE_URL names a
# shared one (Redis), so with several gunicorn workers set it.
if env_str("CACHE_URL"):
    CACHES = {
        "default": {
            # Redis, falling back to a cache of this process when Redis
            # fails: slower, not down (issue 28).
            "BACKEND": "config.cache.FallbackRedisCache",
            "LOCATION": env_str("CACHE_URL"),
        }
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
    # The error answers every operation can give, with their bodies.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.document_errors",
    ],
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
        # The same for the responses typed by pydantic models (the exchange
        # document, findings, costs, plan), which carry bare codes: each set
        # gets a name, and the database's sets keep theirs.
        "TaskTypeCodeEnum": "compliance.plan.schemas.TASK_TYPE_CODES",
        "CollaborativeModeCodeEnum": "compliance.plan.schemas.COLLABORATIVE_MODE_CODES",
        "PlanKeyEnum": "compliance.plan.schemas.PLAN_KEYS",
        "ProgramUnitsEnum": "cells.motion.api.PROGRAM_UNITS",
        "DxfUnitsEnum": "cells.layout_dxf.reading.UNIT_NAMES",
        # (A custom line has the same categories: the set keeps its first name.)
        "CustomLineCategoryEnum": "compliance.costs.schemas.CATEGORY_CODES",
        "TaskTypeEnum": "cells.models.cell.TASK_TYPE_CHOICES",
        # The cell's application (issue 15): the model's labelled choices, and the
        # bare codes of the exchange document and the plan.
        "ApplicationEnum": "cells.models.cell.Application",
        "ApplicationCodeEnum": "compliance.plan.schemas.APPLICATION_CODES",
        "PurposeEnum": "cells.models.OpeningPurpose",
        "PhaseEnum": "compliance.assessment.models.Phase",
        # Issue 17: the robot's safety configuration and the EU conformity.
        "SafetyConfigKindEnum": "cells.models.cell.SafetyConfigKind",
        "OutcomeEnum": "compliance.safety_functions.models.ValidationOutcome",
        # A proposal's language as the API takes it (a request, the texts).
        "LanguageCodeEnum": "compliance.proposals.models.LANGUAGE_CODES",
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
# Celery that recovers (issue 13). Every task has a soft time limit (the task
# is told and records why it stopped) and a hard one (the worker kills it).
# The longest task, a proposal PDF, takes under 2 s for a large cell (bench/):
# 30 s is ample and still bounds a runaway build.
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 30)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 40)
# Past the hard limit, a task's worker is dead: the margin covers the kill
# itself and clocks that differ between hosts. A "processing" row older than
# the limit and the margin may be claimed again.
CELERY_CLAIM_MARGIN = env_int("CELERY_CLAIM_MARGIN", 20)
# How often lost work is looked for: beat's sweep of expired claims, and
# Redis's return of unacknowledged messages to the queue.
CELERY_RECOVER_EVERY = env_int("CELERY_RECOVER_EVERY", 15)
# How long a task a worker took may stay unacknowledged before Redis delivers
# it again (after a worker host is lost without a trace): just above the
# longest task, so a running task is never delivered twice (prefetch is 1, so
# a message does not wait in a worker before it starts).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int(
        "CELERY_VISIBILITY_TIMEOUT", CELERY_TASK_TIME_LIMIT + CELERY_CLAIM_MARGIN
    ),
    "unacked_restore_interval": CELERY_RECOVER_EVERY,
    "unacked_restore_throttle": 1,
    # The lock a worker takes for that return (a few milliseconds of work):
    # kombu keeps it 300 s, so a worker killed while holding it stopped every
    # other worker from returning messages for five minutes. Two returns
    # that overlap once it lapses are safe (each message is moved in a
    # watched transaction).
    "unacked_mutex_expire": 10,
    # A publish to a broker that vanished fails in seconds instead of hanging.
    "socket_connect_timeout": 3,
    "socket_timeout": 10,
}
CELERY_BEAT_SCHEDULE = {
    "proposals-recover": {
        "task": "compliance.proposals.recover_documents",
        "schedule": CELERY_RECOVER_EVERY,
        # A sweep left in the queue past the next one is useless.
        "options": {"expires": CELERY_RECOVER_EVERY},
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
