"""Malformed moves: every field named, typed and bounded; each refusal has a stable code, params and a sentence,
and changes nothing."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove, InvalidMove
from tests.games.engines.teikoku.tables import ENGINE, FOUR, FUJIWARA, advance, new_game, refused

WAR = advance(new_game(FOUR), "war", "spring", seat=1)
RAID = {"type": "raid", "seat": 1, "defender": 2, "dice": [3, 4], "cubes": 1}


@pytest.mark.parametrize(
    ("move", "code", "field"),
    [
        ({**RAID, "cubes": True}, "teikoku.wrong_type", "cubes"),  # a bool is not a number
        ({**RAID, "cubes": 1.0}, "teikoku.wrong_type", "cubes"),
        ({**RAID, "cubes": "1"}, "teikoku.wrong_type", "cubes"),
        ({**RAID, "cubes": [1]}, "teikoku.wrong_type", "cubes"),
        ({**RAID, "cubes": 5}, "teikoku.out_of_range", "cubes"),  # "4 battle cubes"
        ({**RAID, "cubes": 10**100}, "teikoku.out_of_range", "cubes"),
        ({**RAID, "seat": -1}, "teikoku.out_of_range", "seat"),
        ({**RAID, "seat": 4}, "teikoku.out_of_range", "seat"),
        ({**RAID, "defender": None}, "teikoku.wrong_type", "defender"),
        ({**RAID, "dice": [3]}, "teikoku.wrong_type", "dice"),
        ({**RAID, "dice": [3, 7]}, "teikoku.out_of_range", "dice[1]"),
        ({**RAID, "dice": [0, 1]}, "teikoku.out_of_range", "dice[0]"),
        ({**RAID, "dice": [3, True]}, "teikoku.wrong_type", "dice[1]"),
        ({**RAID, "rolled_by": "dealer"}, "teikoku.unknown_name", "rolled_by"),
    ],
)
def test_it_refuses_a_field_of_the_wrong_type_or_out_of_bounds(move, code, field):
    error = refused(WAR, move, InvalidMove)
    assert error.code == code and error.params["field"] == field
    assert f'"{field}"' in error.message


def test_it_refuses_unknown_and_missing_fields():
    error = refused(WAR, {**RAID, "loot": 16}, InvalidMove)
    assert error.code == "teikoku.unknown_field" and error.params["fields"] == ["loot"]
    error = refused(WAR, {k: v for k, v in RAID.items() if k != "dice"}, InvalidMove)
    assert error.code == "teikoku.missing_field" and error.params == {"fields": ["dice"]}
    assert refused(WAR, {"type": "end_turn"}, InvalidMove).code == "teikoku.missing_field"


def test_it_refuses_unknown_move_types_and_non_objects():
    assert refused(WAR, {"type": "duel", "seat": 1}, InvalidMove).code == "teikoku.unknown_type"
    assert refused(WAR, {"type": ["raid"], "seat": 1}, InvalidMove).code == "teikoku.unknown_type"
    for move in (None, [], "raid", 3, True):
        assert refused(WAR, move, InvalidMove).code == "teikoku.not_an_object"


def test_it_refuses_control_characters_and_overlong_notes():
    move = {"type": "correction", "seat": 0, "from": "supply", "to": 1, "amount": 1, "note": "a\x00b"}
    assert refused(WAR, move, InvalidMove).code == "teikoku.bad_text"
    assert refused(WAR, {**move, "note": "x" * 501}, InvalidMove).code == "teikoku.bad_text"
    assert refused(WAR, {**move, "note": 12}, InvalidMove).code == "teikoku.wrong_type"
    assert refused(WAR, {**move, "from": "bank"}, InvalidMove).code == "teikoku.wrong_type"
    assert refused(WAR, {**move, "amount": 0}, InvalidMove).code == "teikoku.out_of_range"
    assert ENGINE.apply(WAR, {**move, "note": "  tab\tand newline\n are fine "})["treasure"][1] == 26


def test_it_says_a_phase_move_belongs_to_its_phase_and_its_player():
    error = refused(WAR, {"type": "commerce", "seat": 1, "deck": "ninja"}, IllegalMove)
    assert error.code == "teikoku.wrong_phase"
    assert error.params == {"action": "commerce", "phase": "commerce", "current_phase": "war"}
    assert error.message == "Commerce happens in the Commerce phase; this is the War phase."
    error = refused(WAR, {**RAID, "seat": 2, "defender": 1}, IllegalMove)
    assert error.code == "teikoku.not_your_turn"
    assert error.message == "It is Minamoto's turn in the War phase, not Tokugawa's."


def test_it_describes_only_legal_moves():
    with pytest.raises(IllegalMove):
        ENGINE.describe(new_game(FOUR), {"type": "end_turn", "seat": 3})
    assert ENGINE.describe(new_game(FOUR), {"type": "end_turn", "seat": FUJIWARA}) == (
        "Year 1, Winter, Troop Movement: Fujiwara ends their Troop Movement turn."
    )


def test_it_describes_every_kind_of_move_in_a_sentence():
    port = advance(new_game(FOUR, units_deck=0), "port")
    commerce = advance(new_game(FOUR), "commerce")
    cases = [
        (port, {"type": "port_attack", "seat": 0, "blood": 3}, "attacks the Port's treasury with 3 blood"),
        (port, {"type": "acquire", "seat": 0}, "acquires a card from the Port"),
        (port, {"type": "bounty", "seat": 0, "blood": 3}, "defeats a Port card of blood 3 and takes 0"),
        (WAR, RAID, "2D6 rolled at the table 3+4 + 1 unused battle cube(s) = 8; Minamoto takes 8 treasure"),
        (WAR, {**RAID, "rolled_by": "site"}, "rolled by the site"),
        (commerce, {"type": "commerce", "seat": 0, "deck": "ninja"}, "buys a Ninja card for 5 treasure"),
        (commerce, {"type": "trade", "seat": 0, "deck": "market"}, "trades a special card for a Market card"),
        (commerce, {"type": "pit_fee", "seat": 0, "cards": 2}, "banishes 2 cards to the Pit and pays 4"),
        (
            WAR,
            {"type": "cards_leave", "seat": 3, "deck": "units", "count": 2, "note": "Shipwreck"},
            "2 cards leave the Units deck (Shipwreck); 28 left.",
        ),
        (WAR, {"type": "fortify", "seat": 2, "fortified": True}, "Tokugawa is fortified"),
        (WAR, {"type": "roll", "seat": 2, "dice": [4], "note": "entrenched slot"}, "Tokugawa rolls 4 at the table"),
        (
            WAR,
            {"type": "correction", "seat": 2, "from": "supply", "to": "port", "amount": 1, "note": "fee"},
            "Correction entered by Tokugawa: 1 treasure from the supply to the Port (fee).",
        ),
    ]
    for state, move, words in cases:
        assert words in ENGINE.describe(state, move), move
