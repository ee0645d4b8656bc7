"""What the site makes each AI do, read against the rulebook's 'Turn actions for the AI's' and 'ACTIONS OVERVIEW'.

The table is seeded from SEEDING (each region: North, Middle, South resource slots) and every region's
spaces, top to bottom, carry the neutral actions attack, harvest, recruit, move.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalMove
from games.engines.samurai_empires import solo_era
from games.engines.samurai_empires.solo_actions import token_action
from tests.games.engines.samurai_empires.tables import (
    BLUE,
    ENGINE,
    PLAYER,
    STEP,
    YELLOW,
    play,
    solo_table,
    stack_deck,
)


def token(party: int, round_: int = 1) -> dict:
    return {"party": party, "card": None, "round": round_, "action": None}


def round_two(state: dict, kanto: list[list[dict]]) -> dict:
    """The table in round 2's planning, with Kanto's spaces (top to bottom) as given."""
    state["solo"].update(round=2, placed=[0, 0, 0])
    state["solo"]["spaces"]["Kanto"] = kanto
    return state


def yellow(state: dict) -> dict:
    return state["solo"]["ais"]["yellow"]


def test_round_1_places_on_the_bottom_most_free_space_of_the_cards_region_and_recruits():
    # 'Draw one Location card ... place it on the bottom-most available space of the region ... Then, flip the
    # card and recruit one Army for each of the province/s matching the Location card.'
    state = play(stack_deck(solo_table(), "yellow", ("Kanto", "capital")), STEP)
    assert [len(stack) for stack in state["solo"]["spaces"]["Kanto"]] == [0, 0, 0, 1]
    assert yellow(state)["armies"] == {"Kanto Capital": 1} and yellow(state)["board"] == [["Kanto", "capital"]]
    assert state["last"].startswith("Yellow AI draws Kanto Capital and places a face-down token on space 4 of Kanto")
    state = play(stack_deck(state, "blue", ("Kanto", "shrine")), STEP)
    assert [len(stack) for stack in state["solo"]["spaces"]["Kanto"]] == [0, 0, 1, 1]


def test_a_full_region_makes_the_ai_draw_again_and_the_unused_cards_go_to_the_bottom():
    # 'If the AI cannot place a token to a particular region (i.e., the region is full), draw a card until there
    # is a free space ... The card/s that are unused are placed on the bottom of the deck.'
    state = stack_deck(solo_table(), "yellow", ("Kanto", "capital"), ("Kanto", "shrine"), ("Tohoku", "food"))
    state["solo"]["spaces"]["Kanto"] = [[token(PLAYER)] for _ in range(4)]
    state = play(state, STEP)
    assert len(state["solo"]["spaces"]["Tohoku"][3]) == 1
    assert yellow(state)["deck"][-2:] == [["Kanto", "capital"], ["Kanto", "shrine"]]
    assert len(yellow(state)["deck"]) == 7


def test_it_recruits_only_on_the_empty_matching_provinces():
    # 'If the AI has an Army only on one of the matching provinces, it still recruits an Army on the empty ones.'
    state = stack_deck(solo_table(), "yellow", ("Tohoku", "bushido"))  # Tohoku North and South
    yellow(state)["armies"] = {"Tohoku North": 2}
    state = play(state, STEP)
    assert yellow(state)["armies"] == {"Tohoku North": 2, "Tohoku South": 1}


def test_with_armies_on_every_matching_province_it_does_the_neutral_action_beside_its_token():
    # 'If the AI has any number of Armies present on all corresponding provinces, the AI does the neutral action
    # next to it's token.' Space 4 (bottom) carries Move: 'Gain 1 VP.'
    state = stack_deck(solo_table(), "yellow", ("Kanto", "capital"))
    yellow(state)["armies"] = {"Kanto Capital": 1}
    state = play(state, STEP)
    assert yellow(state)["armies"] == {"Kanto Capital": 1} and yellow(state)["points"] == 1
    assert "neutral action: it gains 1 VP (Move)" in state["last"]


def test_round_2_takes_the_top_most_empty_space_first():
    # 'places a token on the topmost available region ... its priority is empty space > enemy token > own token.'
    state = round_two(stack_deck(solo_table(), "yellow", ("Kanto", "shrine")), [[token(YELLOW)], [], [token(BLUE)], []])
    state = play(state, STEP)
    assert [len(stack) for stack in state["solo"]["spaces"]["Kanto"]] == [1, 1, 1, 0]
    assert state["solo"]["covered"] == []


def ai_moves_first(state: dict, ai: int) -> dict:
    """The same table with this AI first in the turn order, so the next AI step is its own."""
    state["turn_order"] = [ai] + [p for p in state["turn_order"] if p != ai]
    return state


AI_NAMES = {YELLOW: "yellow", BLUE: "blue"}


@pytest.mark.parametrize("ai", [YELLOW, BLUE])
@pytest.mark.parametrize("enemy", ["the player", "the other AI"])
def test_round_2_leaves_an_enemy_token_above_an_empty_space_uncovered(ai, enemy):
    # The outside reproduction: a lone enemy token on space 1, space 2 empty, the AI's own token on space 3.
    # 'its priority is empty space > enemy token > own token': space 2, covering nothing.
    foe = PLAYER if enemy == "the player" else ({YELLOW, BLUE} - {ai}).pop()
    state = round_two(stack_deck(solo_table(), AI_NAMES[ai], ("Kanto", "shrine")), [[token(foe)], [], [token(ai)], []])
    state = play(ai_moves_first(state, ai), STEP)
    kanto = state["solo"]["spaces"]["Kanto"]
    assert [[t["party"] for t in stack] for stack in kanto] == [[foe], [ai], [ai], []]
    assert state["solo"]["covered"] == []
    assert "space 2 of Kanto" in state["last"]


SPACE = st.one_of(
    st.just([]),
    st.sampled_from([PLAYER, YELLOW, BLUE]).map(lambda p: [token(p)]),
    st.tuples(st.sampled_from([PLAYER, YELLOW, BLUE]), st.sampled_from([PLAYER, YELLOW, BLUE])).map(
        lambda two: [token(two[0]), token(two[1], 2)]
    ),
)
SOLO_TABLE = solo_table()


@settings(max_examples=150, deadline=None)
@given(
    kanto=st.lists(SPACE, min_size=4, max_size=4),
    ai=st.sampled_from([YELLOW, BLUE]),
    covered=st.lists(st.sampled_from([PLAYER, YELLOW, BLUE]), unique=True, max_size=3),
)
def test_in_round_2_an_ai_never_covers_while_its_region_has_an_empty_space(kanto, ai, covered):
    state = round_two(stack_deck(SOLO_TABLE, AI_NAMES[ai], ("Kanto", "shrine")), kanto)
    state["solo"]["covered"] = list(covered)
    before = [[t["party"] for t in stack] for stack in kanto]
    state = play(ai_moves_first(state, ai), STEP)
    after = [[t["party"] for t in stack] for stack in state["solo"]["spaces"]["Kanto"]]
    if [] in before:
        top_most_empty = before.index([])
        assert after == [[ai] if i == top_most_empty else stack for i, stack in enumerate(before)]
        assert state["solo"]["covered"] == list(covered)
    else:
        changed = [i for i in range(4) if after[i] != before[i]]
        assert len(changed) <= 1  # a cover, or no room in Kanto (then the token went elsewhere)


def test_round_2_covers_an_enemy_token_before_its_own_and_pays_nothing():
    full = [[token(YELLOW)], [token(PLAYER)], [token(BLUE)], [token(YELLOW)]]
    state = play(round_two(stack_deck(solo_table(), "yellow", ("Kanto", "shrine")), full), STEP)
    assert state["solo"]["spaces"]["Kanto"][1][-1]["party"] == YELLOW  # the top-most enemy token: the player's
    assert state["solo"]["covered"] == [PLAYER]


def test_each_partys_tokens_are_covered_at_most_once_an_era():
    # 'only one token for each AI and player can be covered during this era' (ruling: once per party).
    full = [[token(YELLOW)], [token(PLAYER)], [token(BLUE)], [token(YELLOW)]]
    state = round_two(stack_deck(solo_table(), "yellow", ("Kanto", "shrine")), full)
    state["solo"]["covered"] = [PLAYER]
    after = play(state, STEP)
    assert after["solo"]["spaces"]["Kanto"][2][-1]["party"] == YELLOW  # blue's token, the next enemy
    state["solo"]["covered"] = [PLAYER, BLUE]
    after = play(state, STEP)
    assert len(after["solo"]["spaces"]["Kanto"][0]) == 2  # only its own tokens are left: the top-most
    state["solo"]["covered"] = [PLAYER, BLUE, YELLOW]
    after = play(stack_deck(state, "yellow", ("Kanto", "shrine"), ("Chubu", "capital")), STEP)
    assert len(after["solo"]["spaces"]["Chubu"][0]) == 1  # Kanto has no room: it draws again


def test_the_player_pays_1_bushido_for_the_first_cover_and_2_for_the_second():
    state = round_two(solo_table(), [[token(YELLOW)], [token(BLUE)], [], []])
    state["solo"]["placed"] = [0, 1, 1]  # both AIs have placed: the player's turn
    state = play(state, {"type": "place", "region": "Kanto", "space": 1})
    assert "paying 1 Bushido to cover Yellow AI's token" in state["last"]
    state["solo"]["placed"] = [1, 2, 2]  # both AIs placed their second token: the player again
    state = play(state, {"type": "place", "region": "Kanto", "space": 2})
    assert "paying 2 Bushido to cover Blue AI's token" in state["last"]
    assert ENGINE.hint(state)["solo"]["next_cover_cost"] is None


def test_the_player_cannot_cover_a_party_covered_already_this_era():
    state = round_two(solo_table(), [[token(YELLOW)], [token(YELLOW)], [], []])
    state["solo"].update(placed=[0, 1, 1], covered=[YELLOW])
    with pytest.raises(IllegalMove) as error:
        play(state, {"type": "place", "region": "Kanto", "space": 2})
    assert error.value.code == "samurai_empires.cannot_cover"


def test_round_1_resolves_bottom_up_south_to_north_and_round_2_top_down():
    # 'Resolve Order tokens from bottom upwards (South to North).' / 'from top downwards (North to South).'
    state = solo_table()
    for name in ("Tohoku", "Kansai"):
        state["solo"]["spaces"][name] = [[token(PLAYER)], [], [token(PLAYER)], []]
    solo_era.start_resolution(state)
    assert state["solo"]["queue"] == [["Kansai", 2], ["Kansai", 0], ["Tohoku", 2], ["Tohoku", 0]]
    state["solo"]["round"] = 2
    for name in ("Tohoku", "Kansai"):
        state["solo"]["spaces"][name] = [[token(PLAYER, 2)], [], [token(PLAYER, 1), token(YELLOW, 2)], []]
    solo_era.start_resolution(state)
    assert state["solo"]["queue"] == [["Tohoku", 0], ["Tohoku", 2], ["Kansai", 0], ["Kansai", 2]]


def test_an_attack_hits_the_enemy_with_most_armies_and_a_tie_hits_the_player():
    # 'The AI wants to attack the enemy that has the most Armies in the targeted province. In a case of a tie, the
    # AI prioritizes the player'; 'If the attack is happening in one province (ex. Capital), destroy two Armies.'
    state = solo_table()
    yellow(state)["armies"] = {"Kanto Capital": 1}
    state["solo"]["ais"]["blue"]["armies"] = {"Kanto Capital": 2}
    words = token_action(state, YELLOW, ["Kanto", "capital"], "attack")
    assert state["solo"]["player"]["armies"]["Kanto Capital"] == 1  # the tie (2 and 2): the player first
    assert state["solo"]["ais"]["blue"]["armies"] == {"Kanto Capital": 1}  # then blue's 2 against the player's 1
    assert words == (
        "it attacks and destroys 1 of Aiko's Armies in Kanto Capital, 1 of Blue AI's Armies in Kanto Capital"
    )


def test_an_attack_on_several_provinces_destroys_one_army_in_each():
    state = solo_table()
    yellow(state)["armies"] = {"Tohoku North": 1, "Tohoku South": 1}
    state["solo"]["ais"]["blue"]["armies"] = {"Tohoku North": 1}
    state["solo"]["player"]["armies"] = {"Tohoku South": 3}
    token_action(state, YELLOW, ["Tohoku", "bushido"], "attack")
    assert state["solo"]["ais"]["blue"]["armies"] == {} and state["solo"]["player"]["armies"] == {"Tohoku South": 2}


def test_harvest_gives_resources_a_vp_for_a_shrine_and_influence_for_a_capital():
    state = solo_table()
    yellow(state)["armies"] = {"Tohoku North": 1, "Tohoku South": 1, "Tohoku Shrine": 1, "Tohoku Capital": 1}
    for location in ("bushido", "shrine", "capital"):
        token_action(state, YELLOW, ["Tohoku", location], "harvest")
    assert yellow(state)["resources"] == {"bushido": 2, "food": 0}
    assert yellow(state)["points"] == 1 and yellow(state)["influence"]["Tohoku"] == 1


def test_a_recruit_token_puts_2_armies_in_a_single_province_but_never_more_than_3():
    # 'If the card is corresponding with 1 province, recruit 2 Armies in that one.' 'The maximum limit of Armies in
    # one province is 3 for the AI.'
    state = solo_table()
    token_action(state, YELLOW, ["Kanto", "capital"], "recruit")
    assert yellow(state)["armies"] == {"Kanto Capital": 2}
    token_action(state, YELLOW, ["Kanto", "capital"], "recruit")
    assert yellow(state)["armies"] == {"Kanto Capital": 3} and yellow(state)["supply"] == 13


def test_the_last_army_of_the_supply_goes_to_the_southern_most_province():
    # 'If the AI has only 1 Army left to recruit from the supply ... put the last Army on the southern-most location'
    state = solo_table()
    yellow(state)["supply"] = 1
    token_action(state, YELLOW, ["Tohoku", "bushido"], "recruit")
    assert yellow(state)["armies"] == {"Tohoku South": 1} and yellow(state)["supply"] == 0


def test_a_castle_goes_to_the_southern_most_free_province_never_a_capital_and_one_per_region():
    # 'choose the location that is southern-most ... cannot build in the Capital nor ... in a region that already
    # contains a Castle from the same AI.'
    state = solo_table()
    yellow(state)["armies"] = {"Tohoku North": 1, "Tohoku South": 2, "Tohoku Capital": 1}
    state["solo"]["player"]["castles"] = ["Tohoku South"]  # 'cannot build a Castle in a province that already
    token_action(state, YELLOW, ["Tohoku", "bushido"], "castle")  # contains another Castle'
    assert yellow(state)["castles"] == ["Tohoku North"] and "Tohoku North" not in yellow(state)["armies"]
    assert token_action(state, YELLOW, ["Tohoku", "bushido"], "castle") == "it has nowhere to build a Castle"
    assert token_action(state, YELLOW, ["Kanto", "capital"], "castle") == "it has nowhere to build a Castle"


def test_era_end_culls_all_but_one_army_of_each_ai_per_province():
    # '5. Cull the whole map. Remove all but one AI's Armies (Each Ai) in every province.'
    state = solo_table()
    yellow(state).update(armies={"Kanto Capital": 3, "Tohoku North": 1}, supply=12)
    solo_era.end_era(state)
    assert yellow(state)["armies"] == {"Kanto Capital": 1, "Tohoku North": 1} and yellow(state)["supply"] == 14
    assert yellow(state)["board"] == [] and sum(yellow(state)["tokens"].values()) == 8


def test_the_ai_reveals_its_token_when_it_resolves():
    state = play(stack_deck(solo_table(), "yellow", ("Kanto", "capital")), STEP)
    assert state["solo"]["spaces"]["Kanto"][3][0]["action"] is None  # face down while planning
    assert "reveals" not in state["last"]


def test_an_ai_cannot_recruit_in_its_besieged_castle():
    # 'Besieged Castles are Castles containing at least 1 enemy Army in their province. You cannot recruit Armies
    # in Besieged Castles.'
    state = solo_table()
    yellow(state).update(castles=["Tohoku North"])
    state["solo"]["player"]["armies"] = {"Tohoku North": 1}
    token_action(state, YELLOW, ["Tohoku", "bushido"], "recruit")
    assert yellow(state)["armies"] == {"Tohoku South": 1}
    state["solo"]["player"]["armies"] = {}
    token_action(state, YELLOW, ["Tohoku", "bushido"], "recruit")
    assert yellow(state)["armies"] == {"Tohoku North": 1, "Tohoku South": 2}


def test_an_ai_with_no_region_free_places_nothing_and_keeps_its_deck_in_order():
    state = round_two(solo_table(), [[token(PLAYER, 1), token(BLUE, 2)]] * 4)
    for name in ("Tohoku", "Chubu", "Kansai"):
        state["solo"]["spaces"][name] = [[token(PLAYER, 1), token(BLUE, 2)]] * 4
    deck = list(yellow(state)["deck"])
    after = play(state, STEP)
    assert yellow(after)["deck"] == deck and after["solo"]["placed"][YELLOW] == 1
    assert after["last"] == "Yellow AI has no card whose region has room for a token, and places none."


def test_the_player_passes_only_when_no_space_can_take_a_token():
    state = round_two(solo_table(), [[], [], [], []])
    state["solo"]["placed"] = [0, 1, 1]
    with pytest.raises(IllegalMove) as error:
        play(state, {"type": "pass"})
    assert error.value.code == "samurai_empires.not_now"
    for name in ("Tohoku", "Kanto", "Chubu", "Kansai"):
        state["solo"]["spaces"][name] = [[token(YELLOW, 1), token(BLUE, 2)]] * 4
    assert "pass" in ENGINE.hint(state)["moves"]
    assert play(state, {"type": "pass"})["solo"]["placed"] == [1, 1, 1]
