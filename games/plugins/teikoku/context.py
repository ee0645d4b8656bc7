"""Teikoku's table page: the treasure of every clan and of the Port, the season banner, the deck counters, the
movement forms with the limits the engine's hint gives, and the victory screen.

Presentation only, read from the engine's state and hint, in the reader's language.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines.base import MoveError, Phrase
from games.engines.teikoku import TeikokuEngine
from games.engines.teikoku.rules import CLAN_NAMES, DECKS, SPECIAL_DECKS

from .forms import COLOURS, DEFAULT_COLOURS

ENGINE = TeikokuEngine()
TURNS_AHEAD = 16  # "end the turn" taps in a row a phone can tell apart offline (two seasons of four clans' phases)

SEASONS = {
    "winter": gettext_lazy("Winter"),
    "spring": gettext_lazy("Spring"),
    "summer": gettext_lazy("Summer"),
    "autumn": gettext_lazy("Autumn"),
}
SEASON_RESTRICTIONS = {
    "winter": gettext_lazy("Players cannot attack any other players."),
    "spring": gettext_lazy("Players draw +1 card and hand limits are +1 this round."),
    "summer": gettext_lazy("The Port is closed: players cannot attack or acquire from the Port."),
    "autumn": gettext_lazy("Players may banish 1 card from their hand during movement."),
}
PHASES = {
    "movement": gettext_lazy("Troop Movement"),
    "port": gettext_lazy("Port"),
    "war": gettext_lazy("War"),
    "commerce": gettext_lazy("Commerce"),
    "recovery": gettext_lazy("Recovery"),
    "refresh": gettext_lazy("Refresh"),
}
DECK_LABELS = {
    "yakuza": gettext_lazy("Yakuza"),
    "ninja": gettext_lazy("Ninja"),
    "elements": gettext_lazy("Elements"),
    "market": gettext_lazy("Market"),
    "units": gettext_lazy("Units"),
}
VICTORIES = {
    "aggression": gettext_lazy("Victory by aggression"),
    "attrition": gettext_lazy("Victory by attrition"),
    "longevity": gettext_lazy("Victory by longevity"),
}
SHARED_VICTORIES = {
    "aggression": gettext_lazy("Shared victory by aggression"),
    "attrition": gettext_lazy("Shared victory by attrition"),
    "longevity": gettext_lazy("Shared victory by longevity"),
}
VICTORY_TEXT = {
    "aggression": gettext_lazy("reached their aggression target"),
    "attrition": gettext_lazy("two of the five decks are empty: the most treasure wins"),
    "longevity": gettext_lazy("the last Autumn is over: the most treasure wins"),
}


def seat_rows(seat_rows: list, clans: list[str]) -> list[dict]:
    """Each seat with its clan, player and colour (a seat without a known colour takes the default)."""
    seats = []
    for seat in seat_rows:
        i = seat.position
        colour = seat.colour if seat.colour in COLOURS else DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)]
        seats.append(
            {
                "index": i,
                "name": seat.player.name,
                "clan": CLAN_NAMES[clans[i]],
                "colour": colour,
                "fill": COLOURS[colour][1],
            }
        )
    return seats


def _holders(seats: list[dict]) -> list[tuple[str, str]]:
    return [(str(s["index"]), s["clan"]) for s in seats] + [("port", _("the Port")), ("supply", _("the supply"))]


def end_turn_words(state: dict, say: Callable[[Phrase], str]) -> list[str]:
    """What "end the turn" tapped again and again from this state ends, in the reader's words: the first tap ends
    the turn on the page, the next the turn after it ("Year 1, Winter, Troop Movement: Minamoto ends their Troop
    Movement turn."). A phone offline keeps the page as it is, so its waiting moves would otherwise all read as the
    one button ("End the Troop Movement turn"); the shared queue lists each by its place in the row
    (static/js/offline.js, data-queued-words). Only "end the turn" moves the turn on: a move in between (a bounty,
    an acquisition) leaves the next tap's words as they are. Stops where the engine refuses the next one."""
    words = []
    for _turn in range(TURNS_AHEAD):
        seat = ENGINE.hint(state)["to_move"]
        if seat is None:
            break
        move = {"type": "end_turn", "seat": seat}
        try:
            words.append(say(ENGINE.describe_phrase(state, move)))
            state = ENGINE.apply(state, move)
        except MoveError:
            break
    return words


def table_context(state: dict, rows: list, query: QueryDict, say: Callable[[Phrase], str] | None = None) -> dict:
    hint = ENGINE.hint(state)
    seats = seat_rows(rows, state["clans"])
    for seat in seats:
        i = seat["index"]
        seat.update(
            treasure=hint["treasure"][i],
            target=hint["targets"][i],
            fortified=hint["fortified"][i],
            raided=i in hint["raided"],
            first=i == hint["first_player"],
            percent=min(100, round(100 * hint["treasure"][i] / max(1, hint["targets"][i]))),
        )
    limits = hint["limits"]
    context: dict = {
        "state": state,
        "hint": hint,
        "seats": seats,
        "limits": limits,
        "season_name": SEASONS[hint["season"]],
        "restriction": SEASON_RESTRICTIONS[hint["season"]],
        "phase_name": PHASES[hint["phase"]],
        "first_player": seats[hint["first_player"]],
        "decks": [
            {"slug": d, "name": DECK_LABELS[d], "count": hint["decks"][d], "empty": hint["decks"][d] == 0}
            for d in DECKS
        ],
        "holders": _holders(seats),
        "special_decks": [(d, DECK_LABELS[d]) for d in SPECIAL_DECKS],
        "all_decks": [(d, DECK_LABELS[d]) for d in DECKS],
        "defenders": [{**d, "clan": seats[d["seat"]]["clan"]} for d in limits["raid"]["defenders"]],
        "commerce_decks": [(d, DECK_LABELS[d]) for d in limits["commerce"]["decks"]],
    }
    if hint["to_move"] is not None:
        context["mover"] = seats[hint["to_move"]]
    if say is not None and "end_turn" in hint["moves"]:
        context["end_turn_words"] = json.dumps(end_turn_words(state, say), ensure_ascii=False)
    return context


def outcome_context(outcome: dict, names: list[str], state: dict) -> dict:
    """The victory screen: the victory by name, the winners, and every clan's place and treasure."""
    details = outcome.get("details") or {}
    clans = state.get("clans") or []
    termination = outcome["termination"]
    shared = bool(details.get("shared"))
    rows = []
    for placing in outcome["placings"]:
        seat = placing["seat"]
        clan = CLAN_NAMES[clans[seat]] if seat < len(clans) else _("Seat %(n)d") % {"n": seat + 1}
        rows.append({**placing, "name": names[seat], "clan": clan})
    winners = [r for r in rows if r["rank"] == 1]
    victory = (SHARED_VICTORIES if shared else VICTORIES).get(termination, termination)
    return {
        "victory": victory,
        "why": VICTORY_TEXT.get(termination, ""),
        "winners": winners,
        "rows": rows,
        "shared": shared,
        "termination": termination,
        "year": details.get("year"),
        "season": SEASONS.get(details.get("season", ""), ""),
        "port": details.get("port"),
        "empty_decks": [DECK_LABELS[d] for d in details.get("empty_decks", []) if d in DECK_LABELS],
    }
