"""Issue 30: English words stayed on pages rendered in Dutch ("Ratings", "Yellow AI", the solo status line).
Every page the browser tests visit (tests/browser/test_axe.py's `site`) is rendered here in Dutch with the test
client, and its visible text must hold no word that is English only: a word of the catalogue's English
(its msgids) that no Dutch translation (msgstr) uses. The allow-list keeps the few words a Dutch page rightly
shows in English."""

from __future__ import annotations

import gettext
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.models import TableSession
from games.plugins import all_games
from tests.browser.test_axe import site  # noqa: F401  (the fixture: the demo site and its pages)

pytestmark = pytest.mark.django_db

ALLOWED = {
    "shitenno",
    "shitennō",
    "teikoku",
    "samurai",
    "empires",  # the games' names
    "koku",
    "daimyo",
    "tairō",
    "shōgun",
    "shogun",  # game words the Dutch rulebook keeps
    "api",
    "json",
    "csv",
    "bgg",
    "bg",
    "stats",
    "ok",  # names of formats and services
}
# What the demo's club wrote itself, shown as written in any language: its description ("A Tuesday-night club
# that plays Shitennō") and its Small Samurai Empires board (provinces "Tohoku Capital", "Kanto North", ...,
# Training Grounds). Teikoku's special decks keep their printed names (Yakuza, Ninja, Elements, Market).
CLUB_WORDS = {"plays", "that", "night", "capital", "north", "south", "shrine", "middle", "training", "ground"}
DECK_NAMES = {"elements", "market"}
# A word is a run of letters standing alone: not the letters inside a table code such as "lW1xTJrc95i1", which
# would otherwise read as the English "i" on one run in many (the codes are random). A code may also hold "-"
# ("I-X0OLqdjx39" gave a lone "I"): the test takes the site's table codes out of the text first.
# An e-mail address on the account page is the person's own, not the page's words ("dora@example.org").
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
WORD = re.compile(r"(?<![\w])[^\W\d_]+(?:'[^\W\d_]+)?(?![\w])")


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


def english_only_words() -> set[str]:
    """Words of the English sentences that no Dutch sentence uses (the compiled catalogue, as the site reads it)."""
    path = Path(settings.BASE_DIR) / "locale" / "nl" / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog
    english, dutch = set(), set()
    for key, value in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid:
            continue  # the header
        english |= _words(re.sub(r"%\(\w+\)s|\{[^}]*\}", " ", msgid))
        dutch |= _words(value)
    return english - dutch - ALLOWED - CLUB_WORDS - DECK_NAMES


class _VisibleText(HTMLParser):
    """The text a reader sees: not scripts, styles, templates or the hidden."""

    SKIP = {"script", "style", "template", "noscript"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        for name, value in attrs:
            if name in ("title", "alt", "aria-label", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


def test_the_english_only_words_are_found():
    """The check can fail: English the catalogue translates is caught, Dutch passes."""
    words = english_only_words()
    assert {"the", "sign", "standings"} <= words
    assert not _words("Ranglijst van de competitie") & words


def test_no_english_word_is_left_on_a_page_rendered_in_dutch(site):  # noqa: F811
    words = english_only_words() - {word for game in all_games() for word in _words(game.name)}  # games' names
    codes = re.compile(
        "|".join(re.escape(code) for code in TableSession.objects.values_list("code", flat=True)) or r"(?!)"
    )
    found = []
    for user, url in site:
        if url.startswith("/api/"):
            continue  # Swagger UI speaks English only (as in the axe test)
        client = Client(HTTP_ACCEPT_LANGUAGE="nl")
        if user is not None:
            client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200, url
        shown = ADDRESS.sub(" ", codes.sub(" ", visible_text(response.content.decode())))
        left = _words(shown) & words
        if left:
            text = " ".join(visible_text(response.content.decode()).split())
            where = [
                text[max(0, m.start() - 40) : m.end() + 40]
                for w in sorted(left)
                for m in [re.search(rf"\b{re.escape(w)}\b", text, re.I)]
                if m
            ]
            found.append(f"{url}: {', '.join(sorted(left))} | " + " … ".join(where))
    assert not found, "English words on Dutch pages:\n" + "\n".join(found)
