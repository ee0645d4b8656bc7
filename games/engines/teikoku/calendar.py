"""The Teikoku calendar: seasons, years, the six phases and whose turn it is (rulebook "Seasons: The Winds
of War", "The Seasons", "First Player Token Advances", "Change of Seasons", "Change of Year").

"Players take each of the following actions in order. The first player handles their Troop Movements, then
each other player does so, and then the first player handles their Port engagements and so on." So a phase
is a round of turns from the first player, clockwise; `end_turn` closes one player's part of it.
"""

from __future__ import annotations

from games.engines.teikoku.checks import illegal
from games.engines.teikoku.rules import PHASE_NAMES, PHASES, SEASONS, clan_name


def turn_order(state: dict) -> list[int]:
    """Seats from the first player, clockwise ("game play continues clockwise around the table")."""
    n = len(state["clans"])
    return [(state["first_player"] + i) % n for i in range(n)]


def new_turn(seat: int) -> dict:
    return {"seat": seat, "transactions": 0, "banished": False}


def require_turn(state: dict, seat: int, phase: str, action: str) -> None:
    """IllegalMove unless it is `seat`'s turn in `phase` ("once an action phase is concluded, players may not
    return to that phase until the cycle begins again next season")."""
    if state["phase"] != phase:
        raise illegal(
            f"{action[0].upper()}{action[1:]} happens in the {PHASE_NAMES[phase]} phase; "
            f"this is the {PHASE_NAMES[state['phase']]} phase.",
            "wrong_phase",
            action=action,
            phase=phase,
            current_phase=state["phase"],
        )
    require_seat(state, seat)


def require_seat(state: dict, seat: int) -> None:
    on_turn = state["turn"]["seat"]
    if seat != on_turn:
        raise illegal(
            f"It is {clan_name(state, on_turn)}'s turn in the {PHASE_NAMES[state['phase']]} phase, "
            f"not {clan_name(state, seat)}'s.",
            "not_your_turn",
            seat=seat,
            turn=on_turn,
            phase=state["phase"],
        )


def release_port_payments(state: dict) -> None:
    """Treasure paid to the Port last season becomes bounty now: "Players may not gain bounty from the Port
    until Phase 2 of the following season"."""
    state["port"]["paid_last_season"] = 0


def end_turn(state: dict, seat: int) -> bool:
    """Close `seat`'s turn (mutates `state`); True when Autumn of the last year has just ended."""
    require_seat(state, seat)
    order = turn_order(state)
    at = order.index(seat)
    if at + 1 < len(order):
        state["turn"] = new_turn(order[at + 1])
        return False
    phase = PHASES.index(state["phase"])
    if phase + 1 < len(PHASES):
        state["phase"] = PHASES[phase + 1]
        state["turn"] = new_turn(state["first_player"])
        if state["phase"] == "port":
            release_port_payments(state)
        return False
    return end_season(state)


def end_season(state: dict) -> bool:
    """The Refresh phase is over: pass the token, change the season (and the year after Autumn).

    True when that was Autumn of the last year: "the game ends at the conclusion of Autumn in Year 3"
    (or Year 4 when the players agreed on a 4th year)."""
    if state["season"] == "autumn" and state["year"] == state["years"]:
        return True
    n = len(state["clans"])
    # "the first player token is passed one player to the left", the next player clockwise.
    state["first_player"] = (state["first_player"] + 1) % n
    season = SEASONS.index(state["season"])
    if season + 1 == len(SEASONS):
        # "If the Autumn Season has ended, change the season to winter again and increase the ... D4 by 1"
        state["season"] = SEASONS[0]
        state["year"] += 1
    else:
        state["season"] = SEASONS[season + 1]
    state["phase"] = PHASES[0]
    state["turn"] = new_turn(state["first_player"])
    state["raided"] = []
    port = state["port"]
    port["paid_last_season"] = port["paid_this_season"]
    port["paid_this_season"] = 0
    return False
