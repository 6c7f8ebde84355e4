"""Settings for the polo officiating app, read from the environment (see ``.env.example``).

Embedded defaults (no DATABASE_URL, no REDIS_URL): SQLite in ``var/``, the in-memory channel layer,
Celery tasks run in-process (no Redis). DEBUG is off unless set (``manage.py`` and ``./dev run`` set
it for development), and without DEBUG a SECRET_KEY is required. Production sets ``DEBUG=false``,
``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import dj_database_url
from django.utils.translation import gettext_lazy as _

from .env import ConfigError, env_bool, env_choice, env_int, env_list, env_networks, env_origins, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("POLO_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ConfigError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production-0123456789abcdef"

# The scoresheet's seal (docs/SCORESHEET.md): each signature is sealed with an HMAC under this
# secret, which the database does not hold. Unset: SECRET_KEY serves (what the seal proves then
# depends on SECRET_KEY staying secret and unchanged). On rotation, the old secrets go in
# SCORESHEET_SIGNING_OLD_KEYS (comma-separated) so that the signatures sealed with them still verify.
SCORESHEET_SIGNING_KEY = env_str("SCORESHEET_SIGNING_KEY") or ""
SCORESHEET_SIGNING_OLD_KEYS = env_list("SCORESHEET_SIGNING_OLD_KEYS", [])

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The app on the field's laptop (``./dev field``, matches/field/): keeps matches for a tournament's server.
FIELD_SERVER = env_bool("FIELD_SERVER", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "officiating",
    "matches",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "polo.middleware.ContentSecurityPolicyMiddleware",
    # /healthz and /readyz (polo/health.py): before the host check, for compose's plain-HTTP probe.
    "polo.health.HealthCheckMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # ?lang=es on any page wins over the browser's language and the cookie, for that request (polo/language.py).
    "polo.language.LanguageQueryMiddleware",
    # JSON errors under /api/ (CSRF, 404, 405, 413, 500), in the request's language: polo/api_errors.py.
    "polo.api_errors.ApiErrorMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # FORM_POSTS_PER_MINUTE: POSTs to the committee's and the admin's forms, per user or address.
    "matches.post_limits.FormPostLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a login that django-axes refused into the lockout page (429, matches.auth).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "polo.urls"
ASGI_APPLICATION = "polo.asgi.application"
WSGI_APPLICATION = None

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
            ]
        },
    }
]

# --- Database -------------------------------------------------------------------------------
# Unset: a SQLite file. Under ASGI, persistent connections leak (one per thread), so
# CONN_MAX_AGE stays 0 and PostgreSQL gets psycopg's pool instead.
DATABASE_URL = env_str("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if env_bool("DATABASE_POOL", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            {
                "pool": {
                    "min_size": env_int("DATABASE_POOL_MIN", 2, minimum=0),
                    "max_size": env_int("DATABASE_POOL_MAX", 20, minimum=1),
                    "timeout": 10,
                },
                # The event path runs the same few statements on every POST: parameters bound by
                # the server, and a statement a pooled connection has run 5 times prepared there,
                # so PostgreSQL stops planning it again (the locked match with its joins was half
                # planning: 1.3 ms of 1.4). Only with the pool: its connections live on (and no
                # transaction-mode pooler sits between, which prepared statements would break).
                "server_side_binding": True,
                "prepare_threshold": 5,
            }
        )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers (scoreboards) go on while the scorer writes; a busy timeout instead of
    # "database is locked" when two requests write at once.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery broker ---------------------------------------------
REDIS_URL = env_str("REDIS_URL") or None

REDIS_SOCKET_OPTIONS = {"socket_connect_timeout": 5, "socket_timeout": 15, "socket_keepalive": True}

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py's async pool raises instead of waiting when it runs out: with many
                # sockets joining at once the default of 100 connections is far too few.
                # A Redis that stops answering must not hold a socket or a request forever: reads
                # time out (above the layer's 5 s blocking receive) and the log repairs the rest.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": env_int("REDIS_MAX_CONNECTIONS", 2000),
                        **REDIS_SOCKET_OPTIONS,
                    }
                ],
                "capacity": 1500,
                "expiry": 30,
                "group_expiry": 86400,
                # Several apps (or test servers) may share one Redis: keep their groups apart.
                "prefix": env_str("CHANNEL_PREFIX", "polo"),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CHANNEL_PREFIX", "polo"),
            "OPTIONS": REDIS_SOCKET_OPTIONS,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 1500}}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL  # embedded defaults: background work runs in-process
CELERY_TASK_EAGER_PROPAGATES = False
# Embedded defaults: run those in-process tasks on a background thread pool (see polo/celery.py).
CELERY_EMBEDDED_THREADS = env_bool("CELERY_EMBEDDED_THREADS", not REDIS_URL)
CELERY_BROKER_TRANSPORT_OPTIONS = REDIS_SOCKET_OPTIONS if REDIS_URL else {}
CELERY_BROKER_CONNECTION_TIMEOUT = 5
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# The worker loads the app's tasks from the committee room (registered as ``matches.tasks.*``,
# the names they had before the rooms; MatchesConfig.ready() imports them in every process too).
CELERY_IMPORTS = ["matches.committee.tasks"]

# Fast paths that reach into a library's internals (polo/seams.py), turned off by name ("all": every
# one): the library's public path is used instead. Each is also turned off, with an ERROR, when the
# installed library lacks what it relies on.
STOCK_PARTS = env_list("STOCK_PARTS", [])

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling: django-axes, counting failed logins in the database (so it holds while Redis is
# away), with the limits of matches/auth.py: LOGIN_THROTTLE_ATTEMPTS failures per (username,
# address), LOGIN_THROTTLE_ADDRESS_ATTEMPTS per address (any usernames), each counted over the last
# LOGIN_THROTTLE_SECONDS, which is also how long a lock lasts after the last failure; and past
# LOGIN_THROTTLE_USERNAME_ATTEMPTS failures for one username (from any addresses) each address gets
# fewer tries at it (halved per that many failures, never fewer than one), so a login under attack
# slows every attacker's address down but its official still logs in from an address that has not
# failed. The committee unlocks a login at /committee/lockouts/.
LOGIN_THROTTLE_ATTEMPTS = env_int("LOGIN_THROTTLE_ATTEMPTS", 5, minimum=1)
LOGIN_THROTTLE_SECONDS = env_int("LOGIN_THROTTLE_SECONDS", 300, minimum=1)
LOGIN_THROTTLE_ADDRESS_ATTEMPTS = env_int("LOGIN_THROTTLE_ADDRESS_ATTEMPTS", 4 * LOGIN_THROTTLE_ATTEMPTS, minimum=1)
LOGIN_THROTTLE_USERNAME_ATTEMPTS = env_int("LOGIN_THROTTLE_USERNAME_ATTEMPTS", 4 * LOGIN_THROTTLE_ATTEMPTS, minimum=1)
# Django's ModelBackend, under the name the signed-in sessions record (matches/sessions.py).
AUTHENTICATION_BACKENDS = ["matches.auth.LoginThrottleBackend", "matches.sessions.ModelBackend"]
# Django's database sessions, whose row carries the user's id (matches/sessions.py: ending an
# official's sessions).
SESSION_ENGINE = "matches.sessions"
AXES_HANDLER = "matches.auth.LoginThrottleHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = "matches.auth.failure_limit"  # LOGIN_THROTTLE_ATTEMPTS, less under the backoff
AXES_COOLOFF_TIME = "matches.auth.cool_off"  # LOGIN_THROTTLE_SECONDS
AXES_CLIENT_IP_CALLABLE = "matches.auth.client_address"  # believes TRUSTED_PROXIES only
AXES_USERNAME_CALLABLE = "matches.auth.attempted_username"
AXES_LOCKOUT_CALLABLE = "matches.auth.lockout_response"  # the login page, 429, in the user's language
AXES_RESET_ON_SUCCESS = True  # a login clears that username's failures at that address
# Attempts while locked are refused without being recorded: they neither extend the lock nor grow
# the table.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Unlocking goes through the committee's page, which records it in the audit trail; not the admin.
AXES_ENABLE_ADMIN = False
# Quiet at start-up: `manage.py replay` owns its standard error (one line, then exit 2).
AXES_VERBOSE = False

# Proxies whose X-Forwarded-For is believed, nearest first or in any order: addresses or networks,
# comma-separated (our nginx in docker-compose). The same variable configures uvicorn's
# --forwarded-allow-ips. Unset: none (the address is the connection's). Never "*": a client could
# then choose its own address and walk around the login throttle.
TRUSTED_PROXIES = env_list("FORWARDED_ALLOW_IPS", [])
try:
    for _proxy in TRUSTED_PROXIES:
        ipaddress.ip_network(_proxy, strict=False)
except ValueError:
    raise ConfigError(
        f"FORWARDED_ALLOW_IPS must list the trusted proxies' addresses or networks, got {_proxy!r}"
        + (" ('*' would let any client choose its own address)" if "*" in _proxy else "")
    ) from None

# --- Languages and time ---------------------------------------------------------------------
LANGUAGE_CODE = env_choice("LANGUAGE_CODE", "en", {"en", "es"})
LANGUAGES = [("en", _("English")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language chosen (the header's switch, or ?lang=) outlives the browser's session: a TV or a
# phone opened again the next day is still in Spanish.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "America/New_York")
try:
    ZoneInfo(TIME_ZONE)
except (ZoneInfoNotFoundError, ValueError):
    raise ConfigError(f"TIME_ZONE is not a known time zone: {TIME_ZONE!r}") from None
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "polo.staticfiles.ModuleManifestStaticFilesStorage"  # hashed names, ES module imports too
    },
}

# --- Security -------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the pages' fetch() reads it to send X-CSRFToken
CSRF_FAILURE_VIEW = "polo.api_errors.csrf_failure"  # JSON under /api/, the page elsewhere
X_FRAME_OPTIONS = "DENY"
# The origins that may frame the stream overlay (a production switcher), comma-separated, e.g.
# https://switcher.example.com: its CSP frame-ancestors, and no X-Frame-Options on it. Unset: none
# may (frame-ancestors 'none', X-Frame-Options DENY), as for every other page.
OVERLAY_FRAME_ANCESTORS = env_origins("OVERLAY_FRAME_ANCESTORS")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# Webhooks (matches/committee/webhooks.py): https only (http too with DEBUG), never to an address
# that is loopback, private, link-local, multicast, reserved or unspecified (checked when the
# committee saves one and again at each delivery), except in the networks WEBHOOK_ALLOWED_NETWORKS
# names (a receiver on the club's own network; unset: none). No redirect is followed; an attempt
# gives up after WEBHOOK_TIMEOUT_SECONDS.
WEBHOOK_ALLOWED_NETWORKS = env_networks("WEBHOOK_ALLOWED_NETWORKS")
WEBHOOK_TIMEOUT_SECONDS = env_int("WEBHOOK_TIMEOUT_SECONDS", 5, minimum=1)

# Websocket limits (checked by the consumers): a frame's size, frames a second, and the sockets
# one client address (an IPv6 client's /64) may hold open on one web process at once.
WS_MAX_MESSAGE_BYTES = env_int("WS_MAX_MESSAGE_BYTES", 8192, minimum=256)
WS_MAX_MESSAGES_PER_SECOND = env_int("WS_MAX_MESSAGES_PER_SECOND", 20, minimum=1)
WS_MAX_CONNECTIONS_PER_ADDRESS = env_int("WS_MAX_CONNECTIONS_PER_ADDRESS", 500, minimum=1)
# POSTs to the committee's and the admin's forms, per signed-in user (or address) and minute
# (matches/post_limits.py).
FORM_POSTS_PER_MINUTE = env_int("FORM_POSTS_PER_MINUTE", 60, minimum=1)
# Issue 34: the field's timekeeper (the scorer's screen) is "silent" after this many seconds without
# telling the server it has sent everything it kept (matches/live/field.py); the public screens then
# say "waiting for the field" instead of running a clock the umpires may have stopped.
FIELD_SILENT_SECONDS = env_int("FIELD_SILENT_SECONDS", 10, minimum=2)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
# LIVE_LOG_LEVEL=DEBUG: the live room logs each update's fan-out (how long after the decision the
# officials' and the public's sockets were written); bench/bench_live.py reads it.
if env_str("LIVE_LOG_LEVEL"):
    LOGGING["loggers"]["matches.live"] = {
        "level": env_choice("LIVE_LOG_LEVEL", "INFO", {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"})
    }

VAR_DIR.mkdir(parents=True, exist_ok=True)
