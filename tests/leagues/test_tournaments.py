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
    tournament = services.tournament_create(
        club=club, user=alice, name="Winter cup", date=DAY, swiss_rounds=3, cut_size=4
    )
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


# The final after semi-final pods (docs/tournaments.md, "The cut")


def rows_state():
    return (
        list(Tournament.objects.order_by("pk").values()),
        list(TournamentRound.objects.order_by("pk").values()),
        list(TournamentPod.objects.order_by("pk").values()),
    )


@pytest.fixture
def sixteen(club, alice, bob):
    """alice (the owner), bob and fourteen more members: sixteen players, checked in."""
    return [player_for_user(u) for u in [alice, *members_joined(club, bob, [f"s{n}" for n in range(14)])]]


def semi_day(club, alice, players, cut_size):
    tournament = services.tournament_create(
        club=club,
        user=alice,
        name="Spring cup",
        date=DAY,
        swiss_rounds=4,
        cut="semi",
        cut_size=cut_size,
        table_sizes=[4],
    )
    for player in players:
        services.tournament_enter(tournament=tournament, user=alice, player=player, checked_in=True)
    rng = random.Random(16)
    for _number in range(4):
        play(services.round_pair(tournament=tournament, user=alice), alice, rng)
    return tournament, rng


def test_sixteen_in_semi_final_pods_send_each_pods_winner_to_a_final_seated_by_the_standings(club, alice, sixteen):
    from leagues.notifications.models import Notification
    from leagues.tournaments import selectors

    tournament, rng = semi_day(club, alice, sixteen, 16)
    swiss = [r.player for r in services.tournament_standings(tournament)[0]]
    semis = services.round_pair(tournament=tournament, user=alice)
    assert semis.kind == TournamentRound.Kind.SEMI and semis.pairing["byes"] == []
    pods = [pod.players for pod in semis.pods.all()]
    assert sorted(p for pod in pods for p in pod) == sorted(swiss)
    assert all(pod == sorted(pod, key=swiss.index) for pod in pods)  # the top seed first at each table
    assert not services.is_over(tournament, semis)
    play(semis, alice, rng)
    winners = [next(int(p) for p, place in pod.places.items() if place == 1) for pod in semis.pods.all()]
    final = services.round_pair(tournament=tournament, user=alice)
    assert final.kind == TournamentRound.Kind.CUT and final.number == 6
    assert [pod.players for pod in final.pods.all()] == [sorted(winners, key=swiss.index)]
    told = Notification.objects.filter(dedupe_key__startswith=f"your_table:tournament_pod:{final.pods.get().pk}:")
    assert sorted(n.payload["seat"] for n in told) == [1, 2, 3, 4]
    assert {n.payload["round"] for n in told} == {6} and {n.payload["stage"] for n in told} == {"final"}
    semi_told = Notification.objects.filter(dedupe_key__startswith="your_table:tournament_pod:", payload__round=5)
    assert semi_told.exists() and {n.payload["stage"] for n in semi_told} == {"semi"}
    finish = list(reversed(final.pods.get().players))  # the lowest seed wins
    services.pod_places(pod=final.pods.get(), user=alice, places={p: n + 1 for n, p in enumerate(finish)})
    assert services.is_over(tournament, final)
    day = selectors.tournament_day(tournament)
    assert day.over and day.winner["id"] == finish[0]
    order = [row["player"] for row in day.standings]
    assert order[:4] == finish and [row["place"] for row in day.standings] == list(range(1, 17))
    semi_place = {int(p): place for pod in semis.pods.all() for p, place in pod.places.items()}
    rest = sorted(set(swiss) - set(finish), key=lambda p: (semi_place[p], swiss.index(p)))
    assert order[4:] == rest  # then the other semi-finalists by their semi-final places, then the Swiss standings
    before = rows_state()
    with pytest.raises(ValidationError, match="The tournament is over: its last round was 6"):
        services.round_pair(tournament=tournament, user=alice)
    assert rows_state() == before


def test_the_top_eight_in_two_pods_send_the_first_two_of_each_a_shared_place_to_the_higher_seed(club, alice, sixteen):
    from leagues.tournaments import selectors

    tournament, _rng = semi_day(club, alice, sixteen, 8)
    swiss = [r.player for r in services.tournament_standings(tournament)[0]]
    semis = services.round_pair(tournament=tournament, user=alice)
    first, second = [pod for pod in semis.pods.all()]
    assert sorted(first.players + second.players) == sorted(swiss[:8])
    a = first.players  # seats in standings order: a[2] is above a[3] in the Swiss standings
    services.pod_places(pod=first, user=alice, places={a[3]: 1, a[0]: 4, a[1]: 2, a[2]: 2})
    b = second.players
    services.pod_places(pod=second, user=alice, places={b[0]: 3, b[1]: 4, b[2]: 1, b[3]: 2})
    final = services.round_pair(tournament=tournament, user=alice)
    assert [pod.players for pod in final.pods.all()] == [sorted([a[3], a[1], b[2], b[3]], key=swiss.index)]
    pod = final.pods.get()
    services.pod_places(pod=pod, user=alice, places={p: n + 1 for n, p in enumerate(pod.players)})
    order = [row["player"] for row in selectors.tournament_day(tournament).standings]
    assert order[:4] == pod.players
    assert order[4:8] == [a[2], b[0], a[0], b[1]]  # semi-final places 2, 3, 4, 4 (a[0] above b[1] by Swiss)
    assert order[8:] == swiss[8:]  # everyone else by the Swiss standings


def test_a_final_that_cannot_be_seated_is_refused_and_nothing_is_written(club, alice, sixteen):
    tournament, rng = semi_day(club, alice, sixteen, 12)  # three pods of four send one each: three at tables of 4
    semis = services.round_pair(tournament=tournament, user=alice)
    assert semis.pods.count() == 3
    play(semis, alice, rng)
    before = rows_state()
    with pytest.raises(ValidationError, match="send 3 players to the final .1 from each of 3 pods.*seats 4"):
        services.round_pair(tournament=tournament, user=alice)
    assert rows_state() == before and not services.is_over(tournament, semis)


def test_a_final_cut_is_over_after_its_final_table_as_before(tournament, alice):
    rng = random.Random(8)
    for _number in range(3):
        play(services.round_pair(tournament=tournament, user=alice), alice, rng)
    final = services.round_pair(tournament=tournament, user=alice)
    assert final.kind == TournamentRound.Kind.CUT and services.is_over(tournament, final)
    play(final, alice, rng)
    with pytest.raises(ValidationError, match="is over"):
        services.round_pair(tournament=tournament, user=alice)


def test_the_cuts_rules_without_a_database():
    from leagues.tournaments import cut

    assert cut.per_pod([4], 4) == 1 and cut.per_pod([4], 2) == 2 and cut.per_pod([3, 4], 5) == 1
    swiss = [10, 11, 12, 13, 14, 15, 16, 17]
    pods = [{10: 2, 13: 1, 14: 3, 17: 4}, {11: 1, 12: 2, 15: 2, 16: 4}]
    assert cut.finalists(pods, swiss, [4]) == [10, 11, 12, 13]  # by the Swiss standings: 12 over 15
    with pytest.raises(ValidationError):
        cut.finalists(pods, swiss, [3])
    assert cut.final_order(swiss, []) == swiss
    assert cut.final_order(swiss, [pods, [{13: 1, 11: 2, 12: 3, 10: 4}]]) == [13, 11, 12, 10, 15, 14, 16, 17]
