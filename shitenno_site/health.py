"""/healthz: is the database answering, can tasks reach the broker, and is the shared cache there?"""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from kombu import Connection

from .cache import cache_state


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "down"; the message says which
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


@never_cache
def healthz(request):
    checks = {"database": _database(), "broker": _broker()}
    healthy = all(value in ("ok", "eager") for value in checks.values())
    # A cache outage costs speed, not answers (shitenno_site.cache): it is reported, the site stays healthy.
    return JsonResponse({"status": "ok" if healthy else "error", **checks, "cache": cache_state()},
                        status=200 if healthy else 503)
