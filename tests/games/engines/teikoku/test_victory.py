"""The three victories, checked after every move (rulebook "Winning The Game", "Adjusting The Game"); ties share
the victory."""

from __future__ import annotations

from tests.games.engines.teikoku.tables import (
    ENGINE,
    FOUR,
    FUJIWARA,
    MINAMOTO,
    TAIRA,
    THREE,
    TOKUGAWA,
    TWO,
    advance,
    end_turn,
    new_game,
    play,
    refused,
    with_treasure,
)


def ranks(state: dict) -> list[tuple[int, int, int, str | None]]:
    return [(p.seat, p.rank, p.score, p.tiebreak) for p in ENGINE.outcome(state).placings]


def leave(deck: str, count: int) -> dict:
    return {"type": "cards_leave", "seat": 0, "deck": deck, "count": count, "note": "Elements card"}


def test_it_ends_the_game_when_a_player_obtains_50_treasure():
    """ "1 Victory By Aggression: Be the first player to obtain 50 Treasure\""""
    state = advance(with_treasure(new_game(FOUR), [40, 30, 20, 10]), "war", "spring", seat=MINAMOTO)
    assert ENGINE.outcome(state) is None
    state = ENGINE.apply(state, {"type": "raid", "seat": MINAMOTO, "defender": TAIRA, "dice": [6, 6], "cubes": 4})
    assert state["treasure"] == [40, 40, 20, 0] and state["end"] is None  # Taira had only 10
    state = advance(state, "war", "summer", seat=FUJIWARA)
    state = ENGINE.apply(state, {"type": "raid", "seat": FUJIWARA, "defender": MINAMOTO, "dice": [5, 4], "cubes": 1})
    outcome = ENGINE.outcome(state)
    assert outcome.termination == "aggression" and outcome.details["winners"] == [FUJIWARA]
    assert ranks(state) == [(0, 1, 50, "victory by aggression"), (1, 2, 30, None), (2, 3, 20, None), (3, 4, 0, None)]
    assert ENGINE.hint(state)["over"] and ENGINE.hint(state)["moves"] == []
    assert refused(state, {"type": "end_turn", "seat": MINAMOTO}).code == "teikoku.game_over"


def test_it_lets_a_card_effect_win_by_aggression_at_once():
    """ "Some cards like Tunnels that impact treasure immediately without warning can become especially powerful
    when used to reach 50 treasure for a sudden victory.\""""
    state = with_treasure(new_game(THREE), [45, 25, 25])
    move = {"type": "card_effect", "seat": FUJIWARA, "card": "Tunnels", "from": TOKUGAWA, "to": FUJIWARA, "amount": 5}
    state_after = ENGINE.apply(state, move)
    assert state_after["end"] == {"termination": "aggression", "winners": [FUJIWARA]}
    assert ENGINE.describe(state, move).endswith("Fujiwara wins by aggression.")


def test_it_checks_each_players_own_aggression_target():
    """ "the world champion ... may need to acquire 60 treasure for victory, while the 11 year old novice may only
    be required to obtain 40 treasure to win.\""""
    state = with_treasure(new_game(THREE, aggression_target=[60, 50, 40]), [59, 25, 35])
    move = {"type": "correction", "seat": 0, "from": "supply", "to": TOKUGAWA, "amount": 5, "note": "bounty missed"}
    state = ENGINE.apply(state, move)
    assert state["end"]["winners"] == [TOKUGAWA]
    # Fujiwara holds more treasure, but the victory is Tokugawa's: the others follow by treasure
    assert ranks(state) == [(2, 1, 40, "victory by aggression"), (0, 2, 59, None), (1, 3, 25, None)]


def test_it_ends_the_game_the_moment_a_2nd_of_the_5_decks_is_empty():
    """ "When any 2 of the 5 decks becomes empty the game ends and the player with the most Treasure at that
    moment wins"; "the game ends immediately at the moment the 2nd deck is empty.\""""
    state = with_treasure(new_game(FOUR), [20, 30, 25, 29])
    state = ENGINE.apply(state, leave("market", 7))
    assert state["end"] is None and ENGINE.hint(state)["decks_to_attrition"] == 1
    state = ENGINE.apply(state, leave("yakuza", 7))
    assert ENGINE.outcome(state).termination == "attrition"
    assert ranks(state)[0] == (MINAMOTO, 1, 30, "victory by attrition")
    assert ENGINE.outcome(state).details["empty_decks"] == ["yakuza", "market"]


def test_it_counts_the_units_deck_among_the_5_decks():
    """ "There are 4 Special Decks and 1 Units Deck.\""""
    state = advance(new_game(THREE, units_deck=1), "port")
    state = ENGINE.apply(state, leave("ninja", 5))
    state = ENGINE.apply(state, {"type": "acquire", "seat": FUJIWARA})  # the last Units card fills the row
    assert state["end"]["termination"] == "attrition"


def test_it_shares_the_victory_between_players_tied_on_most_treasure():
    """The rulebook gives no tie-break: "Ties share the victory" (site ruling)."""
    state = with_treasure(new_game(FOUR), [31, 31, 20, 18])
    state = play(state, leave("elements", 7), leave("ninja", 7))
    outcome = ENGINE.outcome(state)
    assert outcome.details["shared"] and outcome.details["winners"] == [FUJIWARA, MINAMOTO]
    assert ranks(state) == [
        (0, 1, 31, "shared victory by attrition"),
        (1, 1, 31, "shared victory by attrition"),
        (2, 3, 20, None),
        (3, 4, 18, None),
    ]
    assert "Fujiwara and Minamoto share the victory by attrition." in ENGINE.describe(
        play(with_treasure(new_game(FOUR), [31, 31, 20, 18]), leave("elements", 7)), leave("ninja", 7)
    )


def test_it_checks_aggression_before_attrition_when_one_move_brings_both():
    """ "The game ends if any one of the three following victory conditions is met", in the rulebook's order:
    1 Aggression, then Attrition."""
    state = advance(with_treasure(new_game(TWO, units_deck=1), [45, 47], port=50), "port")
    state = ENGINE.apply(state, leave("ninja", 4))
    state = ENGINE.apply(state, {"type": "bounty", "seat": FUJIWARA, "blood": 5})  # refills the row: Units empty
    assert state["decks"]["units"] == 0 and state["end"] == {"termination": "aggression", "winners": [FUJIWARA]}


def test_it_ends_the_game_at_the_conclusion_of_autumn_in_year_3():
    """ "3 Victory By Longevity: Have the most treasure at the end of Year 3"; "the game ends at the conclusion
    of Autumn in Year 3 and the player with the most Treasure at that moment wins.\""""
    state = advance(with_treasure(new_game(THREE), [25, 26, 24]), "refresh", "autumn", year=3)
    for _ in range(2):
        state = end_turn(state)
    assert state["end"] is None
    state = end_turn(state)
    outcome = ENGINE.outcome(state)
    assert outcome.termination == "longevity" and outcome.details["winners"] == [MINAMOTO]
    assert (outcome.details["year"], outcome.details["season"]) == (3, "autumn")
    assert ranks(state)[0] == (MINAMOTO, 1, 26, "victory by longevity")


def test_it_plays_on_into_a_4th_year_when_agreed():
    """ "Players seeking a longer game may agree in advance to play a 4th year as well.\""""
    state = advance(new_game(TWO, years=4), "movement", "winter", year=4)
    assert state["end"] is None
    state = advance(state, "refresh", "autumn", year=4)
    state = play(state, {"type": "end_turn", "seat": state["turn"]["seat"]})
    state = end_turn(state)
    assert ENGINE.outcome(state).termination == "longevity"
    assert ENGINE.outcome(state).details["shared"]  # 25 each: a shared victory
    assert [p.rank for p in ENGINE.outcome(state).placings] == [1, 1]


def test_it_scores_each_seat_by_its_treasure():
    state = with_treasure(new_game(FOUR), [1, 2, 3, 4])
    assert ENGINE.score(state) == [1, 2, 3, 4]
