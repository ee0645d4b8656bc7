"""docs/api.md's Teikoku worked game, read from the document itself so the text and the tests cannot drift."""

from __future__ import annotations

import json
import re
from pathlib import Path

API_MD = Path(__file__).resolve().parents[3] / "docs" / "api.md"
START = "## Teikoku at the table"


def worked_game() -> tuple[dict, list[tuple[int, str, dict]], dict]:
    """(set-up, [(seq, description, move)], outcome) as docs/api.md's Teikoku section gives them."""
    text = API_MD.read_text()
    start = text.index(START)
    section = text[start : text.index("\n## ", start)]  # up to the next section
    blocks = re.findall(r"```json\n(.*?)\n```", section, re.S)
    rows = re.findall(r"^\| (\d+) \| (.*?) \| `(.*)` \|$", section, re.M)
    return (
        json.loads(blocks[0]),
        [(int(seq), words, json.loads(move)) for seq, words, move in rows],
        json.loads(blocks[1]),
    )
