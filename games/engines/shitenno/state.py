"""The game state of a Shitennō table: its JSON layout, set-up, and what is known about every card.

The state is one JSON dict (str keys, lists, ints, bools, None):

    rules_version  str
    generals       [general slug per seat]            seats in the order setup["players"] gave them
    year           int                                 even = the sharing, odd = control of provinces;
                                                       the first year is 2, so the first odd year is 3
    phase          "sharing" | "provinces" | "over"
    titles         [title slug per seat]               the titles that rule this year's order of play
    stock          [control kamons left per seat]
    scored         [{"positions": int, "title_bonus": int} per seat]    favour won by placements
    hands          [{"troops": {card: n}, "hidden": int, "kokus": [values], "tiles": {bonus: n}} per seat]
                   troops = troop cards everyone has seen the player take; hidden = how many troop
                   cards nobody else has seen (the 2 dealt at set-up, hidden Card Taking draws)
    board          {province: [[seat, "simple" | "golden"], ...] in position order}
    gates          {province: {"tiles": bonus tiles left on the gate, "top": troop face of the top tile}}
    tiles_taken    {troop: {bonus: n}}                 the bonus tiles taken so far (both faces known)
    troop_deck     int                                 troop cards in the draw pile
    discard        {card: n}                           troop cards discarded since the last reshuffle
    koku_deck      {"1": n, "2": n, "3": n}            koku cards left to draw
    last_year      bool                                the koku deck ran out: the next odd year ends it
    sharing        dict | None                         the even year's sharing (see sharing.py)
    turn           dict | None                         the odd year's turn (see provinces.py)
    end            dict | None                         {"termination": ...} once the game is over
"""

from __future__ import annotations

import random

from games.engines.base import Phrase
from games.engines.shitenno.board import (
    BONUSES,
    GENERALS,
    HIDDEN_CARDS_AT_SETUP,
    KAMONS_BY_PLAYERS,
    KOKU_DECK,
    PROVINCES,
    TILES_PER_GATE,
    TILES_PER_TROOP,
    TITLE_NAMES,
    TITLES,
    TROOP_DECK,
    TROOP_NAMES,
    TROOPS,
    card_name,
    check_title,
    check_troop,
    illegal,
    invalid,
)

RULES_VERSION = "ludonaute-2011-en+rulings-1"
FIRST_YEAR = 2


# --- counts: {name: n} with no zero entries -------------------------------------------------------


def add_count(counts: dict[str, int], name: str, n: int = 1) -> None:
    counts[name] = counts.get(name, 0) + n
    if counts[name] == 0:
        del counts[name]


def count_of(names: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for name in names:
        add_count(counts, name)
    return counts


# --- names players read -----------------------------------------------------------------------------


def general_name(state: dict, seat: int) -> str:
    return GENERALS[state["generals"][seat]]


def cards_in_words(troops: list[str], kokus: list[int]) -> str:
    parts = [card_name(c) for c in troops] + [f"Koku {v}" for v in kokus]
    return ", ".join(parts) if parts else "no cards"


def cards_phrase(troops: list[str], kokus: list[int]) -> Phrase:
    """Cards in words, as a Phrase: each card said on its own (the site joins them in the reader's language)."""
    if not troops and not kokus:
        return Phrase("no cards", "shitenno.no_cards")
    parts = [Phrase(card_name(c), "shitenno.card", card=c) for c in troops] + [
        Phrase(f"Koku {v}", "shitenno.koku", value=v) for v in kokus
    ]
    return Phrase(cards_in_words(troops, kokus), "shitenno.cards", cards=parts)


# --- set-up -----------------------------------------------------------------------------------------


def deal_titles(generals: list[str], rng: random.Random) -> dict[str, str]:
    """Deal one title tile at random to each general, as the rulebook's set-up does."""
    dealt = rng.sample(TITLES, len(generals))
    return dict(zip(generals, dealt, strict=True))


def deal_gates(rng: random.Random) -> dict[str, str]:
    """The troop face on top of each gate's pile, as the rulebook's set-up piles them: "Pile randomly 3 Bonus
    tiles, 'Troop' face up, on the Gate of each Province" (all 24 tiles, 6 showing each troop)."""
    tiles = [troop for troop in TROOPS for _ in range(TILES_PER_TROOP)]
    rng.shuffle(tiles)
    return {province: tiles[i * TILES_PER_GATE] for i, province in enumerate(PROVINCES)}


def _generals_of(setup: dict) -> list[str]:
    """The set-up's known fields, and its 2 to 4 players' generals, each played once."""
    if not isinstance(setup, dict):
        raise invalid("The set-up must be an object with players, titles and gates.", "setup.not_an_object")
    unknown = set(setup) - {"players", "titles", "gates"}
    if unknown:
        raise invalid(
            f"Unknown set-up field(s): {', '.join(sorted(map(str, unknown)))}; a set-up has players, titles and gates.",
            "setup.unknown_fields",
            fields=", ".join(sorted(map(str, unknown)))[:80],
        )
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) and set(p) <= {"general"} for p in players):
        raise invalid('The set-up needs "players": a list such as [{"general": "honda"}, ...].', "setup.players")
    if not 2 <= len(players) <= 4:
        raise illegal(
            f"Shitennō is played by 2 to 4 players, not {len(players)}.", "setup.player_count", players=len(players)
        )
    generals = []
    for player in players:
        general = player.get("general")
        if not isinstance(general, str) or general not in GENERALS:
            raise invalid(
                f"Unknown general {general!r}; generals are {', '.join(GENERALS)}.",
                "setup.unknown_general",
                value=repr(general)[:40],
                generals=", ".join(GENERALS),
            )
        if general in generals:
            raise illegal(
                f"{GENERALS[general]} is played by one player only.", "setup.general_twice", general=GENERALS[general]
            )
        generals.append(general)
    return generals


def _titles_dealt(setup: dict, generals: list[str]) -> list[str]:
    """One title tile per general, each dealt once, in seat order."""
    titles_in = setup.get("titles")
    if not isinstance(titles_in, dict) or set(titles_in) != set(generals):
        raise invalid(
            'The set-up needs "titles": one title per general, e.g. {"honda": "daimyo", ...}.', "setup.titles"
        )
    titles = [check_title(titles_in[g]) for g in generals]
    if len(set(titles)) != len(titles):
        raise illegal("Each title tile is dealt to one player only.", "setup.title_twice")
    return titles


def _gates_shown(setup: dict) -> dict[str, dict]:
    """Each province's gate with its full stack of bonus tiles and the troop face on top (no troop shown more
    often than its tiles allow)."""
    gates_in = setup.get("gates")
    if not isinstance(gates_in, dict) or set(gates_in) != set(PROVINCES):
        raise invalid('The set-up needs "gates": the troop face of each province\'s top bonus tile.', "setup.gates")
    gates = {p: {"tiles": TILES_PER_GATE, "top": check_troop(gates_in[p], "troop face")} for p in PROVINCES}
    for troop in TROOPS:
        shown = sum(1 for gate in gates.values() if gate["top"] == troop)
        if shown > TILES_PER_TROOP:
            raise illegal(
                f"Only {TILES_PER_TROOP} bonus tiles show a {TROOP_NAMES[troop]}; the gates show {shown}.",
                "setup.gate_troops",
                tiles=TILES_PER_TROOP,
                troop=troop,
                shown=shown,
            )
    return gates


def initial_state(setup: dict) -> dict:
    generals = _generals_of(setup)
    titles = _titles_dealt(setup, generals)
    gates = _gates_shown(setup)

    n = len(generals)
    return {
        "rules_version": RULES_VERSION,
        "generals": generals,
        "year": FIRST_YEAR,
        "phase": "sharing",
        "titles": titles,
        "stock": [KAMONS_BY_PLAYERS[n]] * n,
        "scored": [{"positions": 0, "title_bonus": 0} for _ in generals],
        "hands": [
            {"troops": {}, "hidden": HIDDEN_CARDS_AT_SETUP, "kokus": [], "tiles": {b: 0 for b in BONUSES}}
            for _ in generals
        ],
        "board": {p: [] for p in PROVINCES},
        "gates": gates,
        "tiles_taken": {t: {b: 0 for b in BONUSES} for t in TROOPS},
        "troop_deck": sum(TROOP_DECK.values()) - HIDDEN_CARDS_AT_SETUP * n,
        "discard": {},
        "koku_deck": dict(KOKU_DECK),
        "last_year": False,
        "sharing": None,
        "turn": None,
        "end": None,
    }


# --- titles and order of play -----------------------------------------------------------------------


def title_order(state: dict) -> list[int]:
    """Seats from the highest title to the lowest (this year's titles)."""
    return sorted(range(len(state["generals"])), key=lambda seat: TITLES.index(state["titles"][seat]))


def holder(state: dict, title: str) -> int | None:
    return state["titles"].index(title) if title in state["titles"] else None


def title_name(state: dict, seat: int) -> str:
    return TITLE_NAMES[state["titles"][seat]]


# --- troop cards: who is known to hold what ---------------------------------------------------------


def unknown_troops(state: dict) -> dict[str, int]:
    """Troop cards whose place nobody knows: in the draw pile or hidden in a hand."""
    unknown = dict(TROOP_DECK)
    seen: list[dict[str, int]] = [hand["troops"] for hand in state["hands"]] + [state["discard"]]
    sharing = state["sharing"]
    if sharing:
        if sharing["table"]:
            seen.append(count_of(sharing["table"]["troops"]))
        if sharing["offer"]:
            seen.append(count_of(sharing["offer"]["troops"]))
        for lot in sharing["split"] or []:
            seen.append(count_of(lot["troops"]))
    for counts in seen:
        for card, n in counts.items():
            add_count(unknown, card, -n)
    return unknown


def check_plausible(state: dict, cards: list[str], holder: str | None = None) -> None:
    """IllegalMove unless `cards` can all be among the troop cards whose place is unknown: cards drawn, or
    cards revealed from `holder`'s hidden cards."""
    how = f"in {holder}'s hidden cards" if holder else "drawn"
    unknown = unknown_troops(state)
    for card, n in count_of(cards).items():
        if n > unknown.get(card, 0):
            left = unknown.get(card, 0)
            raise illegal(
                f"{card_name(card)} cannot be {how}: {TROOP_DECK[card]} such "
                f"{'card exists' if TROOP_DECK[card] == 1 else 'cards exist'}; known to be elsewhere: "
                f"{TROOP_DECK[card] - left}.",
                "implausible_hidden" if holder else "implausible_draw",
                card=card,
                exist=TROOP_DECK[card],
                elsewhere=TROOP_DECK[card] - left,
                **({"general": holder} if holder else {}),
            )


def troop_cards_available(state: dict) -> int:
    """Troop cards a draw can reach: the pile, plus the discards reshuffled when it runs out."""
    return state["troop_deck"] + sum(state["discard"].values())


def draw_troop_cards(state: dict, count: int) -> None:
    """Take `count` cards off the troop pile (mutates `state`), reshuffling the discards if needed."""
    if count > state["troop_deck"]:
        state["troop_deck"] += sum(state["discard"].values())
        state["discard"] = {}
    state["troop_deck"] -= count


def take_from_hand(state: dict, seat: int, cards: list[str]) -> None:
    """Discard `cards` from a hand (mutates `state`): known cards first, then hidden ones revealed."""
    hand = state["hands"][seat]
    revealed: list[str] = []
    for card, n in count_of(cards).items():
        known = hand["troops"].get(card, 0)
        revealed += [card] * max(0, n - known)
    if len(revealed) > hand["hidden"]:
        held = ", ".join(f"{n} {card_name(c)}" for c, n in sorted(hand["troops"].items())) or "no known cards"
        raise illegal(
            f"{general_name(state, seat)} cannot pay {cards_in_words(cards, [])}: they hold {held} "
            f"and {hand['hidden']} hidden {'card' if hand['hidden'] == 1 else 'cards'}.",
            "cannot_pay_troops",
            general=general_name(state, seat),
            cards=cards_phrase(cards, []),
            held=cards_phrase([c for c, n in sorted(hand["troops"].items()) for _ in range(n)], []),
            hidden=hand["hidden"],
        )
    check_plausible(state, revealed, general_name(state, seat))
    for card, n in count_of(cards).items():
        from_known = min(n, hand["troops"].get(card, 0))
        if from_known:
            add_count(hand["troops"], card, -from_known)
        add_count(state["discard"], card, n)
    hand["hidden"] -= len(revealed)


def take_kokus_from_hand(state: dict, seat: int, kokus: list[int]) -> None:
    hand = state["hands"][seat]
    left = list(hand["kokus"])
    for value in kokus:
        if value not in left:
            held = ", ".join(str(v) for v in sorted(hand["kokus"])) or "none"
            raise illegal(
                f"{general_name(state, seat)} cannot pay koku cards {sorted(kokus)}: they hold {held}.",
                "cannot_pay_kokus",
                general=general_name(state, seat),
                kokus=", ".join(map(str, sorted(kokus))),
                held=cards_phrase([], sorted(hand["kokus"])),
            )
        left.remove(value)
    hand["kokus"] = left


def troop_units_in_hand(hand: dict) -> int:
    """Troops in a hand, counting an unrevealed card as one troop (it may be a double)."""
    return sum(len(card.split("+")) * n for card, n in hand["troops"].items()) + hand["hidden"]
