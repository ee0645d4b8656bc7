"""Teikoku's printed numbers and names, as the rulebook (seed 004) gives them, and the words players read.

Only values the rulebook prints are here; the Units deck's size and the cards' gold and blood values are
not printed in it, so the players enter them (set-up and moves).
"""

from __future__ import annotations

RULES_VERSION = "teikoku-rulebook-en+rulings-1"

# "Player 1 The Fujiwara Clan" ... "Player 4 Taira Clan"; "The Taira clan is only played in a four-player
# game"; the 2-player variant removes "the Taira and Tokugawa clans".
CLANS = ("fujiwara", "minamoto", "tokugawa", "taira")
CLAN_NAMES = {"fujiwara": "Fujiwara", "minamoto": "Minamoto", "tokugawa": "Tokugawa", "taira": "Taira"}
CLANS_BY_PLAYERS = {2: CLANS[:2], 3: CLANS[:3], 4: CLANS}

STARTING_TREASURE = 25  # "Each Player begins the game with 25 Treasure."
# "In a 4-player game the port begins the game with 0 Treasure, in a 3-player game ... 25"; 2 players: 50.
PORT_TREASURE = {4: 0, 3: 25, 2: 50}
AGGRESSION_TARGET = 50  # "Be the first player to obtain 50 Treasure"
YEARS = 3  # "the game ends at the conclusion of Autumn in Year 3"; "a 4th year" by agreement
SPECIAL_DECK_SIZE = {2: 4, 3: 8, 4: 8}  # "Include 8 cards in each deck."; "only 4 cards in each" (2 players)
SPECIAL_DECK_MAX = 20  # "increasing the deck sizes anywhere up to the full decks of 20 cards in each"
SPECIAL_CARD_COST = 5  # "each player may spend 5 Treasure to acquire a special card"
PIT_FEE = 2  # "Each card being banished costs 2 Treasure as a Pit fee"
TRANSACTIONS_PER_TURN = 2  # "a hard limit of 2 Commerce and Trade transactions per player per turn"
BATTLE_CUBES = 4  # "Each player has access to 4 battle cubes."
PORT_ROW = 3  # "The game begins with 3 cards selected randomly from the Units deck face up in the Port row"
HAND_DRAW, HAND_LIMIT = 5, 7  # "draw 5 cards" ... "hand limit of 7 cards" (+1 each in Spring)

SPECIAL_DECKS = ("yakuza", "ninja", "elements", "market")
DECKS = (*SPECIAL_DECKS, "units")
DECK_NAMES = {"yakuza": "Yakuza", "ninja": "Ninja", "elements": "Elements", "market": "Market", "units": "Units"}
DECKS_EMPTY_FOR_ATTRITION = 2  # "When any 2 of the 5 decks becomes empty the game ends"

SEASONS = ("winter", "spring", "summer", "autumn")
SEASON_NAMES = {"winter": "Winter", "spring": "Spring", "summer": "Summer", "autumn": "Autumn"}
PHASES = ("movement", "port", "war", "commerce", "recovery", "refresh")
PHASE_NAMES = {
    "movement": "Troop Movement",
    "port": "Port",
    "war": "War",
    "commerce": "Commerce",
    "recovery": "Recovery",
    "refresh": "Refresh",
}

# Bounds on what a move may say. A real table never comes near them; they keep absurd input out.
MAX_AMOUNT = 10_000  # treasure in one entry
MAX_BLOOD = 999  # a blood value spent or printed (with the middle slot's die added)
MAX_UNITS_DECK = 999
MAX_TREASURE_SETTING = 1_000  # starting treasure, aggression target, special card cost
MAX_NOTE = 500  # characters in a note or a card's name


def clan_name(state: dict, seat: int) -> str:
    return CLAN_NAMES[state["clans"][seat]]


def holder_name(state: dict, holder: int | str) -> str:
    """A treasury in words: a clan, the Port, or the supply (treasure outside the game)."""
    if holder == "port":
        return "the Port"
    if holder == "supply":
        return "the supply"
    return clan_name(state, int(holder))  # a clan's seat: the holders are checked before they are named


def season_rules(season: str) -> dict:
    """What the season allows, for the page and the checks (rulebook "Seasons: The Winds of War")."""
    return {
        # "Winter = Players Cannot Attack Any Other Players"
        "attacks_on_players": season != "winter",
        # "Summer = The Port Is Closed. Players Cannot Attack or Acquire From Port"
        "port_open": season != "summer",
        # "Spring = Players Draw +1 Card and Hand Limits Are +1 This Round"
        "draw": HAND_DRAW + (season == "spring"),
        "hand_limit": HAND_LIMIT + (season == "spring"),
        # "Autumn = Players May Banish 1 Card From Their Hand During Movement"
        "autumn_banish": season == "autumn",
    }


SEASON_TEXT = {
    "winter": "Players cannot attack any other players.",
    "spring": "Players draw +1 card and hand limits are +1 this round.",
    "summer": "The Port is closed: players cannot attack or acquire from the Port.",
    "autumn": "Players may banish 1 card from their hand during movement.",
}
