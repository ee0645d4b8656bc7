"""Shitennō's request examples for the API's OpenAPI schema (the adapter's `api_*` attributes): one per move type,
as in docs/api.md."""

SETUP_EXAMPLE = (
    "Two players, titles dealt by the site",
    {
        "game": "shitenno",
        "players": [1, 2],
        "deal_titles": True,
        "setup": {
            "players": [{"general": "honda"}, {"general": "ii"}],
            "gates": {
                "kanto": "bushi",
                "kansai": "samurai",
                "shikoku": "shinobi",
                "tohoku": "sohei",
                "chugoku": "bushi",
                "chubu": "bushi",
                "hokkaido": "sohei",
                "kyushu": "samurai",
            },
        },
    },
)

MOVE_EXAMPLES = (
    (
        "draw (the Tairō's draw)",
        {
            "type": "draw",
            "seat": 0,
            "troops": ["samurai", "sohei", "shinobi", "bushi+sohei", "bushi", "samurai", "samurai", "bushi"],
            "kokus": [1, 1, 2, 3],
        },
    ),
    (
        "offer (a lot)",
        {"type": "offer", "seat": 0, "troops": ["sohei", "shinobi"], "kokus": [1, 1], "hierarchy": "sensei"},
    ),
    ("accept", {"type": "accept", "seat": 2}),
    ("refuse", {"type": "refuse", "seat": 1}),
    (
        "split (two lots)",
        {
            "type": "split",
            "seat": 1,
            "lots": [
                {"troops": ["bushi"], "kokus": [2], "hierarchy": "daimyo"},
                {"troops": ["samurai", "samurai"], "kokus": [3], "hierarchy": "shomyo"},
            ],
        },
    ),
    ("choose (a lot of the split)", {"type": "choose", "seat": 3, "lot": 1}),
    (
        "place paid with troops",
        {
            "type": "place",
            "seat": 1,
            "province": "kanto",
            "payment": {"troops": ["samurai", "samurai", "samurai", "bushi+sohei"]},
            "bonus": "exchange",
            "next_troop": "sohei",
        },
    ),
    (
        "place paid with kokus",
        {
            "type": "place",
            "seat": 3,
            "province": "kanto",
            "payment": {"kokus": [1, 1, 1, 1, 2]},
            "bonus": "plus_one",
            "next_troop": "samurai",
        },
    ),
    (
        "place with bonus tiles",
        {
            "type": "place",
            "seat": 0,
            "province": "hokkaido",
            "payment": {
                "troops": ["bushi+sohei"],
                "bonuses": [{"tile": "exchange", "from": "bushi", "to": "sohei"}, {"tile": "plus_one", "on": "sohei"}],
            },
        },
    ),
    ("take_card (Card Taking)", {"type": "take_card", "seat": 1, "card": None}),
    ("end_turn (pass)", {"type": "end_turn", "seat": 2}),
    (
        "end_turn with the Sensei's golden kamon",
        {"type": "end_turn", "seat": 2, "golden": {"province": "kanto", "position": 1}},
    ),
)

FINAL_COUNT_EXAMPLE = (
    "Two players",
    {
        "generals": ["honda", "ii"],
        "titles": {"honda": "daimyo", "ii": "shomyo"},
        "favour": [40, 38],
        "provinces": {
            "kanto": [{"seat": 0, "face": "simple"}, {"seat": 1, "face": "golden"}],
            "chubu": [{"seat": 1, "face": "simple"}],
        },
        "kokus": [[1, 2], [3]],
        "troops": [["samurai", "bushi+sohei"], ["hidden"]],
        "tiles": [{"exchange": 1, "plus_one": 0, "card_taking": 0}, {"exchange": 0, "plus_one": 1, "card_taking": 1}],
    },
)
