"""A hypothesis state machine throws legal, mutated and made-up moves at the engine: 100 runs of 100 steps.

It follows a complete legal game (solo or multiplayer) from the simulated table and, between its moves,
tries moves that are mutated or made up. Only the engine's own errors may escape; a refused move
leaves the state untouched; whatever the engine accepts keeps the invariants.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from games.engines.base import MoveError
from tests.games.engines.samurai_empires.tables import ENGINE, random_legal_game

REACHED: list[tuple[str, str, int]] = []  # where each run ended, to check the runs go deep
MOVE_TYPES = ["era_score", "final_score", "ai_step", "place", "pass", "resolve", "report", "fly"]
FIELDS = ["type", "era", "scores", "region", "space", "destroyed", "armies", "castles", "seat"]
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.floats(allow_nan=False, width=16),
    st.text(max_size=6),
    st.just(10**40),
    st.just("Kanto\x00"),
    st.sampled_from(["Tohoku", "Kanto", "Kanto Capital", "yellow", "blue", "attack"]),
    st.lists(
        st.one_of(
            st.dictionaries(
                st.sampled_from(["regions", "shrines", "sieges", "influence", "other"]), st.integers(-1, 9), max_size=3
            ),
            st.integers(0, 3),
        ),
        max_size=4,
    ),
    st.dictionaries(
        st.sampled_from(["Kanto Capital", "Tohoku", "yellow", "blue"]),
        st.one_of(st.integers(-1, 5), st.dictionaries(st.just("Kanto Capital"), st.integers(0, 4))),
        max_size=2,
    ),
)


class SamuraiEmpiresTable(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 10**6), mode=st.sampled_from(["solo", "multiplayer"]), players=st.integers(1, 5))
    def start(self, seed: int, mode: str, players: int) -> None:
        self.setup, self.script = random_legal_game(seed, mode, players)
        self.state = ENGINE.initial_state(self.setup)
        self.next = 0
        self.on_script = True

    def try_move(self, move: object) -> None:
        before = json.dumps(self.state, sort_keys=True)
        try:
            new = ENGINE.apply(self.state, move)
        except MoveError as error:
            assert error.message and error.code.startswith("samurai_empires.")
            assert json.dumps(self.state, sort_keys=True) == before, "a refused move changed the state"
            return
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        if self.on_script and self.next < len(self.script) and move == self.script[self.next]:
            self.next += 1
        else:
            self.on_script = False  # a made-up move was legal: the game has left the script
        self.state = new

    @precondition(lambda self: self.on_script and self.next < len(self.script))
    @rule(count=st.integers(1, 4))
    def play_the_next_legal_moves(self, count: int) -> None:
        """Up to 4 scripted moves in a step, so that runs reach the solo era ends and the final count."""
        for _ in range(count):
            if self.on_script and self.next < len(self.script):
                self.try_move(self.script[self.next])

    @precondition(lambda self: self.on_script and self.next < len(self.script))
    @rule(field=st.sampled_from(FIELDS), value=junk)
    def play_a_mutated_move(self, field: str, value: object) -> None:
        self.try_move({**self.script[self.next], field: value})

    @rule(kind=st.sampled_from(MOVE_TYPES), extra=st.dictionaries(st.sampled_from(FIELDS[1:]), junk, max_size=3))
    def play_a_made_up_move(self, kind: str, extra: dict) -> None:
        self.try_move({"type": kind, **extra})

    @invariant()
    def every_ai_army_is_on_the_map_or_in_its_supply(self) -> None:
        if self.state["mode"] == "solo":
            for ai in self.state["solo"]["ais"].values():
                assert ai["supply"] + sum(ai["armies"].values()) == 16
                assert all(1 <= n <= 3 for n in ai["armies"].values())
                assert len(ai["castles"]) <= 3 and 0 <= sum(ai["tokens"].values()) <= 8

    @invariant()
    def every_location_card_is_in_one_place(self) -> None:
        if self.state["mode"] == "solo":
            for ai in self.state["solo"]["ais"].values():
                cards = [tuple(c) for c in ai["deck"] + ai["board"] + ai["unused"]]
                assert len(cards) == len(set(cards)) == 16

    def teardown(self) -> None:
        REACHED.append((self.state["mode"], self.state["phase"], self.state["era"]))

    @invariant()
    def the_hint_and_score_agree_with_the_sheet(self) -> None:
        hint = ENGINE.hint(self.state)
        json.dumps(hint)
        scores = ENGINE.score(self.state)
        assert scores == hint["totals"][: len(scores)]
        assert (ENGINE.outcome(self.state) is None) == (self.state["phase"] != "over")


def test_the_engine_survives_legal_mutated_and_made_up_moves():
    REACHED.clear()
    run_state_machine_as_test(
        SamuraiEmpiresTable,
        settings=settings(
            max_examples=100,
            stateful_step_count=100,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        ),
    )
    # The runs went deep: some reached a solo table's later eras, some a finished game.
    assert any(mode == "solo" and era >= 2 for mode, _, era in REACHED)
    assert any(phase == "over" for _, phase, _ in REACHED)
