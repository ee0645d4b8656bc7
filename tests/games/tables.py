"""Set-ups for table tests: the generals, their dealt titles and the troop faces on the gates."""

GATES = {
    "kanto": "bushi",
    "kansai": "samurai",
    "shikoku": "shinobi",
    "tohoku": "sohei",
    "chugoku": "bushi",
    "chubu": "bushi",
    "hokkaido": "samurai",
    "kyushu": "shinobi",
}


def two_player_setup() -> dict:
    return {
        "players": [{"general": "honda"}, {"general": "ii"}],
        "titles": {"honda": "daimyo", "ii": "shomyo"},
        "gates": dict(GATES),
    }


def four_player_setup() -> dict:
    """The rulebook's even-year example: Honda Daimyō, Sakakibara Shōmyō, Sakai Sensei, Ii Hatamoto."""
    return {
        "players": [{"general": g} for g in ("honda", "sakakibara", "sakai", "ii")],
        "titles": {"honda": "daimyo", "sakakibara": "shomyo", "sakai": "sensei", "ii": "hatamoto"},
        "gates": dict(GATES),
    }
