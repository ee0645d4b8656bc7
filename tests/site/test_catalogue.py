"""The Dutch catalogue stays complete: every message the site's code and templates use has Dutch.

The messages are found as `make messages` finds them (shitenno_site/catalogue.py: Django's makemessages, run in a
temporary folder on an empty catalogue), so a new `gettext`, `{% translate %}` or `{% blocktranslate %}` without
an entry in locale/nl/LC_MESSAGES/django.po fails here, wherever the entry would go: the file is read as a whole,
so the entries other branches append at its end count like any other.
"""

import shutil

import polib
import pytest

from shitenno_site import catalogue

pytestmark = pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext (xgettext) is not installed")


def test_every_message_the_site_uses_has_dutch():
    lacking = catalogue.missing()
    assert not lacking, (
        "messages without Dutch (run `make messages`, translate them at the end of django.po, then "
        "`make messages-compile`):\n" + "\n".join(f"{e.occurrences[:1]} {e.msgid!r}" for e in lacking)
    )
    assert not catalogue.untranslated(), "entries of django.po without Dutch or fuzzy"


def test_a_message_the_catalogue_lacks_is_found(tmp_path):
    """The check can fail: take one message the code uses out of a copy of the catalogue, and it is missing."""
    po = polib.pofile(str(catalogue.CATALOGUE))
    gone = next(entry for entry in po if entry.msgid == "Bad request")
    po.remove(gone)
    assert [entry.msgid for entry in catalogue.missing(po)] == ["Bad request"]
    fuzzy = next(entry for entry in po if entry.msgid == "Invitations")
    fuzzy.flags.append("fuzzy")
    assert [entry.msgid for entry in catalogue.untranslated(po)] == ["Invitations"]


# One Dutch word for signing a result off: "bevestigen" (the word the site used most), never a second word for the
# same act (a new user met "aftekenen", "akkoord", "goedkeuren" and "tekenen" on neighbouring pages).
SIGN_OFF = r"sign(s|ed|ing)?[- ]off|sign it off|sign (the|its) result|signs? (his|their) own|\bto sign\b(?! in)"
OTHER_WORDS = r"afteken|afgetekend|tekent\b.*\baf\b|\btekenen\b|ondertek|akkoord|goedkeur|goedgekeurd"


def sign_off_entries(po) -> list:
    import re

    return [entry for entry in po if re.search(SIGN_OFF, entry.msgid + entry.msgid_plural, re.I)]


def test_every_dutch_message_about_signing_off_says_bevestigen():
    import re

    entries = sign_off_entries(polib.pofile(str(catalogue.CATALOGUE)))
    assert len(entries) > 20  # the check reads what it means to
    for entry in entries:
        dutch = " ".join([entry.msgstr, *entry.msgstr_plural.values()])
        assert re.search(r"bevestig", dutch, re.I), (entry.msgid, dutch)
        assert not re.search(OTHER_WORDS, dutch, re.I), (entry.msgid, dutch)
