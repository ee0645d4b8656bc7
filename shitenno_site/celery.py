"""The Celery app. Tasks live in each app's tasks.py (or a feature's jobs.py) and are thin wrappers around services."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")

app = Celery("shitenno_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# leagues' jobs live in its feature packages (issue 38), under their old names (leagues.tasks.*)
app.autodiscover_tasks(["leagues.jobs", "leagues.imports"])
# Jobs kept beside their feature rather than in an app's tasks.py: a night's proposal (issue 36).
app.autodiscover_tasks(["leagues.nights"], related_name="jobs")
app.autodiscover_tasks(["leagues.notifications"], related_name="devices")  # the device sweep (issue 47)
