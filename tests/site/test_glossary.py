"""One Dutch word per thing (docs/glossary.md): a message whose English names a glossary term says it in Dutch with
the glossary's word, never a second one. Signing off has its own test (tests/site/test_catalogue.py, "bevestigen");
the rest are here, each with the English that names it, the Dutch it must hold and the Dutch it must not."""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

from shitenno_site import catalogue

GLOSSARY = {
    "check in": (
        r"\bcheck(s|ed|ing)?[- ]ins?\b",
        r"incheck|ingecheckt|in te checken|\bcheck\w*\b.*\bin\b",
        r"aanmeld|aangemeld|\bmeld\w*\b.*\baan\b|aan te melden",
    ),
    "log in": (
        r"\b(log|sign)(s|ged|ging)? ?in\b",
        r"inlog|ingelogd|in te loggen|\blog\w*\b.*\bin\b",
        r"aanmeld|aangemeld",
    ),
    "notification": (r"notification", r"bericht", r"melding|notificatie"),
    "dispute": (r"disput", r"betwist", r"bezwaar"),
    "rating": (r"\bratings?\b", r"speelsterkte", r"(?<!`)\bratings?\b(?!`)"),
    "a game played": (
        r"counted games?\b|games played(?! on the site)|recent games|games won|minimum (number of )?games"
        r"|no games yet|(your|my|their) games\b|ranked from %\(min\)s games|not enough games"
        r"|every game they played",
        r"partij",
        r"\bspel(len)?\b",
    ),
}


def naming(po, english: str) -> list:
    return [e for e in po if not e.obsolete and re.search(english, f"{e.msgid} {e.msgid_plural}", re.I)]


def off_glossary(entries, dutch: str, other: str) -> list[tuple[str, str]]:
    wrong = []
    for entry in entries:
        said = " ".join([entry.msgstr, *entry.msgstr_plural.values()])
        if not re.search(dutch, said, re.I) or re.search(other, said, re.I):
            wrong.append((entry.msgid, said))
    return wrong


@pytest.mark.parametrize("term", GLOSSARY)
def test_every_dutch_message_naming_the_term_uses_the_glossarys_word(term):
    english, dutch, other = GLOSSARY[term]
    entries = naming(polib.pofile(str(catalogue.CATALOGUE)), english)
    assert len(entries) >= 5, f"the check of {term!r} reads {len(entries)} messages: its pattern finds none to check"
    assert off_glossary(entries, dutch, other) == []


def test_a_second_word_for_a_term_is_found():
    """The check can fail: a check-in said as "aanmelden", a dispute as "bezwaar", a play as "spel"."""
    po = polib.POFile()
    for msgid, msgstr in (
        ("You are checked in.", "Je bent aangemeld."),
        ("Your dispute is recorded.", "Je bezwaar."),
        ("Recent games", "Recente spellen"),
        ("Recent games", "Recente partijen"),
    ):
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    found = [
        msgstr
        for term in ("check in", "dispute", "a game played")
        for _msgid, msgstr in off_glossary(naming(po, GLOSSARY[term][0]), *GLOSSARY[term][1:])
    ]
    assert found == ["Je bent aangemeld.", "Je bezwaar.", "Recente spellen"]


def test_the_glossary_page_lists_every_term_the_test_checks():
    page = (Path(settings.BASE_DIR) / "docs" / "glossary.md").read_text()
    rows = [line for line in page.splitlines() if line.startswith("| ")]
    for term in (*GLOSSARY, "sign off"):
        assert any(row.lower().startswith(f"| {term}") for row in rows), f"docs/glossary.md has no row for {term!r}"
