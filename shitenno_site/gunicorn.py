"""Gunicorn settings for production: `gunicorn --config python:shitenno_site.gunicorn shitenno_site.wsgi`.

Gunicorn names itself and its version in every answer's `Server` header; that only helps someone looking for a
known hole in a given version, so the site answers with its own name instead. Gunicorn has no setting for it:
its response reads the module-level `SERVER` of `gunicorn.http.wsgi` when it is made, which is replaced here.
"""

import os

import gunicorn.http.wsgi

gunicorn.http.wsgi.SERVER = "shitenno"

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
accesslog = "-"
