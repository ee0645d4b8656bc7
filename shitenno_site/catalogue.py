"""The Dutch catalogue kept complete without `makemessages` rewriting it (`make messages`; docs/development.md).

`manage.py makemessages -l nl` re-sorts and re-wraps all of locale/nl/LC_MESSAGES/django.po (a diff of thousands
of lines that every branch then conflicts on) and guesses a translation for each new string from a similar old
one, marked fuzzy: "enter the bids" became "getrokken kaarten invoeren". Here Django's own extraction runs into a
temporary folder instead, on an empty catalogue (so nothing is guessed), and only the messages the real catalogue
lacks are appended at its end, untranslated, for a person to translate. tests/site/test_catalogue.py uses the same
extraction to fail on a message used in the code without Dutch.

A developer's tool: polib comes with the test tools (`pip install -e ".[test]"`), not with the site.
"""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"
# What makemessages reads: the site (tests/ and bench/ are not).
SOURCES = ("games", "leagues", "shitenno_site", "templates")


@contextmanager
def _in(folder: Path):
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def extracted():
    """Every message the site's code and templates use (a polib.POFile, all untranslated), as makemessages finds
    them, extracted in a temporary folder: the real catalogue is not read or written."""
    import polib
    from django.core.management import call_command
    from django.test import override_settings

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in SOURCES:
            (folder / name).symlink_to(ROOT / name)
        (folder / "locale").mkdir()
        with _in(folder), override_settings(LOCALE_PATHS=[folder / "locale"]):
            call_command(
                "makemessages",
                locale=["nl"],
                symlinks=True,
                no_obsolete=True,
                verbosity=0,
                no_location=False,
                add_location="file",
            )
        return polib.pofile(str(folder / "locale" / "nl" / "LC_MESSAGES" / "django.po"))


def _key(entry) -> tuple[str, str]:
    return entry.msgctxt or "", entry.msgid


def missing(catalogue=None) -> list:
    """The messages the code uses that the catalogue lacks (entries of `extracted()`), in extraction order."""
    import polib

    catalogue = catalogue or polib.pofile(str(CATALOGUE))
    have = {_key(entry) for entry in catalogue if not entry.obsolete}
    return [entry for entry in extracted() if _key(entry) not in have]


def untranslated(catalogue=None) -> list:
    """The catalogue's entries a Dutch page cannot use: without a translation (a plural's forms included) or fuzzy."""
    import polib

    catalogue = catalogue or polib.pofile(str(CATALOGUE))
    return [entry for entry in catalogue if not entry.obsolete and (not entry.translated() or entry.fuzzy)]


def append_missing() -> int:
    """Append the messages the catalogue lacks at its end, untranslated; nothing else in the file changes."""
    new = missing()
    if new:
        with CATALOGUE.open("a", encoding="utf-8") as out:
            for entry in new:
                entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
                out.write("\n" + entry.__unicode__(wrapwidth=0))
    return len(new)


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")
    import django

    django.setup()
    added = append_missing()
    left = untranslated()
    print(
        f"{added} new message(s) appended to {CATALOGUE.relative_to(ROOT)}; {len(left)} to translate there "
        "(an empty msgstr or a fuzzy flag). Translate them, then: make messages-compile"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
