"""Small Samurai Empires with the Rise of Tokugawa expansion, 1 to 5 players (5 with the New Region),
following the rulebook as quoted in docs/rules/samurai-empires.md.

The base game's printed numbers and map are not in the seed: they come from the board set-up.

Set-up
------
    {"mode": "multiplayer",                       # or "solo"
     "players": [{"name": "Aiko", "training_ground": 3}, {"name": "Ren"}],   # training_ground 1-5, optional
     "turn_order": [1, 0],                         # optional, multiplayer: the first era's order (seat indexes)
     "board": {"regions": [                        # north to south, 4 (5 with the New Region)
         {"name": "Tohoku", "values": [..], "influence_points": [..],   # points by place; by track position
          "provinces": [{"name": "Sendai", "kind": "capital"}, ...],    # north to south; capital|shrine|resource
          "spaces": ["attack", "harvest", ...]},                        # solo: token spaces top to bottom and
         ...],                                                          # the neutral action beside each
        "order_tokens": {"attack": 2, "harvest": 2, "recruit": 2, "castle": 2},   # solo: an AI's 8 tokens
        "destiny_deck": {"Tohoku": 5, ...},        # solo: destiny cards per region
        "seed_tokens": {"bushido": 7, "food": 7}}, # solo: filling the resource slots
     "seed": 12345,                                # solo: the site's draw when the table starts
     "seeding": {"<resource province>": "bushido" | "food", ...}}   # solo, optional: as placed at the table

Moves
-----
    era_score    {"type": "era_score", "era": 1, "scores": [{"regions": {"Tohoku": 1}, "shrines": 2,
                  "sieges": 1, "trained": {"archers": 2, "elites": 1, "general": 0, "samurai": 9},
                  "other": [{"points": 2, "note": "destiny card"}]}, ...]}      one entry per party
    final_score  {"type": "final_score", "scores": [{"influence": {"Tohoku": 4, ...},
                  "resources": {"bushido": 1, "food": 2}, "resource_points": 1}, ...]}
                 (solo AIs: no "resources", the engine counted them)
    Solo only:
    ai_step      {"type": "ai_step"}   the AI to move plans (draws, places, recruits or its neutral action)
                                       or reveals and resolves its token
    place        {"type": "place", "region": "Tohoku", "space": 2}   the player's token (spaces from 1, top)
    pass         {"type": "pass"}      the player, when no space can take a token
    resolve      {"type": "resolve", "destroyed": {"yellow": {"Sendai": 1}}}  the player's token, resolved
    report       {"type": "report", "armies": {"Sendai": 2}, "castles": ["Aizu"]}  the player's own map

Parties: multiplayer, the seats; solo, the player (0), the yellow AI (1) and the blue AI (2).

Hint
----
    {"mode", "era", "phase", "to_move" (party or None), "moves" (open move types),
     "parties": [{"name", "training_ground", "ai", "abilities": {"elite", "general"} | None}],
     "army_types" (with Training Grounds), "turn_order", "totals" (running, per party), "sheet", "last" (the
     last move in words: what the AI drew, where it placed, what it did),
     "solo": {"round", "tokens_per_round", "placed", "spaces", "queue", "covered", "next_cover_cost",
              "seeding", "player", "ais": {"yellow"|"blue": {"deck" (cards left), "board", "face_down_tokens",
              "armies", "castles", "supply", "resources", "influence", "points"}}, "destiny",
              "victory": {"player", "ais", "ahead"}}}
score() is the running total per seat (solo: the player's only); outcome() ranks once the final count is in.
"""

from games.engines.samurai_empires.engine import SamuraiEmpiresEngine

# The engine games.registry finds for this folder (games.engines.get_engine("samurai_empires")).
ENGINE = SamuraiEmpiresEngine()

__all__ = ["ENGINE", "SamuraiEmpiresEngine"]
