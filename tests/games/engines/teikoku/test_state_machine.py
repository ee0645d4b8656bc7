"""A hypothesis state machine throws legal and illegal moves at the engine: up to 120 runs of up to 100 steps.

Hypothesis ends some runs early, so the budget is set above 10,000 to play at least 10,000 steps a test run.
Each step plays a legal move the random table chooses through hint(), or that move with one field spoiled, or a
made-up move. Only IllegalMove or InvalidMove may escape apply(); a refused move leaves the state untouched, and
whatever the engine accepts keeps the invariants.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engines.base import IllegalMove, InvalidMove
from games.engines.teikoku.moves import MOVES
from games.engines.teikoku.random_game import ENGINE, anytime_move, random_setup, turn_move
from games.engines.teikoku.rules import DECKS

FIELDS = [
    "type",
    "seat",
    "blood",
    "amount",
    "defender",
    "dice",
    "cubes",
    "rolled_by",
    "deck",
    "cards",
    "card",
    "from",
    "to",
    "note",
    "count",
    "fortified",
]
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.sampled_from([*DECKS, "port", "supply", "table", "site", "\x00", "eta", 10**30, -(10**30)]),
    st.lists(st.integers(-1, 7), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


class TeikokuTable(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
    def start(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.state = ENGINE.initial_state(random_setup(self.rng, players))
        self.start_total = self.total()
        self.accepted = self.refused = 0

    def total(self) -> int:
        return sum(self.state["treasure"]) + self.state["port"]["treasure"]

    def legal_move(self) -> dict:
        hint = ENGINE.hint(self.state)
        chooser = anytime_move if self.rng.random() < 0.1 else turn_move
        return chooser(self.rng, self.state, hint)

    def try_move(self, move: object) -> None:
        before = json.dumps(self.state, sort_keys=True)
        try:
            new = ENGINE.apply(self.state, move)
        except (IllegalMove, InvalidMove) as error:  # anything else escapes and fails the test
            assert error.message and error.code.startswith("teikoku.")
            json.dumps(error.params)  # the site can send them as they are
            assert json.dumps(self.state, sort_keys=True) == before, "a refused move changed the state"
            self.refused += 1
            return
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        assert ENGINE.describe(self.state, move, checked=True)
        self.state = new
        self.accepted += 1

    @precondition(lambda self: self.state["end"] is None)
    @rule()
    def play_a_legal_move(self) -> None:
        move = self.legal_move()
        before = self.state
        self.try_move(move)
        assert self.state is not before, f"a legal move was refused: {move}"

    @precondition(lambda self: self.state["end"] is None)
    @rule(field=st.sampled_from(FIELDS), value=junk)
    def play_a_spoiled_move(self, field: str, value: object) -> None:
        self.try_move({**self.legal_move(), field: value})

    @precondition(lambda self: self.state["end"] is None)
    @rule(field=st.sampled_from(FIELDS))
    def play_a_move_missing_a_field(self, field: str) -> None:
        self.try_move({k: v for k, v in self.legal_move().items() if k != field})

    @rule(
        kind=st.sampled_from([*MOVES, "duel"]),
        seat=st.integers(-1, 4),
        extra=st.dictionaries(st.sampled_from(FIELDS[2:]), junk, max_size=4),
    )
    def play_a_made_up_move(self, kind: str, seat: int, extra: dict) -> None:
        self.try_move({"type": kind, "seat": seat, **extra})

    @invariant()
    def treasure_is_conserved_but_for_effects_and_corrections(self) -> None:
        assert self.total() == self.start_total + self.state["created"]

    @invariant()
    def nothing_goes_below_zero(self) -> None:
        assert min(self.state["treasure"]) >= 0 and self.state["port"]["treasure"] >= 0
        assert min(self.state["decks"].values()) >= 0
        port = self.state["port"]
        assert port["paid_this_season"] + port["paid_last_season"] <= port["treasure"]

    @invariant()
    def the_game_is_over_or_someone_is_on_turn(self) -> None:
        if self.state["end"] is None:
            assert 0 <= self.state["turn"]["seat"] < len(self.state["clans"])
            assert self.state["turn"]["transactions"] <= 2
        else:
            assert ENGINE.outcome(self.state).placings[0].rank == 1


TeikokuTable.TestCase.settings = settings(
    max_examples=120,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_engine_survives_random_moves = TeikokuTable.TestCase
