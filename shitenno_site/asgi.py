import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")
application = get_asgi_application()

from shitenno_site.warmup import warm  # noqa: E402 (as in wsgi.py)

warm()
