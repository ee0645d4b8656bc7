"""Issue 30: Shitennō said "card(s)", "tile(s)" and "koku(s)" (Dutch "kaart(en)", "tegel(s)", "Koku('s)"), Teikoku
"card(s)" and "kaart(en)". One card is a card, two are cards, in both languages, whether the sentence comes from the
engine (the API's English detail, tests/games/engines/shitenno/test_errors.py) or the catalogue (here)."""

import pytest
from django.utils import translation

from games.plugins import get_game

CASES = [  # (code, parameters, English for 1, English for 2, Dutch for 1, Dutch for 2), the count under "n"
    (
        "shitenno.implausible_draw",
        {"card": "samurai", "exist": "n", "elsewhere": 1},
        "1 such card exists;",
        "2 such cards exist;",
        "er bestaat 1 zo'n kaart;",
        "er bestaan 2 zulke kaarten;",
    ),
    (
        "shitenno.implausible_hidden",
        {"card": "samurai", "general": "Honda", "exist": "n", "elsewhere": 1},
        "1 such card exists;",
        "2 such cards exist;",
        "er bestaat 1 zo'n kaart;",
        "er bestaan 2 zulke kaarten;",
    ),
    (
        "shitenno.cannot_pay_troops",
        {"general": "Honda", "cards": "Bushi", "held": "Samurai", "hidden": "n"},
        "and 1 hidden card.",
        "and 2 hidden cards.",
        "en 1 verborgen kaart.",
        "en 2 verborgen kaarten.",
    ),
    (
        "shitenno.koku_deck_short",
        {"left": "n", "value": 3},
        "only 1 card worth 3.",
        "only 2 cards worth 3.",
        "nog maar 1 kaart met waarde 3.",
        "nog maar 2 kaarten met waarde 3.",
    ),
    (
        "shitenno.tiles_short",
        {"general": "Honda", "held": "n", "bonus": "plus_one", "used": 3},
        "tile; the payment",
        "tiles; the payment",
        "tegel; de betaling",
        "tegels; de betaling",
    ),
    (
        "shitenno.mixed_payment",
        {"troops": "Bushi", "kokus": "n"},
        "Bushi and 1 koku.",
        "Bushi and 2 kokus.",
        "Bushi en 1 Koku.",
        "Bushi en 2 Koku's.",
    ),
    (
        "shitenno.draw_size",
        {"troops": "n", "kokus": 1, "got_troops": 0, "got_kokus": 0},
        "troop cards: 1, koku cards: 1;",
        "troop cards: 2, koku cards: 1;",
        "troepenkaarten: 1, Kokukaarten: 1;",
        "troepenkaarten: 2, Kokukaarten: 1;",
    ),
    (
        "teikoku.describe.pit_fee",
        {"clan": "Fujiwara", "cards": "n", "fee": 2},
        "Fujiwara banishes 1 card to the Pit",
        "Fujiwara banishes 2 cards to the Pit",
        "Fujiwara verbant 1 kaart naar de Put",
        "Fujiwara verbant 2 kaarten naar de Put",
    ),
    (
        "teikoku.describe.cards_leave",
        {"count": "n", "deck": "units", "note": "Shipwreck", "left": 5},
        "1 card leaves the Units deck",
        "2 cards leave the Units deck",
        "1 kaart verlaat de stapel",
        "2 kaarten verlaten de stapel",
    ),
    (
        "teikoku.deck_overdraw",
        {"deck": "units", "available": "n", "asked": 9},
        "holds 1 card;",
        "holds 2 cards;",
        "bevat 1 kaart;",
        "bevat 2 kaarten;",
    ),
    (
        "teikoku.port_defended",
        {"units": "n"},
        "it holds 1 card.",
        "it holds 2 cards.",
        "die bevat nog 1 kaart.",
        "die bevat nog 2 kaarten.",
    ),
    (
        "teikoku.setup.deck_too_small",
        {"deck": "units", "size": "n"},
        "has only 1 card:",
        "has only 2 cards:",
        "heeft maar 1 kaart:",
        "heeft maar 2 kaarten:",
    ),
]


def _say(code: str, params: dict, n: int, language: str) -> str:
    """The catalogue's sentence for `code` of the game its code names, with the count n put under "n"."""
    phrase = {"code": code, "params": {key: n if value == "n" else value for key, value in params.items()}}
    with translation.override(language):
        return get_game(code.split(".")[0]).phrases.say(phrase, {})


@pytest.mark.parametrize(("code", "params", "en1", "en2", "nl1", "nl2"), CASES)
def test_one_card_is_a_card_and_two_are_cards(code, params, en1, en2, nl1, nl2):
    said = {(n, language): _say(code, params, n, language) for n in (1, 2) for language in ("en", "nl")}
    assert en1 in said[1, "en"] and en2 in said[2, "en"], said
    assert nl1 in said[1, "nl"] and nl2 in said[2, "nl"], said
    for n in (1, 2):
        assert "(s)" not in said[n, "en"] and "(en)" not in said[n, "nl"], said
