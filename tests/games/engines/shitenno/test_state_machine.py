"""A hypothesis state machine throws legal and illegal moves at the engine, 10,000 steps a run.

It walks a complete legal game (from the simulated table) and, between its moves, tries moves that
are mutated or made up. An illegal move must raise MoveError and leave the state untouched; whatever
the engine accepts must keep the invariants.
"""

from __future__ import annotations

import functools
import json

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engines.base import MoveError
from games.engines.shitenno.board import KAMONS_BY_PLAYERS, PROVINCES, TROOP_DECK
from games.engines.shitenno.simulation import ENGINE, random_legal_game

MOVE_TYPES = ["draw", "offer", "accept", "refuse", "split", "choose", "place", "take_card", "end_turn", "fly"]
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.text(max_size=8),
    st.sampled_from(list(PROVINCES) + list(TROOP_DECK) + ["koku", "exchange", "plus_one", "daimyo"]),
    st.lists(st.sampled_from(list(TROOP_DECK) + [1, 2, 3]), max_size=5),
)


@functools.cache
def scripted_game(seed: int, players: int) -> str:
    """The simulated table's game for (seed, players), as JSON. The derandomized runs ask for the same few seeds
    again and again (113 starts, 23 different games): each is played once and read back fresh."""
    return json.dumps(random_legal_game(seed, players))


class ShitennoTable(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
    def start(self, seed: int, players: int) -> None:
        self.setup, self.script = json.loads(scripted_game(seed, players))
        self.state = ENGINE.initial_state(self.setup)
        self.next = 0
        self.on_script = True

    def try_move(self, move: object) -> None:
        before = json.dumps(self.state, sort_keys=True)
        try:
            new = ENGINE.apply(self.state, move)
        except MoveError as error:
            assert error.message and isinstance(error.message, str)
            assert json.dumps(self.state, sort_keys=True) == before, "an illegal move changed the state"
            return
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        if move != (self.script[self.next] if self.on_script and self.next < len(self.script) else None):
            self.on_script = False  # a made-up move was legal: the game has left the script
        else:
            self.next += 1
        self.state = new

    @precondition(lambda self: self.on_script and self.next < len(self.script))
    @rule()
    def play_the_next_legal_move(self) -> None:
        self.try_move(self.script[self.next])

    @precondition(lambda self: self.on_script and self.next < len(self.script))
    @rule(
        field=st.sampled_from(
            [
                "type",
                "seat",
                "province",
                "troops",
                "kokus",
                "hierarchy",
                "lot",
                "card",
                "payment",
                "bonus",
                "next_troop",
                "golden",
            ]
        ),
        value=junk,
    )
    def play_a_mutated_move(self, field: str, value: object) -> None:
        self.try_move({**self.script[self.next], field: value})

    @rule(
        kind=st.sampled_from(MOVE_TYPES),
        seat=st.integers(-1, 4),
        extra=st.dictionaries(
            st.sampled_from(["province", "troops", "kokus", "hierarchy", "lot", "card", "payment", "golden", "lots"]),
            junk,
            max_size=3,
        ),
    )
    def play_a_made_up_move(self, kind: str, seat: int, extra: dict) -> None:
        self.try_move({"type": kind, "seat": seat, **extra})

    @invariant()
    def kamons_are_on_the_board_or_in_a_stock(self) -> None:
        n = len(self.state["generals"])
        on_board = sum(len(kamons) for kamons in self.state["board"].values())
        assert on_board + sum(self.state["stock"]) == KAMONS_BY_PLAYERS[n] * n

    @invariant()
    def favour_is_the_sum_of_its_parts(self) -> None:
        if self.state["phase"] != "over":
            parts = [s["positions"] + s["title_bonus"] for s in self.state["scored"]]
            assert ENGINE.score(self.state) == parts

    @invariant()
    def hands_hold_no_negative_counts(self) -> None:
        for hand in self.state["hands"]:
            assert hand["hidden"] >= 0
            assert all(n > 0 for n in hand["troops"].values())
            assert all(n >= 0 for n in hand["tiles"].values())


ShitennoTable.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=100,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_engine_survives_random_moves = ShitennoTable.TestCase
