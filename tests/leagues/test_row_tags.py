"""The rows tags (leagues/templatetags/rows.py) write what the templates wrote, at a fraction of the cost."""

import random

import pytest
from django.template.defaultfilters import floatformat
from django.utils import translation

from leagues.models import Player
from leagues.templatetags.rows import player_url, tenths


@pytest.mark.parametrize("language", ["en", "nl"])
def test_tenths_writes_what_floatformat_1_writes(language):
    rng = random.Random(18)
    values = [rng.uniform(-60, 90) for _ in range(5000)]
    values += [2.25, 1.45, 12.35, -0.04, -0.05, 0.05, 0.0, -0.0, 3, 25, 1e-9, -1e-9, 1e6 + 0.05]  # halves, zeros
    with translation.override(language):
        assert [tenths(v) for v in values] == [floatformat(v, 1) for v in values]
        assert tenths(2.25) == ("2.3" if language == "en" else "2,3")


@pytest.mark.django_db
def test_player_url_is_the_players_page():
    player = Player.objects.create(name="hana")
    assert player_url(player.pk) == player.get_absolute_url()


def test_points_use_the_reader_s_decimal_separator():
    """A Dutch page writes half points as 12,5, as it writes a rating's 28,2; a fraction keeps its slash."""
    from django.utils import translation

    from leagues.templatetags.rows import points_here

    with translation.override("nl"):
        assert [points_here("12.5"), points_here("-0.75"), points_here("66 2/3"), points_here("3")] == [
            "12,5",
            "-0,75",
            "66 2/3",
            "3",
        ]
    with translation.override("en"):
        assert points_here("12.5") == "12.5"
