"""The era-by-era score sheet of a multiplayer table, read against the rulebook's era end and game end.

'ERA END ... 2. Count and add influence. 3. Count and add points (From Regions and Shrines).'
'After the Third Era ends ... players will calculate final Influence points and gain points from
resources they possess. The player with the most points wins the game. In case of a tie, the player
with the least resources wins.'
"""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove, InvalidMove
from tests.games.engines.samurai_empires.tables import (
    ENGINE,
    era,
    final,
    influence,
    multiplayer,
    play,
)

NOTHING = {}


def three_eras(*eras: list[dict]) -> dict:
    state = ENGINE.initial_state(multiplayer(len(eras[0])))
    for n, scores in enumerate(eras, start=1):
        state = play(state, era(n, scores))
    return state


def scored_then_blank(scores: list[dict]) -> dict:
    """Era 1 scored as given, eras 2 and 3 with nothing: the sheet then waits for the final count."""
    return three_eras(scores, [NOTHING] * len(scores), [NOTHING] * len(scores))


def finals(*resources: tuple[int, int], position: int = 0) -> dict:
    return final(
        [
            {"influence": influence(position), "resources": {"bushido": b, "food": f}, "resource_points": 0}
            for b, f in resources
        ]
    )


def test_it_scores_a_region_at_the_value_the_club_entered_for_the_place_taken():
    state = play(
        ENGINE.initial_state(multiplayer(3)),
        era(1, [{"regions": {"Tohoku": 1, "Kanto": 2}}, {"regions": {"Tohoku": 2, "Kanto": 1}}, NOTHING]),
    )
    row = state["sheet"]["eras"][0]
    assert [r["region_points"] for r in row] == [6 + 3, 3 + 6, 0]
    assert ENGINE.score(state) == [9, 9, 0]


def test_it_gives_1_vp_for_each_archer_besieging_an_opponents_castle_at_each_era_end():
    # 'If an Archer is besieging an opponent's Castle, their owner gains 1 VP at the end of each era.'
    besieging = {"trained": {"archers": 2}, "sieges": 2}
    state = three_eras([besieging, NOTHING, NOTHING], [besieging, NOTHING, NOTHING], [besieging] + [NOTHING] * 2)
    assert ENGINE.score(state) == [6, 0, 0]


def test_it_adds_shrine_points_and_other_points_with_their_note():
    entry = {"shrines": 3, "other": [{"points": 2, "note": "destiny card"}, {"points": -1, "note": "penalty"}]}
    state = play(ENGINE.initial_state(multiplayer(2)), era(1, [entry, NOTHING]))
    assert ENGINE.score(state) == [4, 0]
    assert state["sheet"]["eras"][0][0]["other"][0]["note"] == "destiny card"


def test_it_keeps_a_running_total_and_adds_final_influence_and_resources_after_era_3():
    first = {"regions": {"Tohoku": 1}}  # 6
    state = three_eras([first, NOTHING], [first, {"shrines": 1}], [NOTHING, {"regions": {"Kansai": 3}}])
    assert ENGINE.score(state) == [12, 2]
    assert state["phase"] == "final_score"
    # Influence position 3 in every region: 4 points each from the club's table [0, 1, 2, 4, 7].
    state = play(
        state,
        final(
            [
                {"influence": influence(3), "resources": {"bushido": 2, "food": 1}, "resource_points": 1},
                {"influence": influence(0), "resources": {"bushido": 0, "food": 0}, "resource_points": 0},
            ]
        ),
    )
    assert ENGINE.score(state) == [12 + 16 + 1, 2]
    row = ENGINE.outcome(state).details["breakdown"][0]
    assert row["eras"] == [6, 6, 0] and row["influence_points"] == 16 and row["resource_points"] == 1


def test_it_sets_the_next_turn_order_lowest_score_first():
    # 'the player with the least amount of points will go first during the next era. The player with the
    # next lowest score second, and so on.'
    state = play(ENGINE.initial_state(multiplayer(3)), era(1, [{"shrines": 5}, {"shrines": 1}, {"shrines": 3}]))
    assert state["turn_order"] == [1, 2, 0]
    assert ENGINE.hint(state)["turn_order"] == [1, 2, 0]
    state = play(state, era(2, [NOTHING, {"shrines": 9}, NOTHING]))  # totals 5, 10, 3
    assert state["turn_order"] == [2, 0, 1]
    assert state["orders"] == [[0, 1, 2], [1, 2, 0]]


def test_it_keeps_the_previous_order_between_equal_scores():
    # The rulebook does not break ties in the turn order: the site keeps the era's order (ruling S4).
    state = play(ENGINE.initial_state(multiplayer(3, turn_order=[2, 0, 1])), era(1, [NOTHING] * 3))
    assert state["turn_order"] == [2, 0, 1]


def test_it_refuses_a_first_turn_order_that_misses_a_seat():
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(multiplayer(3, turn_order=[0, 0, 1]))
    assert error.value.code == "samurai_empires.turn_order"


def test_the_player_with_the_most_points_wins():
    state = play(scored_then_blank([{"shrines": 2}, {"shrines": 1}]), finals((0, 0), (0, 0)))
    outcome = ENGINE.outcome(state)
    assert [(p.seat, p.rank, p.score, p.tiebreak) for p in outcome.placings] == [(0, 1, 2, None), (1, 2, 1, None)]
    assert outcome.details["explanation"] == "Seat 0 wins with 2 points."


def test_a_tie_goes_to_the_player_with_the_least_resources():
    # 'In case of a tie, the player with the least resources wins.'
    state = play(scored_then_blank([{"shrines": 2}, {"shrines": 2}, {"shrines": 1}]), finals((2, 1), (1, 1), (0, 0)))
    placings = ENGINE.outcome(state).placings
    assert [(p.seat, p.rank, p.tiebreak) for p in placings] == [
        (1, 1, "fewest resources"),
        (0, 2, "fewest resources"),
        (2, 3, None),
    ]
    assert "fewest resources" in ENGINE.outcome(state).details["explanation"]


def test_a_tie_on_points_and_resources_is_shared():
    state = play(scored_then_blank([{"shrines": 2}, {"shrines": 2}, {"shrines": 3}]), finals((1, 1), (2, 0), (5, 5)))
    placings = ENGINE.outcome(state).placings
    assert [(p.seat, p.rank) for p in placings] == [(2, 1), (0, 2), (1, 2)]
    assert placings[1].tiebreak == placings[2].tiebreak == "tie shared: same points and same resources"


def test_a_shared_win_is_explained():
    state = play(scored_then_blank([NOTHING, NOTHING]), finals((1, 0), (0, 1)))
    outcome = ENGINE.outcome(state)
    assert [p.rank for p in outcome.placings] == [1, 1]
    assert "share the win" in outcome.details["explanation"]


def test_it_refuses_a_place_the_region_does_not_print():
    with pytest.raises(InvalidMove) as error:
        play(ENGINE.initial_state(multiplayer(2)), era(1, [{"regions": {"Tohoku": 4}}, NOTHING]))
    assert error.value.code == "samurai_empires.out_of_range"


def test_it_refuses_a_region_not_on_the_board():
    with pytest.raises(InvalidMove) as error:
        play(ENGINE.initial_state(multiplayer(2)), era(1, [{"regions": {"Kyushu": 1}}, NOTHING]))
    assert error.value.code == "samurai_empires.unknown_field"


def test_archers_come_with_the_training_grounds():
    setup = multiplayer(2)
    setup["players"] = [{"name": "Aiko"}, {"name": "Ren"}]
    with pytest.raises(IllegalMove) as error:
        play(ENGINE.initial_state(setup), era(1, [{"sieges": 1}, NOTHING]))
    assert error.value.code == "samurai_empires.no_archers"


def test_it_refuses_more_besieging_archers_than_trained():
    with pytest.raises(IllegalMove) as error:
        play(ENGINE.initial_state(multiplayer(2)), era(1, [{"trained": {"archers": 1}, "sieges": 2}, NOTHING]))
    assert error.value.code == "samurai_empires.sieges_over_archers"
    with pytest.raises(InvalidMove):  # '15 Archer Meeples (3 per player)'
        play(ENGINE.initial_state(multiplayer(3)), era(1, [{"sieges": 4}, NOTHING, NOTHING]))


def test_five_players_need_the_new_region():
    # 'When playing with 5 players you must use the New Region components.'
    setup = multiplayer(5)
    assert len(ENGINE.initial_state(setup)["board"]["regions"]) == 5
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state({**setup, "board": multiplayer(4)["board"]})
    assert error.value.code == "samurai_empires.new_region_needed"


def test_it_shows_each_players_training_ground_abilities():
    hint = ENGINE.hint(ENGINE.initial_state(multiplayer(2)))
    assert hint["parties"][0]["abilities"]["elite"] == "Immediately move your Elite up to 2 spaces."
    assert hint["parties"][1]["abilities"]["general"] == "Destroy all opponent Armies in a province in this region."


def test_two_players_cannot_share_a_training_ground():
    setup = multiplayer(2)
    setup["players"] = [{"name": "Aiko", "training_ground": 2}, {"name": "Ren", "training_ground": 2}]
    with pytest.raises(IllegalMove):
        ENGINE.initial_state(setup)


def test_it_scores_eras_in_order_and_the_final_count_only_after_era_3():
    state = ENGINE.initial_state(multiplayer(2))
    with pytest.raises(IllegalMove) as error:
        play(state, era(2, [NOTHING, NOTHING]))
    assert error.value.code == "samurai_empires.wrong_era"
    with pytest.raises(IllegalMove) as error:
        play(state, finals((0, 0), (0, 0)))
    assert error.value.code == "samurai_empires.not_now"
    over = play(scored_then_blank([NOTHING, NOTHING]), finals((0, 0), (0, 0)))
    with pytest.raises(IllegalMove) as error:
        play(over, era(3, [NOTHING, NOTHING]))
    assert error.value.code == "samurai_empires.game_over"


def test_it_needs_every_regions_final_influence():
    with pytest.raises(InvalidMove) as error:
        play(
            scored_then_blank([NOTHING]),
            final([{"influence": {"Tohoku": 1}, "resources": {"bushido": 0, "food": 0}, "resource_points": 0}]),
        )
    assert error.value.code == "samurai_empires.missing_field"


def test_it_describes_an_era_and_its_new_turn_order():
    state = ENGINE.initial_state(multiplayer(2))
    words = ENGINE.describe(state, era(1, [{"shrines": 2}, NOTHING]))
    assert words == "Era 1 — Era 1 scored: Aiko 2, Ren 0. Turn order for era 2: Ren, Aiko."
