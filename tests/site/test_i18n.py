"""The interface in Dutch: chosen from the browser's Accept-Language or the footer's language switch, and a
Dutch catalogue with every message translated (game terms as the Dutch rulebook has them)."""

import ast
import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from games import services
from leagues.people.players import player_for_user
from tests.games.tables import two_player_setup

pytestmark = pytest.mark.django_db

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "nl" / "LC_MESSAGES"
DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}


def _table(alice, bob):
    return services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=two_player_setup(),
        colours=["red", "blue"],
    )


def _html(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


# --- pages in Dutch ---------------------------------------------------------------------------------------


def test_the_home_page_is_english_by_default(client):
    html = _html(client.get("/"))
    assert '<html lang="en">' in html
    assert "Score your game at the table" in html and "Houd de score bij aan tafel" not in html


def test_a_dutch_browser_gets_the_home_page_in_dutch(client):
    html = _html(client.get("/", **DUTCH))
    assert '<html lang="nl">' in html
    assert "Houd de score bij aan tafel" in html
    assert "Slottelling berekenen" in html and "Spelers" in html and "Competities" in html
    assert "Score your game at the table" not in html


def test_a_dutch_browser_gets_the_new_table_page_in_dutch(client, alice):
    client.force_login(alice)
    html = _html(client.get(reverse("table_new"), **DUTCH))
    assert "Nieuwe tafel" in html and "Tafel openen" in html
    assert "Poorten: de troep op de bovenste bonustegel van elke provincie" in html
    assert "Generaal" in html and "Starttitel" in html and "Laat de site de starttitels uitdelen" in html
    assert "New table" not in html and "Starting title" not in html


def test_the_training_grounds_offered_on_a_new_table_are_said_in_the_readers_language(client, alice):
    """The choices are built when the module is imported: formatted then, they stayed in English on Dutch pages."""
    client.force_login(alice)
    dutch = _html(client.get(reverse("table_new") + "?game=samurai_empires", **DUTCH))
    assert "Trainingsterrein 1" in dutch and "Trainingsterrein 5" in dutch and "Training Ground 1" not in dutch
    english = _html(client.get(reverse("table_new") + "?game=samurai_empires"))
    assert "Training Ground 1" in english and "Trainingsterrein" not in english


def test_a_dutch_browser_gets_the_table_in_the_rulebooks_terms(client, alice, bob):
    session = _table(alice, bob)
    client.force_login(alice)
    html = _html(client.get(session.get_absolute_url(), **DUTCH))
    assert "Aanzienspoor" in html and "het verdelen (even jaar)" in html
    assert "getrokken kaarten invoeren" in html and "de Tairō, legt" in html and "Kokukaarten" in html
    assert "Nodig de andere telefoons uit" in html and "Volledige geschiedenis" in html
    assert "Favour track" not in html and "the sharing" not in html
    assert "Kantō" in html  # province names are names: they stay as printed


def test_a_dutch_browser_gets_the_final_count_calculator_in_dutch(client):
    html = _html(client.get(reverse("final_count"), **DUTCH))
    assert "Slottelling berekenen" in html and "Kamons op het bord" in html and "4 spelers" in html
    assert "<legend>Plaats 2</legend>" in html and "Seat" not in html


def test_a_dutch_browser_gets_the_club_page_in_dutch(client, alice, club):
    client.force_login(alice)
    html = _html(client.get(club.get_absolute_url(), **DUTCH))
    assert "Leden" in html and "Uitnodigingslink" in html and "Recente partijen" in html
    assert "Jouw rol in deze club: eigenaar." in html  # the role's label is translated too
    assert "Members" not in html and "Recent games" not in html


def test_the_language_switch_makes_later_pages_dutch(client, alice, club):
    assert "Score your game at the table" in _html(client.get("/"))
    response = client.post("/i18n/setlang/", {"language": "nl", "next": "/clubs/"})
    assert response.status_code == 302 and response["Location"] == "/clubs/"
    html = _html(client.get("/"))  # no Accept-Language: the choice is remembered
    assert '<html lang="nl">' in html and "Houd de score bij aan tafel" in html
    html = _html(client.get(reverse("club_list")))
    assert "Alle clubs" in html and "2 leden" in html  # the plural form
    client.force_login(alice)
    assert "Nieuwe tafel" in _html(client.get(reverse("table_new")))
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Score your game at the table" in _html(client.get("/", **DUTCH))


def test_the_switch_offers_both_languages_and_marks_the_current_one(client):
    html = _html(client.get("/", **DUTCH))
    assert 'action="/i18n/setlang/"' in html
    assert '<option value="nl" selected>Nederlands</option>' in html and '<option value="en">Engels</option>' in html
    assert '<option value="en" selected>English</option>' in _html(client.get("/"))


# --- the catalogue --------------------------------------------------------------------------------------


def _po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: flags, msgid, msgid_plural and msgstr / msgstr[n] (unquoted)."""
    entries = []
    for block in path.read_text(encoding="utf-8").strip().split("\n\n"):
        entry: dict = {"flags": set(), "obsolete": False}
        key = None
        for line in block.splitlines():
            if line.startswith("#~"):
                entry["obsolete"] = True
            elif line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif match := re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line):
                key = match.group(1)
                entry[key] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and key:
                entry[key] += ast.literal_eval(line)
        entries.append(entry)
    return entries


def _messages() -> list[dict]:
    return [e for e in _po_entries(LOCALE / "django.po") if e.get("msgid") and not e["obsolete"]]


def test_every_dutch_message_is_translated_and_none_is_fuzzy():
    messages = _messages()
    assert len(messages) > 300
    fuzzy = [e["msgid"] for e in messages if "fuzzy" in e["flags"]]
    untranslated = [
        e["msgid"]
        for e in messages
        if not all(value.strip() for key, value in e.items() if key.startswith("msgstr"))
        or not any(key.startswith("msgstr") for key in e)
    ]
    assert fuzzy == []
    assert untranslated == []
    header = _po_entries(LOCALE / "django.po")[0]
    assert "fuzzy" not in header["flags"] and "Language: nl" in header["msgstr"]


def test_plural_messages_have_both_dutch_forms():
    plurals = [e for e in _messages() if "msgid_plural" in e]
    assert plurals
    for entry in plurals:
        assert entry.get("msgstr[0]") and entry.get("msgstr[1]"), entry["msgid"]


def test_translations_keep_every_placeholder():
    placeholder = re.compile(r"%\(\w+\)[sd]|\{\{ *\w+ *\}\}")
    for entry in _messages():
        for key, value in entry.items():
            if key.startswith("msgstr"):
                source = entry["msgid_plural"] if key == "msgstr[1]" else entry["msgid"]
                assert sorted(placeholder.findall(value)) == sorted(placeholder.findall(source)), entry["msgid"]


def test_msgfmt_counts_no_untranslated_or_fuzzy_message(tmp_path):
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt (gettext) is not installed")
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "django.mo"), str(LOCALE / "django.po")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert re.fullmatch(r"\d+ translated messages?\.", result.stderr.strip()), result.stderr


def test_the_compiled_catalogue_is_present_and_up_to_date():
    with (LOCALE / "django.mo").open("rb") as fp:
        catalogue = gettext.GNUTranslations(fp)
    for entry in _messages():
        if "msgid_plural" in entry:
            assert catalogue.ngettext(entry["msgid"], entry["msgid_plural"], 1) == entry["msgstr[0]"]
            assert catalogue.ngettext(entry["msgid"], entry["msgid_plural"], 2) == entry["msgstr[1]"]
        elif "msgctxt" in entry:  # the same English word in another sense ("wins": a count, a clan that wins)
            assert catalogue.pgettext(entry["msgctxt"], entry["msgid"]) == entry["msgstr"], entry["msgid"]
        else:
            assert catalogue.gettext(entry["msgid"]) == entry["msgstr"], entry["msgid"]
