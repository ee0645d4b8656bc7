"""Teikoku for 2-4 players (3-4, and 2 as the rulebook's variant), following the English rulebook (seed 004),
the rulings in docs/rules/teikoku.md (each with the rulebook's words).

The site is a shared treasure ledger for a real table: the engine tracks each clan's treasure and the
Port's, the five deck counters, the calendar (year, season, phase, first player, whose turn) with each
season's restrictions, and the three victories. Card values and dice come from the players (or the site's
dice roller) inside the moves; the engine draws nothing. The set-up and the state are described in setup.py.

Moves
-----
Every move is {"type": ..., "seat": ...} plus its fields; no other key is accepted. "seat" is the player
making the move. Phase moves are made by the player on turn, in the phase named:

    end_turn     {}                                   close your turn in this phase (the phase goes round the
                                                      table from the first player; after Refresh the season
                                                      ends and the token passes left)
    banish       {}                                   Movement, Autumn only, once: banish 1 card from hand
    bounty       {"blood": int, "amount"?: int}       Port (not Summer): defeat a Port card of that blood value
                                                      and take "amount" (default: all allowed) <= blood and
                                                      <= the Port's available bounty; the Units deck refills
    acquire      {}                                   Port (not Summer): acquire a Port card; Units refills
    port_attack  {"blood": int}                       Port (not Summer), Units deck empty: take min(blood, bounty)
    raid         {"defender": seat, "dice": [d, d], "cubes": 0..4, "rolled_by"?: "table"|"site"}
                                                      War (not Winter): take min(2D6 + cubes, defender's
                                                      treasure); once per defender per season; not on a
                                                      fortified player
    commerce     {"deck": special deck}               Commerce: buy a special card, its cost (5) to the Port
    trade        {"deck": special deck}               Commerce: trade for a special card, free
                                                      (commerce + trade: at most 2 per player per turn)
    pit_fee      {"cards": int}                       Commerce: banish cards to the Pit, 2 each to the Port

At any time, by any seat:

    card_effect  {"card": str, "from": h, "to": h, "amount": int, "note"?: str}
    correction   {"from": h, "to": h, "amount": int, "note": str}
                 h = a seat, "port" or "supply" (treasure outside the game); nothing goes below zero
    cards_leave  {"deck": deck, "count": int, "note": str}   cards leaving a deck by a card's effect
    fortify      {"fortified": bool}                  the seat's land is empty (cannot be attacked) or not
    roll         {"dice": [1-4 dice], "rolled_by"?: "table"|"site", "note"?: str}   a roll kept in the log

Special decks are "yakuza", "ninja", "elements", "market"; the Units deck is "units".
"""

from games.engines.teikoku.engine import TeikokuEngine

# The engine games.registry finds for this folder (games.engines.get_engine("teikoku")).
ENGINE = TeikokuEngine()

__all__ = ["ENGINE", "TeikokuEngine"]
