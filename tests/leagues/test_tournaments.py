"""A tournament day in a club (issue 51): the club's manager sets it up, enters and checks in players; round 1 is
the recorded seed's draw; later rounds are paired by the standings with no rematch; a round is refused while a pod
has no places, and a member cannot pair one; a drop leaves the next round and keeps his results; a late entry
starts at 0 points; byes go to the lowest-placed only where no split exists."""

import datetime
import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from leagues.models import Player, Tournament, TournamentPod, TournamentRound
from leagues.people.players import player_for_user
from leagues.tournaments import services

from .league_helpers import members_joined

DAY = datetime.date(2026, 12, 5)


@pytest.fixture
def field(club, bob):
    """alice (the owner), carol and bob with nine more members: twelve players."""
    users = members_joined(club, bob, [f"p{n}" for n in range(9)])
    return [player_for_user(u) for u in users]


@pytest.fixture
def tournament(club, alice, field, carol):
    tournament = services.tournament_create(club=club, user=alice, name="Winter cup", date=DAY, swiss_rounds=3,
                                            cut_size=4)
    for player in [player_for_user(alice), player_for_user(carol), *field]:
        services.tournament_enter(tournament=tournament, user=alice, player=player, checked_in=True)
    return tournament


def play(round_, alice, rng):
    for pod in round_.pods.all():
        finish = list(pod.players)
        rng.shuffle(finish)
        services.pod_places(pod=pod, user=alice, places={p: n + 1 for n, p in enumerate(finish)})


def test_round_one_is_the_recorded_seeds_draw(tournament, alice):
    first = services.round_pair(tournament=tournament, user=alice)
    order = sorted(tournament.entries.values_list("player_id", flat=True))
    random.Random(tournament.seed).shuffle(order)
    pods = [pod.players for pod in first.pods.all()]
    assert [sorted(pod) for pod in pods] == [sorted(order[0:4]), sorted(order[4:8]), sorted(order[8:12])]
    assert pods[0] == list(reversed(order[0:4]))  # the draw's first is the pod's leader: seated last


def test_three_swiss_rounds_with_no_avoidable_rematch_then_the_cut(tournament, alice):
    rng = random.Random(51)
    for number in range(1, 4):
        round_ = services.round_pair(tournament=tournament, user=alice)
        assert round_.kind == TournamentRound.Kind.SWISS
        assert round_.pairing["repeats"] == round_.pairing["bound"], f"round {number}: an avoidable rematch"
        if number == 2:
            # each pod of four takes four players from round 1's three pods: two from one, one rematch a pod
            assert round_.pairing["repeats"] == 3
        play(round_, alice, rng)
    rows, _ = services.tournament_standings(tournament)
    cut = services.round_pair(tournament=tournament, user=alice)
    assert cut.kind == TournamentRound.Kind.CUT
    assert [pod.players for pod in cut.pods.all()] == [[r.player for r in rows[:4]]]  # top seed first


def test_a_round_waits_for_every_pods_places_and_nothing_is_written(tournament, alice):
    services.round_pair(tournament=tournament, user=alice)
    with pytest.raises(ValidationError, match="needs its places first"):
        services.round_pair(tournament=tournament, user=alice)
    assert tournament.rounds.count() == 1 and TournamentPod.objects.filter(round__tournament=tournament).count() == 3


def test_a_member_cannot_pair_a_round(tournament, carol):
    with pytest.raises(PermissionDenied):
        services.round_pair(tournament=tournament, user=carol)
    assert tournament.rounds.count() == 0


def test_a_drop_leaves_the_next_round_and_keeps_his_results_a_late_entry_starts_at_zero(tournament, alice, club):
    rng = random.Random(3)
    play(services.round_pair(tournament=tournament, user=alice), alice, rng)
    leaver = Player.objects.get(pk=tournament.entries.order_by("pk").first().player_id)
    services.tournament_drop(tournament=tournament, user=alice, player=leaver)
    late = Player.objects.create(name="Late guest", created_in=club)
    entry = services.tournament_enter(tournament=tournament, user=alice, player=late, checked_in=True)
    assert entry.entered_round == 2
    second = services.round_pair(tournament=tournament, user=alice)
    seated = [p for pod in second.pods.all() for p in pod.players]
    assert leaver.pk not in seated and late.pk in seated and len(seated) == 12
    rows, _ = services.tournament_standings(tournament)
    by = {r.player: r for r in rows}
    assert by[late.pk].points == 0 and by[leaver.pk].average_place is not None  # his round 1 still counts


def test_byes_go_to_the_lowest_placed_only_where_no_split_exists(tournament, alice):
    rng = random.Random(5)
    play(services.round_pair(tournament=tournament, user=alice), alice, rng)
    rows, _ = services.tournament_standings(tournament)
    for row in rows[:7]:  # seven drop: five are left, and five cannot be split into pods of 3-4
        services.tournament_drop(tournament=tournament, user=alice, player=Player.objects.get(pk=row.player))
    second = services.round_pair(tournament=tournament, user=alice)
    assert second.pairing["byes"] == [rows[-1].player]
    assert sorted(p for pod in second.pods.all() for p in pod.players) == sorted(r.player for r in rows[7:11])


def test_a_tournament_is_set_up_by_a_manager_only(club, carol):
    with pytest.raises(PermissionDenied):
        services.tournament_create(club=club, user=carol, name="Rogue cup", date=DAY)
    assert not Tournament.objects.exists()


def test_two_players_left_cannot_be_paired_even_with_byes_and_nothing_is_written(tournament, alice):
    play(services.round_pair(tournament=tournament, user=alice), alice, random.Random(7))
    rows, _ = services.tournament_standings(tournament)
    for row in rows[:10]:
        services.tournament_drop(tournament=tournament, user=alice, player=Player.objects.get(pk=row.player))
    with pytest.raises(ValidationError, match="2 players cannot be split into pods of"):
        services.round_pair(tournament=tournament, user=alice)
    assert tournament.rounds.count() == 1 and TournamentPod.objects.filter(round__tournament=tournament).count() == 3
