"""Issue 30: Teikoku said "card(s)" in English and "kaart(en)" in Dutch. One card is a card, two are cards, in
both languages, whether the sentence comes from the engine (the API's English detail) or the catalogue."""

import pytest
from django.utils import translation

from games.plugins import get_game

CASES = [  # (code, parameters, English for 1, English for 2, Dutch for 1, Dutch for 2), the count under "n"
    ("teikoku.describe.pit_fee", {"clan": "Fujiwara", "cards": "n", "fee": 2},
     "Fujiwara banishes 1 card to the Pit", "Fujiwara banishes 2 cards to the Pit",
     "Fujiwara verbant 1 kaart naar de Put", "Fujiwara verbant 2 kaarten naar de Put"),
    ("teikoku.describe.cards_leave", {"count": "n", "deck": "units", "note": "Shipwreck", "left": 5},
     "1 card leaves the Units deck", "2 cards leave the Units deck",
     "1 kaart verlaat de stapel", "2 kaarten verlaten de stapel"),
    ("teikoku.deck_overdraw", {"deck": "units", "available": "n", "asked": 9},
     "holds 1 card;", "holds 2 cards;", "bevat 1 kaart;", "bevat 2 kaarten;"),
    ("teikoku.port_defended", {"units": "n"}, "it holds 1 card.", "it holds 2 cards.",
     "die bevat nog 1 kaart.", "die bevat nog 2 kaarten."),
    ("teikoku.setup.deck_too_small", {"deck": "units", "size": "n"}, "has only 1 card:", "has only 2 cards:",
     "heeft maar 1 kaart:", "heeft maar 2 kaarten:"),
]


def _say(code: str, params: dict, n: int, language: str) -> str:
    phrase = {"code": code, "params": {key: n if value == "n" else value for key, value in params.items()}}
    with translation.override(language):
        return get_game("teikoku").phrases.say(phrase, {})


@pytest.mark.parametrize(("code", "params", "en1", "en2", "nl1", "nl2"), CASES)
def test_one_card_is_a_card_and_two_are_cards(code, params, en1, en2, nl1, nl2):
    assert en1 in _say(code, params, 1, "en") and en2 in _say(code, params, 2, "en")
    assert nl1 in _say(code, params, 1, "nl") and nl2 in _say(code, params, 2, "nl")
    for n in (1, 2):
        assert "(s)" not in _say(code, params, n, "en") and "(en)" not in _say(code, params, n, "nl")

