"""Tables for the Shitennō tests: the rulebook's four generals, its even-year example, and a builder for
an odd year set as the rulebook's odd-year example describes it."""

from __future__ import annotations

from games.engines.base import replay
from games.engines.shitenno import ShitennoEngine
from games.engines.shitenno.board import BONUSES, KOKU_DECK, TROOP_DECK
from games.engines.shitenno.provinces import start_year

ENGINE = ShitennoEngine()
HONDA, SAKAKIBARA, SAKAI, II = 0, 1, 2, 3

GATES = {
    "kanto": "bushi",
    "kansai": "samurai",
    "shikoku": "shinobi",
    "tohoku": "sohei",
    "chugoku": "bushi",
    "chubu": "bushi",
    "hokkaido": "sohei",
    "kyushu": "samurai",
}

# "This year, Honda is Daimyō, Sakakibara is Shōmyō, Sakai is Sensei, and Ii is Hatamoto."
SETUP = {
    "players": [{"general": "honda"}, {"general": "sakakibara"}, {"general": "sakai"}, {"general": "ii"}],
    "titles": {"honda": "daimyo", "sakakibara": "shomyo", "sakai": "sensei", "ii": "hatamoto"},
    "gates": GATES,
}

EVEN_YEAR_EXAMPLE = [
    # "Honda takes 8 Troop cards and 4 Koku cards from the decks"
    {
        "type": "draw",
        "seat": HONDA,
        "troops": ["sohei", "shinobi", "samurai", "samurai", "bushi", "samurai", "bushi", "shinobi"],
        "kokus": [1, 1, 2, 3],
    },
    # "2 cards 1 Koku, 1 Sōhei card, 1 Shinobi card, and the tile '2 Bakufu seals'"
    {"type": "offer", "seat": HONDA, "troops": ["sohei", "shinobi"], "kokus": [1, 1], "hierarchy": "sensei"},
    {"type": "refuse", "seat": SAKAKIBARA},  # "Sakakibara refuses this lot."
    {"type": "accept", "seat": SAKAI},  # "Honda offers it to Sakai, who accepts it."
    # "3 Troop cards and the tile '1 Bakufu seal'"
    {"type": "offer", "seat": HONDA, "troops": ["samurai", "samurai", "bushi"], "hierarchy": "hatamoto"},
    {"type": "refuse", "seat": SAKAKIBARA},
    {"type": "refuse", "seat": II},  # "Ii refuses the lot too. Therefore, Honda takes the lot."
    # "The remaining cards are divided into 2 lots by Sakakibara"
    {
        "type": "split",
        "seat": SAKAKIBARA,
        "lots": [
            {"troops": ["samurai"], "kokus": [2], "hierarchy": "daimyo"},
            {"troops": ["bushi", "shinobi"], "kokus": [3], "hierarchy": "shomyo"},
        ],
    },
    {"type": "choose", "seat": II, "lot": 1},  # "Ii chooses lot B."
]


def after_even_year_example() -> dict:
    return replay(ENGINE, SETUP, EVEN_YEAR_EXAMPLE)


def odd_year(
    titles: dict[int, str],
    hands: dict[int, dict],
    board: dict[str, list[list]] | None = None,
    gates: dict[str, dict] | None = None,
) -> dict:
    """An odd year about to start, with the titles, hands, kamons and gate tiles given.

    Hands given replace the dealt ones entirely (no hidden cards unless "hidden" is said); the decks
    are counted down so that every card is somewhere.
    """
    state = ENGINE.initial_state(SETUP)
    state["year"] = 3
    state["titles"] = [titles[seat] for seat in range(4)]
    for seat, hand in hands.items():
        state["hands"][seat] = {
            "troops": dict(hand.get("troops", {})),
            "hidden": hand.get("hidden", 0),
            "kokus": sorted(hand.get("kokus", [])),
            "tiles": {b: hand.get("tiles", {}).get(b, 0) for b in BONUSES},
        }
    for province, kamons in (board or {}).items():
        state["board"][province] = [list(k) for k in kamons]
        state["stock"] = [n - sum(1 for s, _ in kamons if s == seat) for seat, n in enumerate(state["stock"])]
    for province, gate in (gates or {}).items():
        state["gates"][province] = dict(gate)
    in_hands = sum(sum(h["troops"].values()) + h["hidden"] for h in state["hands"])
    state["troop_deck"] = sum(TROOP_DECK.values()) - in_hands
    for hand in state["hands"]:
        for value in hand["kokus"]:
            state["koku_deck"][str(value)] -= 1
    assert all(0 <= state["koku_deck"][v] <= KOKU_DECK[v] for v in KOKU_DECK)
    start_year(state)
    return state


def play(state: dict, *moves: dict) -> dict:
    for move in moves:
        state = ENGINE.apply(state, move)
    return state
