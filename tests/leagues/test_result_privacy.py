"""A result that comes from a private table is private too."""

import pytest

from games import services
from games.simulation import random_legal_game
from leagues.models import Result
from leagues.services import player_for_user

pytestmark = pytest.mark.django_db


def test_an_outsider_cannot_read_the_result_of_a_private_table(api, alice, bob, dave):
    setup, moves = random_legal_game(4, 2)
    table = services.session_create(game="shitenno", created_by=alice, setup=setup, is_public=False,
                                    players=[player_for_user(alice), player_for_user(bob)])
    for seq, move in enumerate(moves):
        services.move_record(session=table, seq=seq, move=move, user=alice)
    result = Result.objects.get(session=table)

    assert api.login(dave).get(f"/api/results/{result.pk}/").status_code == 404
    assert api.post(f"/api/results/{result.pk}/sign-off/", {"agreed": False}).status_code == 404
    assert api.login(bob).get(f"/api/results/{result.pk}/").status_code == 200
