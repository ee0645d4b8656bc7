"""Settings for the Shitennō site, read from the environment only.

With no environment at all the site runs on the embedded default: SQLite, Celery tasks run eagerly,
DEBUG on. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and CELERY_BROKER_URL.
A bad value fails loudly at start-up rather than half-working.
"""

import os
from pathlib import Path

import dj_database_url
import dj_email_url
from celery.schedules import crontab
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if not raw:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")
    SECRET_KEY = "insecure-development-key-never-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sitemaps",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "leagues",
    "leagues.notifications",
    "shitenno_site.tokens",
    "games",
]

MIDDLEWARE = [
    "shitenno_site.middleware.InputEdgeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files leave here, pre-compressed by whitenoise
    # Pages are gzipped for clients that accept it. BREACH: the CSRF token in a page is masked afresh for each
    # response (Django), and GZipMiddleware pads each answer with random bytes; see docs/operations.md.
    "shitenno_site.middleware.WeakETagMiddleware",  # one ETag for the 200 and its 304 (gzip weakens the 200's)
    "django.middleware.gzip.GZipMiddleware",
    # An ETag on every GET answer that has none (a hash of its body), and 304 without a body to a client that
    # sends it back in If-None-Match (issue 48: polls and API reads were a full 200 each time). After gzip, so the
    # hash is of the answer itself, not of its compressed bytes (Django's own ordering note).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "shitenno_site.offline.OfflineAccountMiddleware",  # whose copy a page is (docs/offline.md)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "shitenno_site.urls"
WSGI_APPLICATION = "shitenno_site.wsgi.application"
ASGI_APPLICATION = "shitenno_site.asgi.application"

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
                "games.context_processors.registered_games",
                "shitenno_site.context_processors.site",
                "leagues.notifications.context_processors.to_sign",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The demo database must survive two phones writing at once, as PostgreSQL's row locks make it do:
    # a write transaction takes the write lock when it begins (IMMEDIATE), so the second phone waits (up to the
    # timeout) and then reads the move the first one made (a 409 with the new table, not "database is locked");
    # WAL lets the other phones' polls read meanwhile.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
# Behind a pooler in transaction mode (PgBouncer's pool_mode = transaction), each transaction may run on another
# server connection, so nothing may outlive one: Django's server-side cursors for .iterator() (a WITH HOLD cursor
# outside a transaction) are turned off. The site's other PostgreSQL state is per transaction already: advisory
# locks are pg_advisory_xact_lock, settings SET LOCAL, temporary tables dropped before commit, and Django sends no
# prepared statements (psycopg's prepare_threshold is None). See docs/operations.md (Scale-out).
if env_bool("DATABASE_TRANSACTION_POOLING", False):
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rendered table bodies are shared by the phones at a table: with several web workers the cache must be shared
# too (CACHE_URL=redis://host:6379/1); the default is each process's own memory. A shared cache that cannot be
# reached is a miss, never an error (shitenno_site.cache); a Redis that hangs is given up on after a second.
SHARED_CACHE_BACKEND = "shitenno_site.cache.ForgivingRedisCache"
SHARED_CACHE_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}
CACHES = {
    "default": {"BACKEND": SHARED_CACHE_BACKEND, "LOCATION": os.environ["CACHE_URL"], "OPTIONS": SHARED_CACHE_OPTIONS}
    if os.environ.get("CACHE_URL")
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
# A signed-in phone's every request reads its session: from the shared cache, the database only when the cache
# lost it. Not from a per-process cache: a session ended in one web worker would live on in another's memory.
SESSION_ENGINE = "django.contrib.sessions.backends." + ("cached_db" if os.environ.get("CACHE_URL") else "db")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses log-ins during a cool-off
    "django.contrib.auth.backends.ModelBackend",
]
# Brute force: after 10 failed log-ins for one account from one address, that account cools off for an hour from
# that address only. Locking by account alone, or by address alone, would let anyone lock out someone else (or,
# behind a proxy where everyone shares one address, the whole site): see docs/security.md.
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# TRUSTED_PROXIES: how many reverse proxies stand in front of the site (0: clients connect directly). Each
# proxy appends the address it was reached from to X-Forwarded-For, so the client is the entry that many places
# from the right; anything further left was written by the client and is not believed (django-ipware).
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))


def client_address_settings(trusted_proxies: int) -> dict:
    """How django-axes (through django-ipware) finds the client's address behind `trusted_proxies` proxies."""
    if trusted_proxies < 0:
        raise ImproperlyConfigured("TRUSTED_PROXIES must be 0 or more")
    if not trusted_proxies:
        return {"AXES_IPWARE_META_PRECEDENCE_ORDER": ("REMOTE_ADDR",)}
    return {
        "AXES_IPWARE_META_PRECEDENCE_ORDER": ("HTTP_X_FORWARDED_FOR",),
        "AXES_IPWARE_PROXY_ORDER": "left-most",
        "AXES_IPWARE_PROXY_COUNT": trusted_proxies - 1,  # proxies listed in the header: all but the one we talk to
        "IPWARE_STRICT": False,  # a client may send its own X-Forwarded-For: we read from the right, past its part
    }


globals().update(client_address_settings(TRUSTED_PROXIES))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Content-Security-Policy (django-csp): scripts and style sheets from the site only, no inline script, no plugin,
# no framing. Style attributes stay allowed (the board's bars and colours are drawn with them); <style> elements
# are not. Tests: tests/site/test_security_headers.py, and the browser tests fail on any reported violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
    },
}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("nl", "Nederlands")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Amsterdam")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles"  # collectstatic writes here
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
if os.environ.get("EMAIL_URL"):  # smtp://user:password@host:587/?tls=True and the like (dj-email-url)
    globals().update(dj_email_url.parse(os.environ["EMAIL_URL"]))
# Seconds the SMTP connection may block (connect and each read): without it a mail server that hangs holds the
# digest's worker for ever (issue 46 finding 4). EMAIL_URL's ?timeout= or EMAIL_TIMEOUT; 10 s by default.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT") or globals().get("EMAIL_TIMEOUT") or 10)
# The site's address for links in e-mails sent by the worker (no request there): the digest's links.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
# The site's own name in its mails (every mail's subject and signature: the digest, a message at once, the password
# reset, the address verification), not the request's host: Django's default signed "The 127.0.0.1:8101 team"
# (issue 47 finding 7).
SITE_NAME = os.environ.get("SITE_NAME", "Shitennō")
# Each game's BoardGameGeek id, by slug, for the exports (BG Stats `bggId`, BGG `objectid`) and for matching an
# import's games: e.g. GAME_BGG_IDS="slug=123,other=456". None is set by default: the rulebooks the site is built
# from give none, so the exports say 0 (BG Stats' and BGG's "no id") and imports match games by name.
GAME_BGG_IDS = {
    slug.strip(): int(number)
    for slug, _, number in (
        item.partition("=") for item in os.environ.get("GAME_BGG_IDS", "").split(",") if "=" in item
    )
}
# The mails' sender: by default named by SITE_NAME too (the name a mail client shows beside the subject).
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or f"{SITE_NAME} <noreply@localhost>"
# Web push (issue 39, docs/notifications.md): without all three, push is off and the settings page says so.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "")
# Tests only (a push service on this machine, in a test's own worker): the endpoints' check (https, port 443,
# public addresses; notifications/endpoints.py) is off. Never set in production: a forged subscription could
# then make the worker post into the site's own network.
PUSH_LOCAL_ENDPOINTS = os.environ.get("PUSH_LOCAL_ENDPOINTS") == "1"
# At most this many push devices per account (docs/notifications.md): a new one beyond it replaces his oldest, so
# one account cannot make the worker post to endless endpoints for each message.
PUSH_DEVICES_PER_ACCOUNT = int(os.environ.get("PUSH_DEVICES_PER_ACCOUNT") or 5)

REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header makes an anonymous write answer 401 (not 403), as docs/api.md says.
    # A person's tokens (shitenno_site/tokens) and an operator's DRF tokens, both by one class.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "shitenno_site.tokens.authentication.AccessTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": ["shitenno_site.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "shitenno_site.schema.SiteAutoSchema",  # 401 documented where answered
    "DEFAULT_PAGINATION_CLASS": "shitenno_site.api.StrictLimitOffsetPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "shitenno_site.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Shitennō site API",
    "DESCRIPTION": "Score Shitennō at the table, run club leagues, read ratings and standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No deep links: Swagger UI puts them as links inside each operation's toggle button (nested-interactive).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "shitenno_site.api.document_edge_answers",
        "shitenno_site.api.blank_or_pattern",
        "shitenno_site.api.enum_names",
    ],
    # A season's points scheme is one enum wherever it appears (the season's answer, its creation and its edit),
    # and so is a result's status (a result's answer and a table's): drf-spectacular matches values and labels,
    # so the inputs take the model's choices (issue 48 finding 3: two enums each, one named "SeasonOutput...").
    "ENUM_NAME_OVERRIDES": {
        "PointsSchemeEnum": "leagues.models.Season.Scheme",
        "ResultStatusEnum": "leagues.models.Result.Status",
        "AccessTokenScopeEnum": "shitenno_site.tokens.models.AccessToken.SCOPES",
    },
}

# Celery: with no broker configured, tasks run in-process so the site needs no service.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_TASK_ALWAYS_EAGER:
    # Eager tasks never reach a broker; naming the in-memory one keeps kombu from warning that it guessed
    # "localhost" for a broker nobody uses.
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else None
)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker died is delivered again once its visibility timeout passes: the league jobs take seconds,
# so 15 minutes, not Redis's default hour, and above the largest import job's limit (below; docs/operations.md).
# A task waiting for its retry's countdown is held unacknowledged too, so retries back off for at most 2 minutes.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "900")),
    # kombu looks for messages past their timeout every 10 of these intervals: once a minute, not every 100 s
    "unacked_restore_interval": int(os.environ.get("CELERY_UNACKED_RESTORE_INTERVAL", "6")),
}
# An import job (leagues/imports/job.py) is acked late and must end before the broker hands it out again: its
# soft limit (it then records "failed: took too long" and writes nothing) follows its size, 60 s + 1.25 ms a
# player's place (about 3 times the 100,000-play job's time measured on 2 cores at load 10: docs/import.md), and
# never passes IMPORT_JOB_TIME_LIMIT, which with its hard limit (+30 s) sits inside the timeout. The largest import
# allowed (leagues.imports.formats.MAX_SEATS, 600,000 places) needs 810 s: keep the timeout above 870 s.
IMPORT_JOB_BASE_SECONDS = 60
IMPORT_JOB_SECONDS_PER_SEAT = 0.00125
IMPORT_JOB_TIME_LIMIT = max(30, CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] - 60)
# A night's proposal as a job (leagues/nights/jobs.py): the optimiser takes 1-2 s, a few more on a loaded machine;
# past this soft limit the organiser is told it failed (docs/operations.md, "The night optimiser's budget").
NIGHT_PROPOSAL_TIME_LIMIT = int(os.environ.get("NIGHT_PROPOSAL_TIME_LIMIT", "30"))
# Every task has a soft and a hard time limit (issue 46 finding 3): past the soft one it raises
# SoftTimeLimitExceeded, which rolls its transaction back and leaves its outbox row for a later run (the jobs
# never swallow it: leagues/jobs/outbox.py); the hard one, 30 s later, kills the process. The defaults are for the
# jobs of one change (seconds); the jobs that legitimately run longer (a scope's re-rate through the outbox, the
# nightly repair, the statistics' rebuild, an import) take LONG_JOB_TIME_LIMIT or their own, and every hard limit
# sits inside the broker's visibility timeout, so a running job is never handed out a second time.
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "300"))
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 30
LONG_JOB_TIME_LIMIT = IMPORT_JOB_TIME_LIMIT
# A large club's export file, made by the heavy queue (leagues/imports/export_job.py): 100,000 entries take ~10 s.
EXPORT_JOB_TIME_LIMIT = min(600, IMPORT_JOB_TIME_LIMIT)
# The heavy jobs (imports, exports, the nightly rebuilds) go to their own queue, consumed by their own worker
# (README, docs/operations.md "Workers and queues"): one club's import never holds back another club's ratings.
CELERY_TASK_DEFAULT_QUEUE = "celery"
HEAVY_QUEUE = "heavy"
CELERY_TASK_ROUTES = {
    "leagues.tasks.import_plays_job": {"queue": HEAVY_QUEUE},
    "leagues.imports.preview_job": {"queue": HEAVY_QUEUE},
    "leagues.imports.export_job": {"queue": HEAVY_QUEUE},
    "leagues.tasks.ratings_recompute_all": {"queue": HEAVY_QUEUE},
    "games.tasks.stats_rebuild": {"queue": HEAVY_QUEUE},
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    # Run the league jobs whose broker message was lost (broker down at commit): see leagues/jobs/outbox.py.
    "leagues-outbox-sweep": {"task": "leagues.tasks.outbox_sweep", "schedule": 60.0},
    # Delete the import uploads past their expiry; queue again a running import's lost job (leagues/imports/).
    "leagues-imports-expire": {"task": "leagues.tasks.imports_expire", "schedule": 60.0},
    # Recompute every rating and standing from scratch; it must agree with the incremental updates.
    "leagues-nightly-recompute": {
        "task": "leagues.tasks.ratings_recompute_all",
        "schedule": crontab(hour=3, minute=30),
    },
    # Count each game's statistics again from its tables; it must agree with the stored tally (games/stats_store.py).
    "games-nightly-stats-rebuild": {"task": "games.tasks.stats_rebuild", "schedule": crontab(hour=3, minute=50)},
    # Notifications (issue 39): reminders, pushes held by quiet hours, and each club's daily digest, every hour.
    "notifications-hourly": {"task": "leagues.notifications.tasks.hourly", "schedule": crontab(minute=0)},
    # Push devices whose session ended unseen (expired, or a password changed): dropped hourly (issue 47).
    "notifications-devices-sweep": {"task": "leagues.notifications.devices.sweep_task", "schedule": crontab(minute=30)},
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "shitenno_site.public.csrf_failure"  # the site's page, in the reader's language

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own loggers print through the root's handler only: Django's default console handler on "django"
    # printed every warning ("Not Found: /x") a second time. runserver's request lines keep their own handler.
    "loggers": {"django": {"handlers": [], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")}},
}
