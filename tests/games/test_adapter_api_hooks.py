"""The API's game-specific parts come from the adapters (issue 28 section 1): the schema's request examples are
each game's own, and the deprecated `favour` name of the score is Shitennō's adapter's (`api_score_alias`), still
documented and still on every table's answer (null for the other games), as old clients read it."""

from __future__ import annotations

import pytest

from games.plugins import all_games, get_game

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        return Client().get("/api/schema/?format=json").json()


def _examples(schema: dict, path: str) -> dict:
    return schema["paths"][path]["post"]["requestBody"]["content"]["application/json"].get("examples", {})


def test_every_adapters_examples_are_in_the_schema_and_only_theirs(schema):
    moves = _examples(schema, "/api/tables/{code}/moves/")
    wanted = {name for game in all_games() for name, _ in game.api_move_examples}
    assert wanted and len(moves) == len(wanted)
    assert all(any(example["summary"].endswith(name) for example in moves.values()) for name in wanted)
    setups = _examples(schema, "/api/tables/")
    games = [example["value"]["game"] for example in setups.values()]
    assert sorted(games) == sorted(game.slug for game in all_games() if game.api_setup_example)
    assert "teikoku" in games  # a second game's example, not only the first's
    counts = _examples(schema, "/api/final-count/")  # the games that bring one, whichever they are (issue 45)
    counted = [example["value"]["game"] for example in counts.values()]
    assert counted and sorted(counted) == sorted(game.slug for game in all_games() if game.api_final_count_example)


def test_the_deprecated_score_name_is_documented_where_it_is_answered(schema):
    for component in ("TableOutput", "ScoreOutput"):
        properties = schema["components"]["schemas"][component]["properties"]
        assert list(properties).index("favour") == list(properties).index("score") + 1
        assert properties["favour"]["type"] == "array" and properties["favour"]["nullable"] is True
        assert "Deprecated" in properties["favour"]["description"]


def test_no_adapter_but_shitennos_keeps_a_score_alias():
    assert {game.slug: game.api_score_alias for game in all_games() if game.api_score_alias} == {"shitenno": "favour"}
    assert get_game("teikoku").api_score_alias is None
