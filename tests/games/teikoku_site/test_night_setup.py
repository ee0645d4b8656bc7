# ruff: noqa: F811  (the fixtures imported from the league night tests are parameters here, by name)
"""A league night opens Teikoku's tables once the organiser enters each table's Units deck, counted at the table
(rulebook: "The game begins with 3 cards selected randomly from the Units deck face up in the Port row"; it prints
no size for the deck, docs/rules/teikoku.md T4). A new organiser is told what to count and why, in his language."""

import pytest
from django.urls import reverse

from games.plugins import GameAdapter, get_game
from tests.leagues.league_helpers import thursday_season  # noqa: F401 (the `season` fixture)
from tests.leagues.test_night_pages import _one_table_of, as_user, mixed  # noqa: F401 (fixtures)
from tests.leagues.test_nights import night, regulars  # noqa: F401 (fixtures)


def test_teikoku_says_what_to_count_for_a_night_s_table_and_invents_no_number():
    hint = str(get_game("teikoku").night_count_help)
    assert "3 Port cards are face up" in hint and "face-down cards left in the Units deck" in hint
    assert "prints no number" in hint and not any(ch.isdigit() for ch in hint.replace("3 Port", ""))
    assert GameAdapter.night_count_help is None  # a game that asks nothing says nothing


@pytest.mark.parametrize(
    "language, says",
    [
        ("en", "count the face-down cards left in the Units deck"),
        ("nl", "de gesloten kaarten die nog in de stapel Eenheden zitten"),
    ],
)
def test_the_organiser_s_count_field_carries_the_hint(client, mixed, alice, carol, regulars, language, says):
    night = _one_table_of(mixed, alice, carol, regulars, "teikoku")
    page = (
        as_user(client, alice)
        .get(reverse("night_detail", args=[night.pk]), headers={"Accept-Language": language})
        .content.decode()
    )
    assert 'aria-describedby="count-0-help"' in page and 'id="count-0-help"' in page
    assert says in page
