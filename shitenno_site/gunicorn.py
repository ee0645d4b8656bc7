"""Gunicorn settings for production: `gunicorn --config python:shitenno_site.gunicorn shitenno_site.wsgi`.

Gunicorn names itself and its version in every answer's `Server` header; that only helps someone looking for a
known hole in a given version, so the site answers with its own name instead. Gunicorn has no setting for it:
its response reads the module-level `SERVER` of `gunicorn.http.wsgi` when it is made, which is replaced here.

Threaded workers (gthread), bound to the loopback address behind nginx (deploy/nginx-site.conf), because a sync
worker reads one request at a time: two connections sending a byte every 2 s held both workers of a two-worker
site until its 30 s timeout, again and again, and `/healthz` waited 73-85 s (issue 46, finding 2). A dripping
client now holds one of a worker's `GUNICORN_THREADS` threads, and nginx, which reads the whole request before it
passes it on, keeps such clients away from gunicorn altogether. Each thread holds its own database connection:
`WEB_CONCURRENCY` x `GUNICORN_THREADS` per instance (docs/operations.md).
"""

import os

import gunicorn.http.wsgi

gunicorn.http.wsgi.SERVER = "shitenno"

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
accesslog = "-"
