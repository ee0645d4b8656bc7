"""Treasure movements, each with its reason and its limits (rulebook "Attacking Bounty", "Acquire Bounty",
"Barren", "Fortification", "Commerce", "Trade", "The Pit"); nothing ever goes below zero."""

from __future__ import annotations

from games.engines.teikoku.treasure import available_bounty
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
    total_treasure,
    with_treasure,
)


def bounty(seat: int, blood: int, **amount) -> dict:
    return {"type": "bounty", "seat": seat, "blood": blood, **amount}


def raid(seat: int, defender: int, dice: list[int], cubes: int) -> dict:
    return {"type": "raid", "seat": seat, "defender": defender, "dice": dice, "cubes": cubes}


# --- the Port ----------------------------------------------------------------------------------------------


def test_it_pays_a_bounty_up_to_the_defeated_cards_blood_value():
    """ "the player acquires a Bounty of treasure up to the Blood value of the defeated card\""""
    state = advance(new_game(THREE), "port")  # the Port holds 25
    state = ENGINE.apply(state, bounty(FUJIWARA, 7))
    assert state["treasure"][FUJIWARA] == 32 and state["port"]["treasure"] == 18
    state = ENGINE.apply(state, bounty(FUJIWARA, 7, amount=4))  # "up to": the player may take less
    assert state["treasure"][FUJIWARA] == 36
    error = refused(state, bounty(FUJIWARA, 5, amount=6))
    assert error.code == "teikoku.bounty_above_blood" and error.params == {"blood": 5, "asked": 6}


def test_it_limits_a_bounty_to_the_treasure_presently_at_the_port():
    """ "but limited to no more than the total amount of Treasure presently available at the Port\""""
    state = advance(with_treasure(new_game(FOUR), [25] * 4, port=3), "port")
    state = ENGINE.apply(state, bounty(FUJIWARA, 9))
    assert state["treasure"][FUJIWARA] == 28 and state["port"]["treasure"] == 0
    error = refused(state, bounty(FUJIWARA, 9, amount=2))
    assert error.code == "teikoku.overdraw" and error.params == {"holder": "port", "available": 0, "asked": 2}
    assert error.message == "The Port has 0 treasure available; this bounty needs 2."


def test_it_lets_a_player_attack_the_port_for_no_bounty_to_reposition_its_cards():
    """ "Players may attack cards in port with Blood even if 0 Treasure is available, as a way to reposition
    cards\""""
    state = advance(new_game(FOUR), "port")  # 4 players: the Port starts with 0
    after = ENGINE.apply(state, bounty(FUJIWARA, 6))
    assert after["treasure"] == state["treasure"] and after["decks"]["units"] == 29


def test_it_refills_the_port_row_from_the_units_deck_until_it_is_empty():
    """ "the next card from the Units deck immediately fills the right-most slot\""""
    state = advance(new_game(FOUR, units_deck=1), "port")
    state = ENGINE.apply(state, {"type": "acquire", "seat": FUJIWARA})
    assert (state["decks"]["units"], state["port_row"]) == (0, 3)
    state = play(state, *[{"type": "acquire", "seat": FUJIWARA}] * 3)
    assert state["port_row"] == 0
    assert refused(state, {"type": "acquire", "seat": FUJIWARA}).code == "teikoku.port_row_empty"
    assert refused(state, bounty(FUJIWARA, 3)).code == "teikoku.port_row_empty"


def test_it_closes_the_port_in_summer():
    """ "Summer = The Port Is Closed. Players Cannot Attack or Acquire From Port\""""
    state = advance(new_game(THREE), "port", "summer")
    seat = state["turn"]["seat"]
    assert refused(state, bounty(seat, 4)).code == "teikoku.port_closed"
    assert refused(state, {"type": "acquire", "seat": seat}).code == "teikoku.port_closed"
    hint = ENGINE.hint(state)
    assert hint["moves"] == ["end_turn"] and not hint["limits"]["bounty"]["allowed"]


def test_it_lets_players_attack_the_port_treasury_once_the_units_deck_is_empty():
    """ "If the Units deck ever becomes empty ... Players may attack the port treasury directly and take
    Treasure equal to the blood value of their attacks\""""
    state = advance(new_game(THREE), "port")
    attack = {"type": "port_attack", "seat": FUJIWARA, "blood": 6}
    assert refused(state, attack).code == "teikoku.port_defended"
    state = advance(new_game(THREE, units_deck=0), "port")
    state = ENGINE.apply(state, attack)
    assert state["treasure"][FUJIWARA] == 31 and state["port"]["treasure"] == 19
    state = ENGINE.apply(state, {**attack, "blood": 40})  # never more than the Port holds
    assert state["treasure"][FUJIWARA] == 50 and state["port"]["treasure"] == 0


def test_it_makes_treasure_paid_to_the_port_bounty_only_from_the_next_seasons_port_phase():
    """ "Players may not gain bounty from the Port until Phase 2 of the following season.\""""
    state = advance(new_game(FOUR), "commerce", seat=MINAMOTO)
    state = ENGINE.apply(state, {"type": "commerce", "seat": MINAMOTO, "deck": "ninja"})
    assert state["port"]["treasure"] == 5 and available_bounty(state) == 0
    assert ENGINE.hint(state)["port"] == {"treasure": 5, "bounty": 0, "waiting": 5}
    state = advance(state, "movement", "spring")
    assert available_bounty(state) == 0
    state = advance(state, "port", "spring")
    assert available_bounty(state) == 5
    state = ENGINE.apply(state, bounty(MINAMOTO, 8))
    assert state["treasure"][MINAMOTO] == 25


# --- War: raids ----------------------------------------------------------------------------------------------


def test_it_loots_2d6_plus_one_per_unused_battle_cube_as_in_the_rulebooks_example():
    """ "Fujiwara has 2 slotted cards on their own lands and 2 unused Battle Cubes. Fujiwara now rolls 2D6+2 with
    a total result of 10. Tokugawa loses 10 Treasure immediately and Fujiwara gains 10 Treasure immediately.\""""
    state = advance(new_game(FOUR), "war", "spring", seat=FUJIWARA)
    state = ENGINE.apply(state, raid(FUJIWARA, TOKUGAWA, [5, 3], 2))
    assert state["treasure"][FUJIWARA] == 35 and state["treasure"][TOKUGAWA] == 15
    assert "Fujiwara raids Tokugawa" in ENGINE.describe(
        advance(new_game(FOUR), "war", "spring", seat=FUJIWARA), raid(FUJIWARA, TOKUGAWA, [5, 3], 2)
    )


def test_it_lets_no_player_attack_another_in_winter():
    """ "Winter = Players Cannot Attack Any Other Players\""""
    state = advance(new_game(FOUR), "war", "winter", seat=MINAMOTO)
    assert refused(state, raid(MINAMOTO, FUJIWARA, [6, 6], 4)).code == "teikoku.winter_truce"
    assert ENGINE.hint(state)["limits"]["raid"] == {"allowed": False, "defenders": [], "cubes": [0, 4]}


def test_it_allows_raids_in_summer_when_the_port_is_closed():
    """Tokugawa's note: "during summer when the port is closed and attacks on enemies are most prevalent\""""
    state = advance(new_game(FOUR), "war", "summer", seat=TOKUGAWA)
    state = ENGINE.apply(state, raid(TOKUGAWA, TAIRA, [1, 1], 0))
    assert state["treasure"][TAIRA] == 23


def test_it_takes_no_more_than_the_defender_holds():
    """ "If a player has 3 treasure, enemies ... will receive a maximum of 3 treasure for doing so. No player or
    Port may ever have negative treasure\""""
    state = advance(with_treasure(new_game(FOUR), [25, 3, 25, 25]), "war", "spring", seat=TOKUGAWA)
    state = ENGINE.apply(state, raid(TOKUGAWA, MINAMOTO, [6, 6], 4))
    assert state["treasure"][MINAMOTO] == 0 and state["treasure"][TOKUGAWA] == 28


def test_it_allows_one_raid_on_a_treasury_per_season():
    """ "only one Player may raid the Treasury of an enemy in a season. This limits the Treasure any player can
    lose in a season to a maximum of 16\""""
    state = advance(new_game(FOUR), "war", "spring", seat=TOKUGAWA)
    state = ENGINE.apply(state, raid(TOKUGAWA, FUJIWARA, [6, 6], 4))
    assert state["treasure"][FUJIWARA] == 9
    state = advance(state, "war", "spring", seat=TAIRA)
    error = refused(state, raid(TAIRA, FUJIWARA, [2, 2], 0))
    assert error.code == "teikoku.already_raided" and error.params == {"defender": FUJIWARA}
    assert [d["seat"] for d in ENGINE.hint(state)["limits"]["raid"]["defenders"]] == [MINAMOTO, TOKUGAWA]
    state = advance(state, "war", "summer", seat=TAIRA)
    state = ENGINE.apply(state, raid(TAIRA, FUJIWARA, [2, 2], 0))  # a new season
    assert state["treasure"][FUJIWARA] == 5


def test_it_protects_a_fortified_player_with_no_card_slotted():
    """ "If a player has no cards slotted in any of their 4 land slots, that player cannot be attacked by
    enemies and is considered fortified within their castle walls.\""""
    state = advance(new_game(THREE), "war", "spring", seat=MINAMOTO)
    state = ENGINE.apply(state, {"type": "fortify", "seat": TOKUGAWA, "fortified": True})
    error = refused(state, raid(MINAMOTO, TOKUGAWA, [3, 3], 0))
    assert error.code == "teikoku.fortified" and "fortified" in error.message
    assert [d["seat"] for d in ENGINE.hint(state)["limits"]["raid"]["defenders"]] == [FUJIWARA]
    state = ENGINE.apply(state, {"type": "fortify", "seat": TOKUGAWA, "fortified": False})
    assert ENGINE.apply(state, raid(MINAMOTO, TOKUGAWA, [3, 3], 0))["treasure"][TOKUGAWA] == 19


def test_it_refuses_a_raid_on_ones_own_treasury():
    state = advance(new_game(THREE), "war", "spring", seat=MINAMOTO)
    assert refused(state, raid(MINAMOTO, MINAMOTO, [3, 3], 0)).code == "teikoku.raid_self"


# --- Commerce, Trade, the Pit ------------------------------------------------------------------------------------


def test_it_charges_5_treasure_per_special_card_paid_to_the_port():
    """ "each player may spend 5 Treasure to acquire a special card"; "Treasure spent by any player during
    Commerce is placed in the Port treasure stash\""""
    state = advance(new_game(FOUR), "commerce")
    state = ENGINE.apply(state, {"type": "commerce", "seat": FUJIWARA, "deck": "market"})
    assert state["treasure"][FUJIWARA] == 20 and state["port"]["treasure"] == 5
    assert state["decks"]["market"] == 6


def test_it_allows_at_most_2_commerce_and_trade_transactions_per_player_per_turn():
    """ "There is a hard limit of 2 Commerce and Trade transactions per player per turn. So a player may spend 10
    Treasure to acquire 2 new special cards or 5 treasure to acquire 1 new card and Trade an existing card\""""
    state = advance(new_game(FOUR), "commerce")
    state = play(
        state,
        {"type": "commerce", "seat": FUJIWARA, "deck": "market"},
        {"type": "trade", "seat": FUJIWARA, "deck": "ninja"},
    )
    assert state["treasure"][FUJIWARA] == 20 and state["decks"]["ninja"] == 6  # "No treasure is necessary"
    assert ENGINE.hint(state)["limits"]["commerce"]["transactions_left"] == 0
    for kind in ("commerce", "trade"):
        error = refused(state, {"type": kind, "seat": FUJIWARA, "deck": "yakuza"})
        assert error.code == "teikoku.transactions_used" and error.params["limit"] == 2
    state = end_turn(state)  # Minamoto's own turn: his own 2 transactions
    state = play(state, *[{"type": "commerce", "seat": MINAMOTO, "deck": "yakuza"}] * 2)
    assert state["treasure"][MINAMOTO] == 15


def test_it_refuses_commerce_a_player_cannot_pay_and_says_what_is_available():
    """ "No player or Port may ever have negative treasure\""""
    state = advance(with_treasure(new_game(FOUR), [4, 25, 25, 25]), "commerce")
    error = refused(state, {"type": "commerce", "seat": FUJIWARA, "deck": "market"})
    assert error.code == "teikoku.overdraw" and error.params == {"holder": 0, "available": 4, "asked": 5}
    assert error.message == "Fujiwara has 4 treasure available; a special card needs 5."


def test_it_charges_each_player_their_own_special_card_cost():
    state = advance(new_game(THREE, special_card_cost=[7, 5, 3]), "commerce")
    state = ENGINE.apply(state, {"type": "commerce", "seat": FUJIWARA, "deck": "market"})
    assert state["treasure"][FUJIWARA] == 18 and state["port"]["treasure"] == 32


def test_it_refuses_a_card_from_an_empty_deck():
    state = advance(new_game(TWO, special_deck_size=2, chosen_specials=["ninja", "ninja"]), "commerce")
    error = refused(state, {"type": "trade", "seat": FUJIWARA, "deck": "ninja"})
    assert error.code == "teikoku.deck_empty" and error.params == {"deck": "ninja"}
    state = ENGINE.apply(state, {"type": "commerce", "seat": FUJIWARA, "deck": "yakuza"})
    assert state["decks"]["yakuza"] == 1 and state["end"] is None
    before = state
    state = ENGINE.apply(state, {"type": "trade", "seat": FUJIWARA, "deck": "yakuza"})  # the 2nd empty deck
    assert state["end"]["termination"] == "attrition"
    # the move that ended the game still says which of the turn's two transactions it was (no turn is left after
    # it to read that from)
    phrase = ENGINE.describe_phrase(before, {"type": "trade", "seat": FUJIWARA, "deck": "yakuza"})
    assert "(transaction 2 of 2)" in phrase, phrase


def test_it_charges_2_treasure_per_card_banished_to_the_pit_paid_to_the_port():
    """ "Each card being banished costs 2 Treasure as a Pit fee, with the treasure being added to the Port
    bounty.\""""
    state = advance(new_game(FOUR), "commerce")
    state = ENGINE.apply(state, {"type": "pit_fee", "seat": FUJIWARA, "cards": 3})
    assert state["treasure"][FUJIWARA] == 19 and state["port"] == {
        "treasure": 6,
        "paid_this_season": 6,
        "paid_last_season": 0,
    }
    state = with_treasure(state, [3, 25, 25, 25], port=6)
    error = refused(state, {"type": "pit_fee", "seat": FUJIWARA, "cards": 2})
    assert error.code == "teikoku.overdraw" and error.params["available"] == 3
    assert ENGINE.hint(state)["limits"]["pit_fee"]["max_cards"] == 1


# --- card effects and corrections -------------------------------------------------------------------------------


def test_it_moves_treasure_by_a_cards_effect_with_the_cards_name():
    """ "Some cards like Tunnels that impact treasure immediately without warning\""""
    state = new_game(FOUR)
    move = {"type": "card_effect", "seat": TAIRA, "card": "Tunnels", "from": MINAMOTO, "to": TAIRA, "amount": 4}
    state = ENGINE.apply(state, move)
    assert state["treasure"] == [25, 21, 25, 29] and state["created"] == 0
    assert "Tunnels, played by Taira: 4 treasure from Minamoto to Taira." in ENGINE.describe(new_game(FOUR), move)


def test_it_counts_treasure_brought_into_or_out_of_the_game_by_effects_and_corrections():
    state = new_game(FOUR)
    total = total_treasure(state)
    state = play(
        state,
        {"type": "card_effect", "seat": FUJIWARA, "card": "Gift", "from": "supply", "to": FUJIWARA, "amount": 6},
        {"type": "correction", "seat": MINAMOTO, "from": TOKUGAWA, "to": "supply", "amount": 2, "note": "miscount"},
    )
    assert state["created"] == 4 and total_treasure(state) == total + 4


def test_it_refuses_an_effect_or_correction_that_would_overdraw_a_treasury():
    """ "No player or Port may ever have negative treasure or grant more treasure than it owns\""""
    state = new_game(FOUR)
    error = refused(state, {"type": "card_effect", "seat": 0, "card": "Tunnels", "from": 1, "to": 0, "amount": 26})
    assert error.code == "teikoku.overdraw" and error.params == {"holder": 1, "available": 25, "asked": 26}
    error = refused(state, {"type": "correction", "seat": 0, "from": "port", "to": 0, "amount": 1, "note": "x"})
    assert error.params == {"holder": "port", "available": 0, "asked": 1}
    same = refused(state, {"type": "correction", "seat": 0, "from": 2, "to": 2, "amount": 1, "note": "x"})
    assert same.code == "teikoku.same_treasury"


def test_it_makes_a_card_effects_payment_to_the_port_wait_but_not_a_correction():
    """A card effect paying the Port is a payment like commerce; a correction restates the ledger."""
    state = new_game(FOUR)
    state = play(
        state,
        {"type": "card_effect", "seat": 0, "card": "Offering", "from": 0, "to": "port", "amount": 3},
        {"type": "correction", "seat": 0, "from": "supply", "to": "port", "amount": 2, "note": "forgotten fee"},
    )
    assert state["port"]["treasure"] == 5 and available_bounty(state) == 2


def test_it_asks_a_correction_for_its_reason():
    state = new_game(FOUR)
    move = {"type": "correction", "seat": 0, "from": "supply", "to": 1, "amount": 1}
    assert refused(state, move).code == "teikoku.missing_field"
    assert refused(state, {**move, "note": "   "}).code == "teikoku.bad_text"


def test_it_takes_treasure_leaving_the_port_from_its_available_bounty_first():
    """Ruling T13: a card effect taking from the Port leaves the treasure still waiting in it."""
    state = advance(new_game(THREE), "commerce")  # the Port holds 25, all of it bounty
    state = ENGINE.apply(state, {"type": "commerce", "seat": FUJIWARA, "deck": "yakuza"})
    assert ENGINE.hint(state)["port"] == {"treasure": 30, "bounty": 25, "waiting": 5}
    state = ENGINE.apply(
        state, {"type": "card_effect", "seat": 0, "card": "Pirates", "from": "port", "to": 1, "amount": 27}
    )
    assert ENGINE.hint(state)["port"] == {"treasure": 3, "bounty": 0, "waiting": 3}


def test_it_lets_the_cards_left_in_the_port_row_be_acquired_once_the_units_deck_is_empty():
    """ "no additional units will arrive there": the cards already in the row stay until taken."""
    state = advance(new_game(THREE, units_deck=0), "port")
    state = play(state, {"type": "acquire", "seat": FUJIWARA}, bounty(FUJIWARA, 2))
    assert state["port_row"] == 1 and state["treasure"][FUJIWARA] == 27


def test_it_allows_a_raid_on_an_empty_treasury_which_takes_nothing():
    """ "In this way poverty may be an extraordinarily powerful defense.\""""
    state = advance(with_treasure(new_game(THREE), [25, 25, 0]), "war", "spring", seat=MINAMOTO)
    state = ENGINE.apply(state, raid(MINAMOTO, TOKUGAWA, [6, 5], 3))
    assert state["treasure"] == [25, 25, 0] and state["raided"] == [TOKUGAWA]


def test_it_counts_cards_leaving_a_deck_by_a_cards_effect_but_no_more_than_it_holds():
    state = new_game(FOUR)
    state = ENGINE.apply(state, {"type": "cards_leave", "seat": 2, "deck": "units", "count": 4, "note": "Storm"})
    assert state["decks"]["units"] == 26
    error = refused(state, {"type": "cards_leave", "seat": 2, "deck": "ninja", "count": 8, "note": "Storm"})
    assert error.code == "teikoku.deck_overdraw" and error.params == {"deck": "ninja", "available": 7, "asked": 8}


def test_it_charges_nothing_for_the_autumn_banish():
    """ "Autumn = Players May Banish 1 Card From Their Hand During Movement" names no Pit fee."""
    state = advance(new_game(FOUR), "movement", "autumn")
    after = ENGINE.apply(state, {"type": "banish", "seat": state["turn"]["seat"]})
    assert after["treasure"] == state["treasure"] and after["port"] == state["port"]
