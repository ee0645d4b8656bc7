"""Issue 51: when a tournament's round is paired, each player with an account is told his table and seat, the game
and who else sits there ("Teikoku, round 1, table 2, seat 3"; "Edo Gamers, Winter cup, 5 December; with A, B and
C"), by push or e-mail as his settings say, or not at all; a guest without an account is told nothing; a refused
pairing tells nobody."""

import datetime
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from leagues.jobs import outbox
from leagues.models import TournamentPod
from leagues.notifications.messages import worded
from leagues.notifications.models import Channel, Kind, Notification, Preference
from leagues.people import players
from leagues.people.players import player_for_user
from leagues.tournaments import services
from tests.leagues.league_helpers import members_joined

DAY = datetime.date(2026, 12, 5)
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker():
    with mock.patch.object(outbox, "publish") as publish:
        yield publish


@pytest.fixture
def tournament(club, alice, bob, carol):
    """alice (the owner), carol, bob and five more members, and Goro, alice's guest: nine players, Teikoku."""
    users = [alice, carol, *members_joined(club, bob, [f"p{n}" for n in range(5)])]
    tournament = services.tournament_create(club=club, user=alice, name="Winter cup", date=DAY, games=["teikoku"])
    goro = players.player_guest_create(name="Goro", created_by=alice, club=club)
    for player in [*(player_for_user(u) for u in users), goro]:
        services.tournament_enter(tournament=tournament, user=alice, player=player, checked_in=True)
    return tournament


def test_each_account_holder_is_told_his_table_seat_game_and_table_mates(tournament, alice, carol):
    Preference.objects.create(user=carol, your_table=Channel.EMAIL, language="nl")
    paired = services.round_pair(tournament=tournament, user=alice)
    rows = Notification.objects.filter(kind=Kind.YOUR_TABLE)
    seated = [
        (pod, seat, pid)
        for pod in TournamentPod.objects.filter(round=paired)
        for seat, pid in enumerate(pod.players, start=1)
    ]
    with_accounts = [s for s in seated if players.Player.objects.get(pk=s[2]).user_id is not None]
    assert rows.count() == len(with_accounts) == len(seated) - 1  # all but Goro, the guest
    pod, seat, _pid = next(s for s in seated if s[2] == player_for_user(carol).pk)
    mates = sorted(players.Player.objects.get(pk=p).name for p in pod.players if p != player_for_user(carol).pk)
    message = rows.get(recipient=carol)
    english = worded(Kind.YOUR_TABLE, message.payload, "en")
    assert english["title"] == f"Teikoku, round 1, table {pod.position + 1}, seat {seat}"
    assert english["body"].startswith("Edo Gamers, Winter cup, 5 December; with ")
    assert all(name in english["body"] for name in mates)
    assert message.payload["url"] == f"/tournaments/{tournament.pk}/"
    dutch = worded(Kind.YOUR_TABLE, message.payload, "nl")
    assert dutch["title"] == f"Teikoku, ronde 1, tafel {pod.position + 1}, plaats {seat}"
    assert dutch["body"].startswith("Edo Gamers, Winter cup, 5 december; met ")


def test_a_player_who_turned_the_kind_off_is_not_told_and_a_refused_pairing_tells_nobody(tournament, alice, carol):
    Preference.objects.create(user=carol, your_table=Channel.NONE)
    services.round_pair(tournament=tournament, user=alice)
    assert not Notification.objects.filter(recipient=carol).exists()
    before = Notification.objects.count()
    with pytest.raises(ValidationError):  # round 1's pods have no places yet
        services.round_pair(tournament=tournament, user=alice)
    assert Notification.objects.count() == before


@pytest.mark.parametrize(
    "stage, english, dutch",
    [
        ("semi", "Teikoku, semi-final, table 2, seat 1", "Teikoku, halve finale, tafel 2, plaats 1"),
        ("final", "Teikoku, final, table 2, seat 1", "Teikoku, finale, tafel 2, plaats 1"),
    ],
)
def test_a_semi_final_or_final_seat_is_worded_so_not_as_a_round(stage, english, dutch):
    payload = {
        "round": 5,
        "table": 2,
        "seat": 1,
        "game": "Teikoku",
        "with": ["Kiku"],
        "stage": stage,
        "club": "Edo Gamers",
        "league": "Winter cup",
        "day": DAY.isoformat(),
    }
    assert worded(Kind.YOUR_TABLE, payload, "en")["title"] == english
    assert worded(Kind.YOUR_TABLE, payload, "nl")["title"] == dutch
    assert worded(Kind.YOUR_TABLE, {**payload, "stage": None}, "en")["title"] == "Teikoku, round 5, table 2, seat 1"
