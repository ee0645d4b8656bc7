"""docs/api.md's worked game is a real game: it replays through the engine to the outcome it shows."""

import json
import re
from pathlib import Path

from games.engines import get_engine
from games.engines.base import replay

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_worked_game_replays_to_its_outcome():
    text = API_MD.read_text()
    worked = text[text.index("## A complete worked game"):]
    blocks = re.findall(r"```json\n(.*?)\n```", worked, re.S)
    setup, outcome = json.loads(blocks[0]), json.loads(blocks[1])
    rows = re.findall(r"^\| (\d+) \| (.*?) \| `(.*)` \|$", worked, re.M)
    engine = get_engine("shitenno")
    state = engine.initial_state(setup)
    for seq, words, move in rows:
        move = json.loads(move)
        assert engine.describe(state, move) == words, f"move {seq}"
        state = engine.apply(state, move)
    assert state == replay(engine, setup, [json.loads(m) for _, _, m in rows])
    assert engine.outcome(state).to_json() == outcome
