import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")
application = get_wsgi_application()

# Each worker imports this module before it accepts a request: pay the first requests' imports, templates and
# catalogues now, not in the first answers after a deploy (shitenno_site/warmup.py).
from shitenno_site.warmup import warm  # noqa: E402

warm()
