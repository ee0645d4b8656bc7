"""A result that comes from a private table is private too."""

import pytest

from games import services
from games.engines.shitenno.simulation import random_legal_game
from leagues.models import Result
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db


def test_an_outsider_cannot_read_the_result_of_a_private_table(api, alice, bob, dave):
    setup, moves = random_legal_game(4, 2)
    table = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=setup,
        is_public=False,
        players=[player_for_user(alice), player_for_user(bob)],
    )
    for seq, move in enumerate(moves):
        services.move_record(session=table, seq=seq, move=move, user=alice)
    result = Result.objects.get(session=table)

    assert api.login(dave).get(f"/api/results/{result.pk}/").status_code == 404
    assert api.post(f"/api/results/{result.pk}/sign-off/", {"agreed": False}).status_code == 404
    assert api.login(bob).get(f"/api/results/{result.pk}/").status_code == 200


def test_the_league_page_lists_a_private_tables_result_only_to_those_who_may_see_the_table(client, alice, bob, dave):
    from leagues.club.clubs import club_create, club_join
    from leagues.result import results
    from tests.leagues.league_helpers import league_with_season

    club = club_create(name="Edo Gamers", owner=alice, members_public=True)  # the table is private, not the club
    club_join(token=club.invite_token, user=bob)
    league, _season = league_with_season(club, alice)
    setup, moves = random_legal_game(4, 2)
    table = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=setup,
        is_public=False,
        club=club,
        players=[player_for_user(alice), player_for_user(bob)],
    )
    for seq, move in enumerate(moves):
        services.move_record(session=table, seq=seq, move=move, user=alice)
    result = Result.objects.get(session=table)
    for user in (alice, bob):
        results.result_sign_off(result=result, user=user)

    client.force_login(bob)
    assert [r.pk for r in client.get(f"/leagues/{league.pk}/").context["recent"]] == [result.pk]
    client.force_login(dave)
    assert list(client.get(f"/leagues/{league.pk}/").context["recent"]) == []


def test_a_players_statistics_leave_out_private_tables_for_outsiders(api, alice, bob, dave):
    setup, moves = random_legal_game(4, 2)
    table = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=setup,
        is_public=False,
        players=[player_for_user(alice), player_for_user(bob)],
    )
    for seq, move in enumerate(moves):
        services.move_record(session=table, seq=seq, move=move, user=alice)
    from leagues.result import results

    for user in (alice, bob):
        results.result_sign_off(result=Result.objects.get(session=table), user=user)
    bobs = player_for_user(bob).pk
    assert api.login(bob).get(f"/api/players/{bobs}/stats/").json()["games"] == 1
    outsider = api.login(dave).get(f"/api/players/{bobs}/stats/").json()
    assert outsider["games"] == 0 and outsider["head_to_head"] == []
