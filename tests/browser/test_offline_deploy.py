"""A copy kept on the phone survives a deploy (issue 47, finding 4). Production serves collectstatic's hashed files
(ManifestStaticFilesStorage: "site.3f2a9c1b0d4e.css"); a kept copy of a table page names the hashed files of the
build it was made with. A deploy changes them, and the new worker's precache no longer has the old ones: without
the rule in docs/offline.md ("Copies that outlive a deploy") the copy, opened offline with the browser's HTTP cache
evicted, had no style sheet and no offline script, and a tapped move was neither queued nor sent.

The two builds are collectstatic runs of the site's own static files into temporary directories, the second with
site.css and offline.js changed (so they get new hashes, and /sw.js a new manifest); the live server serves
whichever build is "deployed" (its static finder reads that build's directory, so the old build's files are gone
from the site as they are after a real deploy)."""

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings
from playwright.sync_api import expect

from games import services
from leagues.people.players import player_for_user
from tests.games.teikoku_site.test_pages import SHORT

from .conftest import EXPECT_TIMEOUT
from .test_offline import END_TURN, open_table
from .test_table import see_seq
from .waits import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SITE_STATIC = Path(__file__).resolve().parents[2] / "static"
MANIFEST_STORAGE = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}
KEPT_FILES = "shitenno-kept-files"  # templates/offline/sw.js

# The text of the page's copy at this address, in the worker's caches of copies (templates/offline/sw.js), read
# from the page ("" when there is none).
COPY_OF = """async (path) => {
  for (const name of (await caches.keys()).filter((name) => name.startsWith("shitenno-copies-"))) {
    const copy = await (await caches.open(name)).match(new URL(path, location.href).href, { ignoreVary: true });
    if (copy) return copy.text();
  }
  return "";
}"""
KEPT_FILE_PATHS = f"""async () => {{
  if (!(await caches.has("{KEPT_FILES}"))) return [];
  return (await (await caches.open("{KEPT_FILES}")).keys()).map((request) => new URL(request.url).pathname);
}}"""


@pytest.fixture
def table(alice, bob):
    return services.session_create(
        game="teikoku", created_by=alice, setup=SHORT, players=[player_for_user(alice), player_for_user(bob)]
    )


def build(source: Path, root: Path) -> Path:
    """collectstatic of `source` into `root`, with hashed names (the production storage's manifest)."""
    with override_settings(STATICFILES_DIRS=[source], STATIC_ROOT=root, STORAGES=MANIFEST_STORAGE):
        call_command("collectstatic", "--noinput", verbosity=0)
    return root


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """Two builds of the site's static files: the second with site.css and offline.js changed."""
    tmp = tmp_path_factory.mktemp("builds")
    shutil.copytree(SITE_STATIC, tmp / "source-b")
    with open(tmp / "source-b" / "css" / "site.css", "a") as css:
        css.write("\n/* the next build */\n")
    with open(tmp / "source-b" / "js" / "offline.js", "a") as js:
        js.write("\n// the next build\n")
    return build(SITE_STATIC, tmp / "build-a"), build(tmp / "source-b", tmp / "build-b")


def deploy(settings, root: Path) -> None:
    """The site serves this build: its manifest names the hashed files, and only its files are served."""
    settings.STORAGES = MANIFEST_STORAGE
    settings.STATIC_ROOT = root
    settings.STATICFILES_DIRS = [root]


def test_a_copy_kept_before_a_deploy_opens_offline_with_its_style_sheet_and_scripts(
    phone, settings, builds, table, alice
):
    build_a, build_b = builds
    deploy(settings, build_a)
    old_css, old_offline = static("css/site.css"), static("js/offline.js")
    assert old_css != "/static/css/site.css"  # hashed

    page = phone(alice)
    open_table(page, table)
    # The page asked the worker to keep a copy of itself: it names the old build's files.
    wait_until(page, COPY_OF, lambda copy: old_css in copy, table.get_absolute_url())
    page.evaluate("navigator.serviceWorker.ready.then((registration) => { window.firstWorker = registration.active; })")

    deploy(settings, build_b)
    assert static("css/site.css") != old_css and static("js/offline.js") != old_offline
    assert page.request.get(old_css).status == 404  # the old build's files are gone from the site
    # The phone learns of the new worker (as on its next visit) and the new worker takes over; the table page's
    # copy is still the one of the old build.
    page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.update())")
    page.wait_for_function(
        """() => navigator.serviceWorker.controller
      && navigator.serviceWorker.controller !== window.firstWorker
      && navigator.serviceWorker.controller.state === "activated" """,
        timeout=EXPECT_TIMEOUT,
    )
    assert old_css in page.evaluate(COPY_OF, table.get_absolute_url())

    # The browser's HTTP cache evicted (phones do), the network gone, the table page opened again: from its copy.
    devtools = page.context.new_cdp_session(page)
    devtools.send("Network.clearBrowserCache")
    devtools.detach()
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    page.reload()
    expect(page.locator("#offline-copy")).to_contain_text("Offline: this is the copy of this page from")
    expect(page.locator("#offline-copy")).to_have_attribute("data-from-copy", "")  # the worker served the copy
    # Its style sheet (the old build's: its rules apply) and its offline script (the move is queued) are there.
    assert page.evaluate(
        """(href) => [...document.styleSheets].some((sheet) =>
      sheet.href && new URL(sheet.href).pathname === href && sheet.cssRules.length > 0)""",
        old_css,
    )
    page.locator(END_TURN).click()
    expect(page.locator("#offline-moves li.waiting")).to_have_count(1)
    expect(page.locator("#offline-banner")).to_have_text("offline: 1 move waiting")
    # What the phone kept of the old build: the files its copy names that the new build changed.
    assert sorted(page.evaluate(KEPT_FILE_PATHS)) == sorted([old_css, old_offline])

    # Back online, the move is sent, and the page read again is kept as the new build made it: no copy names the
    # old build's files any more, so the phone drops them.
    page.context.set_offline(False)
    see_seq(page, 1)
    page.reload()
    see_seq(page, 1)
    assert static("css/site.css") in page.evaluate(COPY_OF, table.get_absolute_url())
    wait_until(page, KEPT_FILE_PATHS, lambda paths: paths == [])
