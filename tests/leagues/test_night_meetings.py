"""Who met whom, as a night's proposal is told (issue 46 finding 1): one aggregate query about tonight's players
gives the same counts as pairing every entry of the season in Python did, and does not read the season's other
players at all."""

import datetime
from collections import Counter
from itertools import combinations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.club import seasons
from leagues.models import NightRound, NightTable, Player, Result, ResultEntry
from leagues.nights import services
from leagues.people import players as people

from .league_helpers import TONIGHT, members_joined, thursday_season  # noqa: F401 (the `season` fixture)

POOL = 8  # players in the random seasons: four members (alice and three more), four guests


def history_by_pairing_every_entry(night):
    """The proposal's history as it was read before issue 46: every entry of the season, paired in Python. Kept
    here as the reference the aggregate query must agree with."""
    met: Counter = Counter()
    by_result: dict[int, list[int]] = {}
    for result_id, player_id in ResultEntry.objects.filter(result__season=night.season).values_list(
        "result_id", "player_id"
    ):
        by_result.setdefault(result_id, []).append(player_id)
    for players in by_result.values():
        for a, b in combinations(sorted(set(players)), 2):
            met[frozenset((a, b))] += 1
    seats: dict = {}
    for table in NightTable.objects.filter(
        round__night__season=night.season, round__opened_at__isnull=False
    ).select_related("round"):
        if table.round.night_id == night.pk:
            for a, b in combinations(table.players, 2):
                met[frozenset((a, b))] += services.TONIGHT_WEIGHT
        for seat, player_id in enumerate(table.players):
            counts = list(seats.get((player_id, table.game), ()))
            counts += [0] * (seat + 1 - len(counts))
            counts[seat] += 1
            seats[(player_id, table.game)] = tuple(counts)
    return dict(met), seats


def among(met, players):
    """The reference's pairs of tonight's players only: the optimiser never asks about anyone else."""
    here = set(players)
    return {pair: times for pair, times in met.items() if pair <= here}


@pytest.fixture
def pool(club, alice, bob):
    """Four members and four guests of the club (guests: players without an account, added by alice)."""
    members = [user.player.pk for user in members_joined(club, bob, ("erin", "frank"))]
    guests = [people.player_guest_create(name=f"guest {i}", created_by=alice, club=club).pk for i in range(3)]
    guests.append(Player.objects.create(name="a BG Stats name", created_by=alice).pk)  # an import's, in no club
    return [alice.player.pk, *members[:3], *guests]


@pytest.fixture
def other_season(season, alice):
    """A second season of the same league: its results are not this season's meetings."""
    return seasons.season_create(
        league=season.league,
        name="Winter",
        starts_on=datetime.date(2027, 1, 1),
        ends_on=datetime.date(2027, 3, 31),
        user=alice,
    )


@pytest.fixture
def night(season, alice):
    return services.night_open(season=season, user=alice, date=TONIGHT, games=["shitenno"])


def a_result():
    """(in this season?, the players' places in the pool): one to five of them, a result of one player too."""
    return st.tuples(st.booleans(), st.sets(st.integers(0, POOL - 1), min_size=1, max_size=5))


def write(night, other_season, pool, results, tables):
    made = Result.objects.bulk_create(
        Result(game="shitenno", played_on=TONIGHT, season=night.season if here else other_season)
        for here, _players in results
    )
    ResultEntry.objects.bulk_create(
        ResultEntry(result=result, player_id=pool[i], rank=1 + n)
        for result, (_here, players) in zip(made, results, strict=True)
        for n, i in enumerate(sorted(players))
    )
    for number, round_tables in enumerate(tables, start=1):
        night_round = NightRound.objects.create(night=night, number=number, opened_at=timezone.now())
        NightTable.objects.bulk_create(
            NightTable(round=night_round, position=p, game="shitenno", players=[pool[i] for i in seats])
            for p, seats in enumerate(round_tables)
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    results=st.lists(a_result(), max_size=25),
    tables=st.lists(
        st.lists(st.lists(st.integers(0, POOL - 1), min_size=2, max_size=4, unique=True), max_size=2), max_size=2
    ),
    tonight=st.sets(st.integers(0, POOL - 1)),
)
def test_the_query_counts_what_pairing_every_entry_counted(night, other_season, pool, results, tables, tonight):
    """Any season (other seasons' results beside it, guests among the players, tonight's opened rounds), any of
    the pool here tonight: the same meetings between tonight's players and the same seats as the old loop."""
    with transaction.atomic():
        write(night, other_season, pool, results, tables)
        players = sorted(pool[i] for i in tonight)
        met, seats = services._history(night, players)
        old_met, old_seats = history_by_pairing_every_entry(night)
        assert met == among(old_met, players)
        assert seats == old_seats
        transaction.set_rollback(True)


def test_guests_meetings_count_like_members_and_the_proposal_avoids_them(night, alice, pool):
    """Two guests and two members who played the season's every result together, with four others who never
    met: checked in, the guests' meetings count as the members' do, and the first round splits the old partners."""
    regulars, strangers = [pool[0], pool[4], pool[1], pool[5]], [pool[2], pool[3], pool[6], pool[7]]
    for _ in range(3):
        result = Result.objects.create(game="shitenno", played_on=TONIGHT, season=night.season)
        for rank, player_id in enumerate(regulars, start=1):
            ResultEntry.objects.create(result=result, player_id=player_id, rank=rank)
    for player_id in pool[:7]:  # the import's player is no member: not checked in
        services.night_check_in(night=night, user=alice, player=Player.objects.get(pk=player_id))
    here = pool[:7]
    met, _seats = services._history(night, here)
    assert met == {frozenset(pair): 3 for pair in combinations(regulars, 2)}
    assert met == among(history_by_pairing_every_entry(night)[0], here)
    night_round = services.round_propose(night=night, user=alice)
    for table in night_round.tables.all():
        assert len(set(table.players) & set(regulars)) <= 2  # 7 players: a table of 4 and one of 3
    assert strangers[3] not in {p for table in night_round.tables.all() for p in table.players}


def test_the_meetings_are_one_query_whatever_the_season_holds(night, pool):
    """A season of many results costs the proposal's history the same one query as a season of one."""

    def queries():
        with CaptureQueriesContext(connection) as read:
            services.met_in_season(night.season_id, pool[:4])
        return len(read.captured_queries)

    result = Result.objects.create(game="shitenno", played_on=TONIGHT, season=night.season)
    ResultEntry.objects.bulk_create(ResultEntry(result=result, player_id=p, rank=1) for p in pool[:4])
    one = queries()
    made = Result.objects.bulk_create(
        Result(game="shitenno", played_on=TONIGHT, season=night.season) for _ in range(200)
    )
    ResultEntry.objects.bulk_create(ResultEntry(result=r, player_id=p, rank=1) for r in made for p in pool)
    assert queries() == one == 1
    assert services.met_in_season(night.season_id, pool[:4])[frozenset(pool[:2])] == 201
    assert services.met_in_season(night.season_id, pool[:1]) == Counter()  # one player meets nobody
