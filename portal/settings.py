"""Settings for the knowledge portal: one module, read from the environment.

Two modes share one database engine (PostgreSQL with pgvector):
- embedded (no DATABASE_URL): a private PostgreSQL and Redis under var/, started by `portalctl.py run`;
- production (DATABASE_URL and REDIS_URL set): any PostgreSQL 15+ with pgvector, any Redis.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from redis.backoff import NoBackoff
from redis.retry import Retry

from portal import embedded
from portal.env import (
    SettingError,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_rate,
    env_secret,
    env_site_url,
    env_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("PORTAL_VAR_DIR", str(BASE_DIR / "var")) or "").resolve()

DATABASE_URL = env_str("DATABASE_URL")
EMBEDDED = DATABASE_URL is None

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_secret("SECRET_KEY", fallback_file=VAR_DIR / "secret_key" if EMBEDDED else None)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if EMBEDDED else [])
if not ALLOWED_HOSTS:
    raise SettingError("ALLOWED_HOSTS", "is required when DATABASE_URL is set (comma-separated host names)")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "apps.accounts",
    "apps.documents",
    "apps.retrieval",
    "apps.citations",
    "apps.integrations",
    "apps.evaluation",
    "apps.install",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the session's choice, else the browser's Accept-Language (zh-CN, zh, zh-Hans: zh-hans).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Runs before any view or process_view (CSRF reads the form there) and before anything asks the database for the
    # session; inside the middleware above, so its 400 and 413 answers carry their security headers too.
    "portal.middleware.RequestInputMiddleware",
    "portal.middleware.DatabaseUnavailableMiddleware",
    # A person's chosen language (switch or profile) wins over the browser's. It reads the session and the user, so
    # it comes after authentication and inside DatabaseUnavailableMiddleware (a database away answers 503).
    "apps.accounts.middleware.ProfileLanguageMiddleware",
]

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"
ASGI_APPLICATION = "portal.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # `ingestion`: whether a worker is alive (read from Redis only by a page that shows it).
                "portal.heartbeat.ingestion_context",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------------------
if DATABASE_URL is not None:
    try:
        _db = dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0))
    except Exception as exc:  # dj-database-url raises several types for a malformed URL
        raise SettingError("DATABASE_URL", f"cannot be parsed ({exc})") from None
    if _db.get("ENGINE") != "django.db.backends.postgresql":
        raise SettingError("DATABASE_URL", "must be a postgresql:// URL (PostgreSQL 15+ with pgvector)")
    # A Unix socket written as `postgresql://user@/name?host=/socket/dir` arrives as OPTIONS["host"] with HOST empty;
    # HOST is where Django, psycopg and anything that rebuilds a URL from these settings look for it.
    if not _db.get("HOST") and _db.get("OPTIONS", {}).get("host"):
        _db["HOST"] = _db["OPTIONS"].pop("host")
else:
    _db = embedded.database_settings(VAR_DIR)
_test_name = env_str("DATABASE_TEST_NAME")
if _test_name:
    _db["TEST"] = {"NAME": _test_name}
# A kept connection (DATABASE_CONN_MAX_AGE > 0) that died with a database restart is replaced at the start of the
# next request instead of failing it.
_db["CONN_HEALTH_CHECKS"] = True
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Broker and worker ----------------------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL") or embedded.redis_url(VAR_DIR)
if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise SettingError("REDIS_URL", "must start with redis://, rediss:// or unix://")
CELERY_BROKER_URL = (
    "redis+socket://" + REDIS_URL.removeprefix("unix://") if REDIS_URL.startswith("unix://") else REDIS_URL
)
CELERY_TASK_SERIALIZER = "json"
# The same Redis holds the search cache; keys are prefixed so they never meet the broker's.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env_str("PORTAL_CACHE_PREFIX", "portal") or "portal",
        # The cache is an optimisation (portal/soft_cache.py): a Redis that hangs or is away costs a request one
        # second at most, not redis-py's five seconds of retries.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, "retry": Retry(NoBackoff(), 0)},
    }
}
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-ingest leaves the message for another one
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("PORTAL_TASK_TIME_LIMIT", 1800, minimum=10)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 5
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env_int("PORTAL_WORKER_MAX_MEMORY_MB", 2048, minimum=64) * 1024
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = env_str("PORTAL_QUEUE", "portal")
# With Redis as broker, the message of a task whose worker died (killed, out of memory, machine lost) stays
# "unacked" until a worker restores it, which happens only once it is older than the visibility timeout (kombu's
# default: one hour). It must stay above the longest task, or a message still being worked on would be handed to a
# second worker: the hard time limit plus a margin.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("PORTAL_BROKER_VISIBILITY_TIMEOUT", CELERY_TASK_TIME_LIMIT + 300, minimum=1),
}

# --- Files ----------------------------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")) or "")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")) or "")
MEDIA_URL = "media/"  # never served directly: downloads go through the access check

PORTAL_STORAGE = env_choice("PORTAL_STORAGE", "local", ("local", "s3"))
if PORTAL_STORAGE == "s3":
    _default_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": env_str("PORTAL_S3_BUCKET", required=True),
            "endpoint_url": env_str("PORTAL_S3_ENDPOINT_URL"),
            "region_name": env_str("PORTAL_S3_REGION"),
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
else:
    _default_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

PORTAL_MAX_UPLOAD_MB = env_int("PORTAL_MAX_UPLOAD_MB", 200, minimum=1)
# Reading a file (parse, chunk, references) runs in a child process with these bounds, so a damaged or hostile
# file fails with a reason instead of exhausting the worker (apps/documents/parsing/sandbox.py).
PORTAL_PARSE_SANDBOX = env_bool("PORTAL_PARSE_SANDBOX", True)
PORTAL_PARSE_MEMORY_MB = env_int("PORTAL_PARSE_MEMORY_MB", 1024, minimum=64)
PORTAL_PARSE_TIMEOUT_S = env_int("PORTAL_PARSE_TIMEOUT_S", 300, minimum=1)
PORTAL_PARSE_MAX_UNZIPPED_MB = env_int("PORTAL_PARSE_MAX_UNZIPPED_MB", 512, minimum=1)  # Word/Excel zip bombs
# A document stored before the worker kept its viewer pages is drawn once on its first view, in the same kind of
# child process with these bounds (apps/documents/rendering).
PORTAL_RENDER_TIMEOUT_S = env_int("PORTAL_RENDER_TIMEOUT_S", 30, minimum=1)
PORTAL_RENDER_MEMORY_MB = env_int("PORTAL_RENDER_MEMORY_MB", 1024, minimum=64)
PORTAL_MAX_PDF_PAGES = env_int("PORTAL_MAX_PDF_PAGES", 5000, minimum=1)
# Embedding runs in batches of PORTAL_EMBED_BATCH passages (the progress bar moves once per batch). A task works
# through at most PORTAL_INGEST_BATCHES_PER_TASK batches of one document, then sends the rest of the job to the
# back of the queue, so a huge document lets other uploads through and resumes where it stopped after a worker
# dies (apps/documents/services/ingest.py). 0: the whole job in one task.
PORTAL_EMBED_BATCH = env_int("PORTAL_EMBED_BATCH", 32, minimum=1)
PORTAL_INGEST_BATCHES_PER_TASK = env_int("PORTAL_INGEST_BATCHES_PER_TASK", 4, minimum=0)
# Uploads above this stream to a temporary file instead of memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# --- Models (used by ingestion and retrieval) ----------------------------------------------------------------
PORTAL_EMBEDDING_MODEL = env_str("PORTAL_EMBEDDING_MODEL", "multilingual-e5-small")
# Models assembled at install time (the default embedding model) live here; shared by the portal and its tests.
PORTAL_MODELS_DIR = Path(env_str("PORTAL_MODELS_DIR", str(BASE_DIR / "var" / "models")) or "")
PORTAL_RERANK_MODEL = env_str("PORTAL_RERANK_MODEL", "")
PORTAL_RERANK_URL = env_str("PORTAL_RERANK_URL", "")
PORTAL_LLM_BASE_URL = env_str("PORTAL_LLM_BASE_URL", "")
PORTAL_LLM_MODEL = env_str("PORTAL_LLM_MODEL", "")
PORTAL_LLM_API_KEY = env_str("PORTAL_LLM_API_KEY", "")  # sent as a bearer token; local servers need none
# Seconds for a whole answer (connect, prompt processing, every streamed token), not just each read.
PORTAL_LLM_TIMEOUT = env_int("PORTAL_LLM_TIMEOUT", 60, minimum=1)
PORTAL_LLM_MAX_TOKENS = env_int("PORTAL_LLM_MAX_TOKENS", 400, minimum=16)  # the longest answer a model may write
# The model's context in tokens, for a server that does not report it (llama.cpp and vLLM do); 0: ask the server.
PORTAL_LLM_CONTEXT_TOKENS = env_int("PORTAL_LLM_CONTEXT_TOKENS", 0, minimum=0)
PORTAL_RERANK_TIMEOUT = env_int("PORTAL_RERANK_TIMEOUT", 10, minimum=1)  # seconds, for PORTAL_RERANK_URL
PORTAL_RERANK_KEY = env_str("PORTAL_RERANK_KEY", "")  # sent to PORTAL_RERANK_URL as a bearer token, if set

# --- Answers --------------------------------------------------------------------------------------------------
# extractive: answers made of evidence sentences, no model needed (the default); llm: the OpenAI-compatible
# endpoint at PORTAL_LLM_BASE_URL writes them, and the extractive composer takes over if it fails.
PORTAL_ANSWER_COMPOSER = env_choice("PORTAL_ANSWER_COMPOSER", "extractive", ("extractive", "llm"))

# --- Search ---------------------------------------------------------------------------------------------------
# Results are cached this long; keys carry each collection's last change, so a change makes old entries unreachable.
PORTAL_SEARCH_CACHE_SECONDS = env_int("PORTAL_SEARCH_CACHE_SECONDS", 600, minimum=0)
# Up to this many chunks in scope, vector search is exact (about 5 µs a chunk); above, it uses the HNSW index.
PORTAL_VECTOR_EXACT_LIMIT = env_int("PORTAL_VECTOR_EXACT_LIMIT", 2000, minimum=0)
# Recall@10 against exact search: 0.93–0.96 at 100, 0.96–0.98 at 200, for about 1.5 ms more (docs/benchmarks.md).
PORTAL_HNSW_EF_SEARCH = env_int("PORTAL_HNSW_EF_SEARCH", 200, minimum=10)
# Each web process (and the MCP server) loads the embedding model as it starts, not in the first search.
PORTAL_WARM_UP = env_bool("PORTAL_WARM_UP", True)
# Keyword indexes of this many collections are kept in each web process's memory (least recently used dropped).
PORTAL_KEYWORD_INDEXES_IN_MEMORY = env_int("PORTAL_KEYWORD_INDEXES_IN_MEMORY", 16, minimum=1)

# --- Auth, API --------------------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
# Failed logins (the portal's page and the admin's) per account and per address in a fixed window; over either
# limit, 429 until the window ends (portal/throttle.py). 0: that limit is off.
# Under pytest both throttles are off unless the environment says otherwise: the suite logs in and calls the API
# from one address and (schemathesis) one token far faster than people do; tests/test_throttle.py turns them on.
PORTAL_LOGIN_THROTTLE = env_bool("PORTAL_LOGIN_THROTTLE", True)
PORTAL_LOGIN_FAILURES_PER_ACCOUNT = env_int("PORTAL_LOGIN_FAILURES_PER_ACCOUNT", 5, minimum=0)
PORTAL_LOGIN_FAILURES_PER_ADDRESS = env_int("PORTAL_LOGIN_FAILURES_PER_ADDRESS", 50, minimum=0)
PORTAL_LOGIN_WINDOW_MINUTES = env_int("PORTAL_LOGIN_WINDOW_MINUTES", 15, minimum=1)
# API requests per user: "N/second|minute|hour|day", or "off".
PORTAL_API_RATE = env_rate("PORTAL_API_RATE", "600/minute")
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Where people reach the portal ("https://kb.example.org"): links in the API and MCP answers are made absolute on
# it. Unset, the API uses each request's own scheme and host, and the MCP server (which has no request) returns
# site-relative links (portal/links.py).
PORTAL_SITE_URL = env_site_url("PORTAL_SITE_URL")

REST_FRAMEWORK = {
    # JSON with absolute links (portal/links.py), and DRF's browsable pages.
    "DEFAULT_RENDERER_CLASSES": [
        "portal.links.AbsoluteLinksJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Every list answers {count, next, previous, results}; every error {detail, code, errors}.
    "DEFAULT_PAGINATION_CLASS": "portal.api_pagination.PortalPagination",
    "EXCEPTION_HANDLER": "portal.api_errors.exception_handler",
    # DRF's parsers, refusing text PostgreSQL cannot store and JSON nested past a bound (portal/api_parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "portal.api_parsers.JSONParser",
        "portal.api_parsers.FormParser",
        "portal.api_parsers.MultiPartParser",
    ],
    # Requests per user (token or session) at PORTAL_API_RATE; over it, 429 with Retry-After (portal/throttle.py).
    "DEFAULT_THROTTLE_CLASSES": ["portal.throttle.ApiUserRateThrottle"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Knowledge portal API",
    "DESCRIPTION": "Collections, documents, search and answers with citations. Authenticate with "
    "`Authorization: Token <key>` (the API token page); every error has the body of `Error`.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema and its Swagger UI carry no content: public, like the login page.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",  # tags and operation ids from the path after it: documents, search, ...
    "ENUM_NAME_OVERRIDES": {
        "DocumentStatusEnum": "apps.documents.models.DocumentStatus",
        "CitationStatusEnum": "apps.citations.answers.citation.STATUSES",
    },
}

# --- Security ---------------------------------------------------------------------------------------------------
# Behind HTTPS in production; the embedded mode serves plain HTTP on 127.0.0.1.
PORTAL_HTTPS = env_bool("PORTAL_HTTPS", not EMBEDDED)
SESSION_COOKIE_SECURE = PORTAL_HTTPS
CSRF_COOKIE_SECURE = PORTAL_HTTPS
SECURE_SSL_REDIRECT = PORTAL_HTTPS and env_bool("PORTAL_SSL_REDIRECT", True)
# Load balancers probe the backend over plain HTTP: /healthz answers them instead of redirecting to https.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("PORTAL_HSTS_SECONDS", 31536000 if PORTAL_HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = PORTAL_HTTPS
SECURE_HSTS_PRELOAD = PORTAL_HTTPS and env_bool("PORTAL_HSTS_PRELOAD", True)
PORTAL_BEHIND_PROXY = env_bool("PORTAL_BEHIND_PROXY", False)  # also: the login throttle's client address
if PORTAL_BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts and styles from this site only, no inline code or handlers
# (templates load static/js/*.js; the PDF viewer's import map carries the request's nonce). PDF.js needs its
# worker and blob: images, and WebAssembly for its image decoders ('wasm-unsafe-eval' compiles WebAssembly only,
# it allows no eval of JavaScript).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE, "'wasm-unsafe-eval'"],
        "style-src": [SELF],
        "img-src": [SELF, "data:", "blob:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "worker-src": [SELF, "blob:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True

LANGUAGE_CODE = "en"
# The two languages of the portal's teams and documents; every user-facing word exists in both (design.md,
# "Links and languages"). The compiled catalogs (.mo) are committed: no GNU gettext is needed to run.
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and numbers follow the active language (always localised since Django 5); the English date format is ours.
FORMAT_MODULE_PATH = ["portal.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
