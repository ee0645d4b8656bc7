"""The site is installable and its service worker reaches every page (docs/offline.md): the manifest names the app,
opens it full-screen and gives maskable icons of the sizes the install check asks for; the worker is served from
the root, never from the browser's HTTP cache, and only with the site's own scripts (the CSP stays strict)."""

import struct

from django.contrib.staticfiles import finders


def test_every_page_links_the_manifest_and_loads_the_offline_script(client, db):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'src="/static/js/offline.js" data-worker="/sw.js" defer' in page


def test_the_manifest_opens_full_screen_with_maskable_icons_of_192_and_512_px(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["name"]
    sizes = {}
    for icon in manifest["icons"]:
        assert "maskable" in icon["purpose"] and icon["type"] == "image/png"
        data = open(finders.find(icon["src"].removeprefix("/static/")), "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        sizes[icon["sizes"]] = struct.unpack(">II", data[16:24])
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}


def test_the_manifest_speaks_dutch_to_a_dutch_phone(client):
    manifest = client.get("/manifest.webmanifest", headers={"accept-language": "nl"}).json()
    assert manifest["description"].startswith("Houd de score")


def test_the_worker_is_served_from_the_root_uncached_with_local_workbox_only(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/" and response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert '"/static/js/workbox/workbox-sw.js"' in body and "modulePathPrefix" in body
    for name in (
        "workbox-sw.js",
        "workbox-core.prod.js",
        "workbox-routing.prod.js",
        "workbox-strategies.prod.js",
        "workbox-expiration.prod.js",
        "workbox-precaching.prod.js",
    ):
        assert finders.find(f"js/workbox/{name}"), name
    assert "googleapis" not in body
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_worker_refuses_a_post(client):
    assert client.post("/sw.js").status_code == 405
    assert client.post("/manifest.webmanifest").status_code == 405


def test_the_worker_precaches_the_shell_with_revisions_that_follow_the_files(client):
    """Workbox's precache manifest: each shell file with a revision (a hash of its bytes under plain addresses),
    so a changed file changes the worker and is fetched again; no hand-kept version number."""
    import json
    import re

    body = client.get("/sw.js").content.decode()
    precache = json.loads(re.search(r"const SETTINGS = (\{.*\});", body).group(1))["precache"]
    urls = [entry["url"] for entry in precache]
    assert "/static/css/site.css" in urls and "/static/js/offline.js" in urls
    assert all(re.fullmatch(r"[0-9a-f]{32}", entry["revision"]) for entry in precache)
    assert "precacheAndRoute(SETTINGS.precache)" in body and "cleanupOutdatedCaches()" in body
