"""The Small Samurai Empires engine: the era score sheet for every table, and the two AIs of the solo mode."""

from __future__ import annotations

from games.engines.base import IllegalMove, InvalidMove, Outcome, Phrase, copy_json
from games.engines.samurai_empires import solo, solo_era
from games.engines.samurai_empires.board import AIS, ARMY_TYPES, ERAS, TOKENS_PER_ROUND, TRAINING_GROUNDS
from games.engines.samurai_empires.checks import check_int, check_list, check_object
from games.engines.samurai_empires.sheet import (
    check_era_entry,
    check_final_entry,
    era_row_total,
    multiplayer_outcome,
    next_turn_order,
    party_name,
    party_phrase,
    solo_outcome,
    totals,
    words,
)
from games.engines.samurai_empires.state import RULES_VERSION, initial_state

SOLO_MOVES = ("ai_step", "place", "pass", "resolve", "report", "era_score", "final_score")
MOVE_TYPES = SOLO_MOVES


def to_move(state: dict) -> int | None:
    if state["mode"] != "solo":
        return None
    if state["phase"] == "planning":
        return solo.planning_to_move(state)
    if state["phase"] == "resolution":
        return solo_era.resolution_to_move(state)
    return None


def open_moves(state: dict) -> list[str]:
    phase = state["phase"]
    if phase == "over":
        return []
    if phase in ("era_score", "final_score"):
        return [phase] + (["report"] if state["mode"] == "solo" else [])
    mover = to_move(state)
    if mover == solo.PLAYER:
        if phase == "resolution":
            return ["resolve", "report"]
        return ["place", "report"] + (["pass"] if not _player_has_room(state) else [])
    return ["ai_step", "report"]


def _player_has_room(state: dict) -> bool:
    return any(
        not stack or solo.coverable(state, stack) for spaces in state["solo"]["spaces"].values() for stack in spaces
    )


def _era_score(state: dict, move: dict) -> Phrase:
    m = check_object(move, "The move", required=("type", "era", "scores"))
    era = check_int(m["era"], "era", low=1, high=ERAS)
    if era != state["era"]:
        raise IllegalMove(
            f"The sheet is at era {state['era']}, not era {era}.",
            code="samurai_empires.wrong_era",
            params={"era": state["era"]},
        )
    entries = check_list(m["scores"], "scores", shortest=len(state["parties"]), longest=len(state["parties"]))
    rows = [check_era_entry(state, party, entry) for party, entry in enumerate(entries)]
    if state["mode"] == "solo":
        for party in (1, 2):  # the AIs have no Training Ground, so check_era_entry refused trained armies
            rows[party]["actions"] = solo.ai_of(state, party)["points"]  # Move and Shrine harvests this era
    state["sheet"]["eras"].append(rows)
    state["orders"].append(list(state["turn_order"]))
    state["turn_order"] = next_turn_order(state)  # 6. 'Setup new turn Order'
    scored = _scores(state, [era_row_total(row) for row in rows])
    said = [Phrase(f"Era {era} scored: {scored}.", "samurai_empires.describe.era_scored", era=era, scores=scored)]
    if state["mode"] == "solo":
        player, yellow, blue = totals(state)
        who = party_name(state, solo.PLAYER)
        said.append(
            Phrase(
                f"{who} {player} against the AIs' {yellow + blue} together.",
                "samurai_empires.describe.solo_standing",
                party=who,
                points=player,
                ais=yellow + blue,
            )
        )
        said += solo_era.end_era(state)
    if era == ERAS:
        state["phase"] = "final_score"
    else:
        state["era"] += 1
        state["phase"] = "planning" if state["mode"] == "solo" else "era_score"
    order = ", ".join(party_name(state, p) for p in state["turn_order"])
    names = words([party_phrase(state, p) for p in state["turn_order"]], "site.list", ", ")
    if era < ERAS:
        said.append(
            Phrase(
                f"Turn order for era {state['era']}: {order}.",
                "samurai_empires.describe.turn_order_era",
                era=state["era"],
                order=names,
            )
        )
    else:
        said.append(Phrase(f"Turn order: {order}.", "samurai_empires.describe.turn_order", order=names))
    return words(said, "site.sentences")


def _scores(state: dict, points: list[int]) -> Phrase:
    """ "Aiko 12, Ren 9": each party's points."""
    return words(
        [
            Phrase(
                f"{party_name(state, p)} {n}", "samurai_empires.party_points", party=party_phrase(state, p), points=n
            )
            for p, n in enumerate(points)
        ],
        "site.list",
        ", ",
    )


def _final_score(state: dict, move: dict) -> Phrase:
    m = check_object(move, "The move", required=("type", "scores"))
    entries = check_list(m["scores"], "scores", shortest=len(state["parties"]), longest=len(state["parties"]))
    rows = []
    for party, entry in enumerate(entries):
        ai = state["parties"][party]["ai"]
        held = state["solo"]["ais"][ai]["resources"] if ai else None
        rows.append(check_final_entry(state, party, entry, resources=held))
    state["sheet"]["final"] = rows
    state["phase"] = "over"
    scored = _scores(state, totals(state))
    return Phrase(f"Final count: {scored}.", "samurai_empires.describe.final_count", scores=scored)


def _solo_move(state: dict, kind: str, move: dict) -> Phrase:
    """The solo moves; a planning move that completes the round starts the resolution."""
    if kind == "report":
        return solo.report(state, move)
    if kind == "resolve":
        return solo_era.player_resolve(state, move)
    if kind == "place":
        said = solo.player_place(state, move)
    else:
        check_object(move, "The move", required=("type",))
        party = to_move(state)
        assert party is not None  # the solo moves are offered only while a party is to move (open_moves)
        if kind == "ai_step" and state["phase"] == "resolution":
            return solo_era.ai_resolve(state, party)
        if kind == "ai_step":
            said = solo.ai_plan(state, party)
        else:
            state["solo"]["placed"][solo.PLAYER] += 1
            who = party_name(state, solo.PLAYER)
            said = Phrase(
                f"{who} has no space to place a token on and passes.", "samurai_empires.describe.pass", party=who
            )
    if solo.planning_to_move(state) is None:
        solo_era.start_resolution(state)
    return said


class SamuraiEmpiresEngine:
    slug = "samurai_empires"
    name = "Small Samurai Empires"
    min_players = 1
    max_players = 5
    rules_version = RULES_VERSION
    score_unit = "victory points"

    def initial_state(self, setup: dict) -> dict:
        state = initial_state(setup)
        state["last"] = None
        return state

    def apply(self, state: dict, move: dict) -> dict:
        return self._applied(state, move)[0]

    def _applied(self, state: dict, move: dict) -> tuple[dict, Phrase]:
        """The new state and what happened, in words (what the AI drew and did)."""
        if not isinstance(move, dict):
            raise InvalidMove('A move is an object with a "type".', code="samurai_empires.not_an_object")
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in MOVE_TYPES:
            raise InvalidMove(
                f"Unknown move type; move types are {', '.join(MOVE_TYPES)}.",
                code="samurai_empires.unknown_move",
                params={"types": list(MOVE_TYPES)},
            )
        if state["phase"] == "over":
            raise IllegalMove("The game is over.", code="samurai_empires.game_over")
        allowed = open_moves(state)
        if kind not in allowed:
            raise IllegalMove(
                f"{kind.replace('_', ' ').capitalize()} is not open now; open moves: {', '.join(allowed)}.",
                code="samurai_empires.not_now",
                params={"open": allowed},
            )
        new = copy_json(state)
        if kind == "era_score":
            said = _era_score(new, move)
        elif kind == "final_score":
            said = _final_score(new, move)
        else:
            said = _solo_move(new, kind, move)
        new["last"] = said.text
        return new, said

    def hint(self, state: dict) -> dict:
        hint: dict = {
            "mode": state["mode"],
            "era": state["era"],
            "phase": state["phase"],
            "to_move": to_move(state),
            "moves": open_moves(state),
            "parties": [{**p, "abilities": TRAINING_GROUNDS.get(p["training_ground"])} for p in state["parties"]],
            "army_types": ARMY_TYPES if any(p["training_ground"] for p in state["parties"]) else None,
            "turn_order": list(state["turn_order"]),
            "totals": totals(state),
            "sheet": copy_json(state["sheet"]),
            "last": state["last"],
        }
        if state["mode"] == "solo":
            hint["solo"] = solo_hint(state)
        return hint

    def outcome(self, state: dict) -> Outcome | None:
        if state["phase"] != "over":
            return None
        return solo_outcome(state) if state["mode"] == "solo" else multiplayer_outcome(state)

    def score(self, state: dict) -> list[int]:
        scores = totals(state)
        return scores[:1] if state["mode"] == "solo" else scores

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str:
        """The move in words (applying it tells what the AI drew and did); `checked` changes nothing here."""
        return self.describe_phrase(state, move, checked=checked).text

    def describe_phrase(self, state: dict, move: dict, *, checked: bool = False) -> Phrase:
        said = self._applied(state, move)[1]
        return Phrase(f"Era {state['era']} — {said}", "samurai_empires.describe.era", era=state["era"], move=said)


def solo_hint(state: dict) -> dict:
    s = state["solo"]
    player, yellow, blue = totals(state)
    per_round = TOKENS_PER_ROUND[s["round"] - 1]
    return {
        "round": s["round"],
        "tokens_per_round": per_round,
        "placed": list(s["placed"]),
        "spaces": copy_json(s["spaces"]),
        "queue": copy_json(s["queue"]),
        "covered": [party_name(state, p) for p in s["covered"]],
        "next_cover_cost": s["player_covers"] + 1 if s["player_covers"] < 2 else None,
        "seeding": dict(s["seeding"]),
        "player": copy_json(s["player"]),
        "ais": {
            ai: {
                "deck": len(s["ais"][ai]["deck"]),
                "board": copy_json(s["ais"][ai]["board"]),
                "face_down_tokens": sum(s["ais"][ai]["tokens"].values()),
                **{
                    k: copy_json(s["ais"][ai][k])
                    for k in ("armies", "castles", "supply", "resources", "influence", "points")
                },
            }
            for ai in AIS
        },
        "destiny": copy_json(s["destiny"]),
        "victory": {"player": player, "ais": yellow + blue, "ahead": player > yellow + blue},
    }
