"""A finished Teikoku table feeds the leagues: a pending result with the placings of its outcome (a shared
victory gives tied first ranks), counted once every seated account signed it off (a guest is vouched for by
whoever recorded the game), then folded into the season's standings and the game's ratings by the worker."""

from __future__ import annotations

import datetime
import time

import pytest
from django.utils import timezone

from games import services
from leagues.club import seasons
from leagues.club.clubs import club_join
from leagues.models import Rating, Result, Standing
from leagues.people.players import player_for_user, player_guest_create
from leagues.result import results

TODAY = timezone.localdate()
# Three clans; the Units deck is already empty, so emptying the Yakuza deck ends the game by attrition.
ATTRITION = {
    "clans": ["fujiwara", "minamoto", "tokugawa"],
    "units_deck": 0,
    "chosen_specials": ["ninja", "market", "elements"],
}
MOVES = [
    {"type": "correction", "seat": 2, "from": 2, "to": "supply", "amount": 1, "note": "paid a debt"},
    {"type": "cards_leave", "seat": 0, "deck": "yakuza", "count": 8, "note": "card effect"},
]


def play(session, user, moves):
    for move in moves:
        session.refresh_from_db()
        services.move_record(session=session, seq=session.head_seq, move=move, user=user)
    session.refresh_from_db()
    return session


def wait_for(condition, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail("The worker did not finish in time.")


@pytest.mark.django_db
def test_a_shared_victory_is_a_pending_result_with_tied_ranks_and_a_guest_is_vouched_for(client, alice, bob):
    carl = player_guest_create(name="Carl", created_by=alice)
    session = services.session_create(
        game="teikoku", created_by=alice, setup=ATTRITION, players=[player_for_user(alice), player_for_user(bob), carl]
    )
    session = play(session, alice, MOVES)
    assert session.status == "finished" and session.outcome["termination"] == "attrition"
    assert session.outcome["details"]["shared"] is True
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Shared victory by attrition" in page and "Fujiwara (alice), Minamoto (bob)" in page
    assert "share the victory" in page
    assert "end the game by attrition" not in page  # no countdown to an end that has come
    result = Result.objects.get(session=session)
    assert result.game == "teikoku" and result.status == "pending"
    assert sorted(result.entries.values_list("player__name", "rank", "score")) == [
        ("Carl", 3, 24),
        ("alice", 1, 25),
        ("bob", 1, 25),
    ]
    results.result_sign_off(result=result, user=alice)  # alice signs for herself and her guest
    result.refresh_from_db()
    assert result.status == "pending"  # bob has not signed yet
    results.result_sign_off(result=result, user=bob)
    result.refresh_from_db()
    assert result.status == "counted"


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_signed_off_teikoku_result_counts_in_the_season_and_the_ratings(
    celery_worker_process, club, alice, bob, carol
):
    club.members_public = True  # a public club's games count site-wide too (a private club's only in its league)
    club.save()
    club_join(token=club.invite_token, user=bob)
    league = seasons.league_create(club=club, name="Teikoku league", games=["teikoku"], user=alice)
    season = seasons.season_create(
        league=league,
        name="2026",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    session = services.session_create(
        game="teikoku",
        created_by=alice,
        setup=ATTRITION,
        club=club,
        players=[player_for_user(u) for u in (alice, bob, carol)],
    )
    play(session, bob, MOVES)
    result = Result.objects.get(session=session)
    assert result.season == season and result.status == "pending"
    for user in (alice, bob, carol):
        results.result_sign_off(result=result, user=user)
    result.refresh_from_db()
    assert result.status == "counted"

    wait_for(lambda: Standing.objects.filter(season=season).count() == 3 and Rating.objects.count() == 6)
    points = dict(Standing.objects.filter(season=season).values_list("player__user__username", "points"))
    assert points["alice"] == points["bob"] > points["carol"]
    ratings = {(r.kind, r.player.user.username): r.mu for r in Rating.objects.select_related("player__user")}
    assert {kind for kind, _who in ratings} == {"game", "league"}
    assert Rating.objects.filter(kind="game", key="teikoku").count() == 3
    assert abs(ratings[("game", "alice")] - ratings[("game", "bob")]) < 1e-9  # tied first places rate alike
    assert ratings[("game", "alice")] > ratings[("game", "carol")]
