"""The solo mode's set-up, destiny schedule, decks and replays ('Solo Mode: SETUP', 'Setting up Destiny cards',
'Adding new Destiny and Location cards')."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalMove, replay
from games.engines.samurai_empires.board import LOCATIONS
from tests.games.engines.samurai_empires.tables import (
    ENGINE,
    REGION_NAMES,
    SEEDING,
    STEP,
    random_legal_game,
    solo_setup,
    solo_table,
)

seeds = st.integers(0, 2**63 - 1)


def test_each_ai_deck_is_2_location_cards_of_each_region_shuffled():
    # 'Draw 2 Location cards from each of the regions and then shuffle them in one pile for each Ai,
    # thus creating two face down decks of 8 cards.'
    for ai in ENGINE.initial_state(solo_setup())["solo"]["ais"].values():
        assert len(ai["deck"]) == 8
        assert Counter(region for region, _ in ai["deck"]) == {r: 2 for r in REGION_NAMES}
        assert sorted(map(tuple, ai["deck"] + ai["unused"])) == sorted(
            (r, loc) for r in REGION_NAMES for loc in LOCATIONS
        )


def test_each_ai_plays_its_11_order_tokens_less_the_3_move_tokens():
    # 'Remove all move tokens from each of the AI (3 for each). Shuffle the rest of the Order tokens (8)'
    for ai in ENGINE.initial_state(solo_setup())["solo"]["ais"].values():
        assert sum(ai["tokens"].values()) == 8 and "move" not in ai["tokens"]


def test_the_ais_start_with_nothing_and_the_player_with_2_armies_in_each_capital():
    # 'Set 2 Armies in each of the Capitals ... The two Ai start with 0 resources and 0 Armies on the board.'
    solo = ENGINE.initial_state(solo_setup())["solo"]
    assert solo["player"]["armies"] == {f"{r} Capital": 2 for r in REGION_NAMES}
    for ai in solo["ais"].values():
        assert ai["armies"] == {} and ai["resources"] == {"bushido": 0, "food": 0} and ai["supply"] == 16


def test_the_player_is_last_in_the_first_eras_turn_order():
    # 'Both of the AI's play before the player. At the start of the first era, the Player should be last'
    state = ENGINE.initial_state(solo_setup())
    assert state["turn_order"] == [1, 2, 0]
    assert ENGINE.hint(state)["to_move"] == 1 and ENGINE.hint(state)["moves"] == ["ai_step", "report"]


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_the_site_seeds_every_region_with_a_bushido_and_a_food(seed):
    # 'Make sure that every region has at least 1 Bushido and 1 Food.'
    state = ENGINE.initial_state(solo_setup(seed))
    seeding = state["solo"]["seeding"]
    assert Counter(seeding.values()) == {"bushido": 6, "food": 6}
    for region in REGION_NAMES:
        assert {kind for province, kind in seeding.items() if province.startswith(region)} == {"bushido", "food"}


def test_a_seeding_entered_from_the_table_is_checked():
    assert ENGINE.initial_state(solo_setup(seeding=SEEDING))["solo"]["seeding"] == SEEDING
    lopsided = {**SEEDING, "Tohoku Middle": "bushido", "Kanto Middle": "food"}
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(solo_setup(seeding=lopsided))
    assert error.value.code == "samurai_empires.seeding_region"
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(solo_setup(seeding={**SEEDING, "Kanto North": "bushido"}))
    assert error.value.code == "samurai_empires.seeding_count"


def test_4_destiny_cards_one_per_region_are_out_before_era_1():
    destiny = ENGINE.initial_state(solo_setup())["solo"]["destiny"]
    assert destiny["drawn"] == {r: 1 for r in REGION_NAMES}
    assert destiny["deck"] == {r: 3 for r in REGION_NAMES}


@settings(max_examples=15, deadline=None)
@given(seeds)
def test_destiny_cards_come_on_schedule_and_even_ones_add_a_location_card_to_both_decks(seed):
    # before Era 1: 4 (1 per region); after Era 1: 2; after Era 2: 2; after Era 3: 1.
    # 'each time you add the 2nd, 4th or 6th destiny card ... add 1 location card of the corresponding region.'
    setup, moves = random_legal_game(seed % 10**6)
    state = replay(ENGINE, setup, moves)
    history = state["solo"]["destiny"]["history"]
    assert Counter(card["era"] for card in history) == {0: 4, 1: 2, 2: 2, 3: 1}
    drawn = state["solo"]["destiny"]["drawn"]
    for ai in state["solo"]["ais"].values():
        added = Counter(region for region, _ in ai["deck"]) - Counter({r: 2 for r in REGION_NAMES})
        assert added == Counter({r: sum(1 for k in (2, 4, 6) if drawn[r] >= k) for r in REGION_NAMES}) - Counter()


def test_an_even_destiny_card_adds_one_of_the_regions_unused_location_cards():
    state = solo_table()
    from games.engines.samurai_empires.solo_era import add_location_cards

    notes = add_location_cards(state, "Kanto")
    for ai in state["solo"]["ais"].values():
        assert Counter(r for r, _ in ai["deck"])["Kanto"] == 3 and len(ai["deck"]) == 9
        assert Counter(r for r, _ in ai["unused"])["Kanto"] == 1
    assert len(notes) == 2 and "adds the Kanto" in notes[0]


@settings(max_examples=15, deadline=None)
@given(seeds)
def test_the_deck_never_yields_a_card_twice(seed):
    setup, moves = random_legal_game(seed % 10**6)
    state = ENGINE.initial_state(setup)
    for move in moves:
        state = ENGINE.apply(state, move)
        for ai in state["solo"]["ais"].values():
            cards = [tuple(c) for c in ai["deck"] + ai["board"] + ai["unused"]]
            assert len(cards) == len(set(cards)) == 16  # each card is in the deck, on the AI board or unused


@settings(max_examples=10, deadline=None)
@given(seeds)
def test_a_seeded_solo_game_replays_identically_and_undo_takes_back_an_ai_step_exactly(seed):
    setup, moves = random_legal_game(seed % 10**6)
    states = [ENGINE.initial_state(setup)]
    for move in moves:
        states.append(ENGINE.apply(states[-1], move))
    assert replay(ENGINE, setup, moves) == states[-1]
    for cut in range(1, len(moves), 7):  # undo = the log less its last move, replayed
        undone = replay(ENGINE, setup, moves[: cut - 1])
        assert undone == states[cut - 1]
        assert ENGINE.apply(undone, moves[cut - 1]) == states[cut]


def test_the_same_seed_gives_the_same_table_and_two_seeds_two_tables():
    assert solo_table(1) == solo_table(1)
    assert ENGINE.apply(solo_table(1), STEP) == ENGINE.apply(solo_table(1), STEP)
    assert solo_table(1)["solo"]["ais"]["yellow"]["deck"] != solo_table(2)["solo"]["ais"]["yellow"]["deck"]
