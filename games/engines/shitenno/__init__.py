"""Shitennō (Ludonaute, 2011) for 2-4 players, following the English rulebook and the rulings in
docs/rules/shitenno.md (numbered 1-13, and A1-A9 for the engine's own).

The engine records a real table: draws, hidden cards and the bonus tiles revealed are entered as moves.

Set-up
------
    {"players": [{"general": "honda"}, {"general": "sakakibara"}, {"general": "sakai"}, {"general": "ii"}],
     "titles": {"honda": "daimyo", "sakakibara": "shomyo", "sakai": "sensei", "ii": "hatamoto"},
     "gates": {"kanto": "bushi", "kansai": "samurai", "shikoku": "shinobi", "tohoku": "sohei",
               "chugoku": "bushi", "chubu": "bushi", "hokkaido": "sohei", "kyushu": "samurai"}}

Seats are numbered 0..n-1 in the order of "players". "titles" gives the title tile dealt to each
general (with 2 or 3 players, only that many; `deal_titles(generals, rng)` deals them). "gates"
gives the troop face of the top bonus tile on each province's gate (`deal_gates(rng)` piles them at random).
Each player holds 2 hidden troop cards, a stock of 12/10/8 kamons, and the game starts in year 2, an even year
(odd years are 3, 5, ...).

Moves
-----
Every move has "type" and "seat" (the seat whose action it is). Troop cards are named "samurai",
"bushi", "sohei", "shinobi" or a double "<a>+<b>" in that order ("samurai+samurai", "bushi+sohei");
koku cards by value (1, 2, 3); hierarchy tiles and titles by "daimyo", "shomyo", "sensei", "hatamoto".

Even year (the sharing):
    draw      the Tairō's draw, the cards turned up at the table (counts by player count, or what is
              left of a short deck):
              {"type": "draw", "seat": 0, "troops": ["samurai", "sohei", "shinobi", "bushi+sohei", "bushi",
               "samurai", "samurai", "bushi"], "kokus": [1, 1, 2, 3]}
    offer     the Tairō forms a lot (any of the cards to share, zero allowed) with one hierarchy tile; it is
              offered to the next player without a lot in title order:
              {"type": "offer", "seat": 0, "troops": ["sohei", "shinobi"], "kokus": [1, 1],
               "hierarchy": "sensei"}
    accept    {"type": "accept", "seat": 2}
    refuse    {"type": "refuse", "seat": 1}  (refused by all: the Tairō keeps it and the next player
              without a lot becomes Tairō)
    split     with two players left without a lot, the Tairō shares out all the remaining cards in two lots:
              {"type": "split", "seat": 1, "lots": [
                  {"troops": ["bushi"], "kokus": [2], "hierarchy": "daimyo"},
                  {"troops": ["samurai", "samurai"], "kokus": [3], "hierarchy": "shomyo"}]}
    choose    the other player takes lot 0 (A) or 1 (B); the Tairō takes the other:
              {"type": "choose", "seat": 3, "lot": 1}
    When every player has a lot, each takes the title of his hierarchy tile and the odd year begins.

Odd year (control of provinces), turns in title order:
    place     a kamon on the first free position of a province, paid with troops or kokus; "bonus" is the
              bonus face of the tile taken (positions 1-3) and "next_troop" the troop face of the tile it
              reveals (positions 1-2), both as seen at the table:
              {"type": "place", "seat": 3, "province": "hokkaido",
               "payment": {"troops": ["bushi+sohei"], "kokus": [], "hatamoto": null,
                           "bonuses": [{"tile": "exchange", "from": "bushi", "to": "sohei"},
                                       {"tile": "plus_one", "on": "sohei"}]}}
              {"type": "place", "seat": 1, "province": "kanto", "payment": {"kokus": [1, 1, 1, 1, 2]},
               "bonus": "plus_one", "next_troop": "samurai"}
              Payment fields (all optional): "troops" (cards), "kokus" (values), "hatamoto" (the troop the
              Hatamoto tile stands for, once a turn), "bonuses" applied in order: Exchange
              {"tile": "exchange", "from": <troop or koku value>, "to": <troop or "koku">} and +1
              {"tile": "plus_one", "on": <troop or "koku">}. See payment.py.
    take_card Card Taking: draw a troop card, kept hidden ("card": null) or shown:
              {"type": "take_card", "seat": 1, "card": null}
              {"type": "take_card", "seat": 1, "card": "sohei"}
    end_turn  end the turn (a pass when nothing was placed); the Sensei may turn one of his kamons golden:
              {"type": "end_turn", "seat": 2}
              {"type": "end_turn", "seat": 2, "golden": {"province": "kanto", "position": 1}}

The game ends at the end of an odd year when a player's stock is empty or the koku deck has run out;
outcome() then gives the final count (scoring.final_count, which tables may also call directly).
"""

from games.engines.shitenno.engine import ShitennoEngine
from games.engines.shitenno.scoring import final_count
from games.engines.shitenno.state import deal_gates, deal_titles

# The engine games.registry finds for this folder (games.engines.get_engine("shitenno")).
ENGINE = ShitennoEngine()

__all__ = ["ENGINE", "ShitennoEngine", "deal_gates", "deal_titles", "final_count"]
