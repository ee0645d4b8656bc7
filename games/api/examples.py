"""The API schema's request examples and deprecated score names, gathered from the registered games' adapters
(`api_setup_example`, `api_move_examples`, `api_final_count_example`, `api_score_alias`): a game brings its own,
and this module names none."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from games import selectors
from games.plugins import all_games, get_game


def _name(game, name: str) -> str:
    return f"{game.name}: {name}" if len(all_games()) > 1 else name


def setup_examples() -> list[OpenApiExample]:
    """One POST /api/tables/ body per game that gives one."""
    return [
        OpenApiExample(_name(game, name), value=value, request_only=True)
        for game in all_games()
        if game.api_setup_example
        for name, value in [game.api_setup_example]
    ]


def move_examples() -> list[OpenApiExample]:
    return [
        OpenApiExample(_name(game, name), value={"seq": 0, "move": move}, request_only=True)
        for game in all_games()
        for name, move in game.api_move_examples
    ]


def final_count_examples() -> list[OpenApiExample]:
    return [
        OpenApiExample(_name(game, name), value={"game": game.slug, "end": end}, request_only=True)
        for game in all_games()
        if game.api_final_count_example
        for name, end in [game.api_final_count_example]
    ]


def final_count_game_names() -> str:
    return ", ".join(str(game.name) for game in all_games() if game.final_count_form_class)


@extend_schema_field(serializers.ListField(child=serializers.IntegerField(), allow_null=True))
class ScoreAliasField(serializers.Field):
    """The score again under a game's deprecated name for it (its adapter's `api_score_alias`), null for the tables
    of the other games: old clients read the name on every table, so it is there for every table."""

    def __init__(self, alias: str, **kwargs) -> None:
        games = ", ".join(str(game.name) for game in all_games() if game.api_score_alias == alias)
        kwargs.setdefault("help_text", f"Deprecated: the same list as `score`, kept for {games}; null for other games.")
        super().__init__(source="*", read_only=True, **kwargs)
        self.alias = alias

    def to_representation(self, session) -> list[int] | None:
        return score_alias(session, self.alias)


def score_alias(session, alias: str, score: list[int] | None = None) -> list[int] | None:
    if get_game(session.game).api_score_alias != alias:
        return None
    return selectors.session_score(session) if score is None else score


def score_aliases() -> list[str]:
    """Every deprecated name of the score the registered games keep, once each, in the registry's order."""
    return list(dict.fromkeys(game.api_score_alias for game in all_games() if game.api_score_alias))


def score_alias_fields() -> dict[str, ScoreAliasField]:
    return {alias: ScoreAliasField(alias) for alias in score_aliases()}
