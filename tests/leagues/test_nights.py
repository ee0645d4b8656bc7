"""A league night's evening (issue 25): alice runs the night, members check in, the tables are proposed,
adjusted and proposed again; refusals change nothing."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from leagues.club import clubs
from leagues.models import Night, NightCheckIn, NightRound, NightTable, Result, ResultEntry
from leagues.nights import selectors, services
from leagues.people import players

from .league_helpers import TONIGHT, members_joined, thursday_season  # noqa: F401 (the `season` fixture)


@pytest.fixture
def regulars(club, bob):
    """bob and five more members besides alice and carol."""
    return members_joined(club, bob, ("erin", "frank", "gina", "hiro", "ito"))


@pytest.fixture
def night(season, alice):
    return services.night_open(season=season, user=alice, date=TONIGHT, games=["shitenno"])


def seated(night_round):
    return sorted(p for t in selectors.round_tables(night_round) for p in t["players"])


def test_a_member_cannot_open_a_night_and_nothing_is_written(season, carol):
    with pytest.raises(PermissionDenied):
        services.night_open(season=season, user=carol, date=TONIGHT, games=["shitenno"])
    assert not Night.objects.exists()


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"games": ["go"]}, "games"),
        ({"games": []}, "games"),
        ({"table_sizes": [5]}, "table_sizes"),  # Shitennō seats two to four
        ({"table_sizes": [1]}, "table_sizes"),
        ({"date": datetime.date(2027, 2, 1)}, "date"),
        ({"forbidden": [[1, 1]]}, "forbidden"),
    ],
)
def test_a_bad_night_is_refused_saying_what(season, alice, kwargs, field):
    with pytest.raises(ValidationError) as refused:
        services.night_open(season=season, user=alice, **({"date": TONIGHT, "games": ["shitenno"]} | kwargs))
    assert field in refused.value.message_dict
    assert not Night.objects.exists()


def test_members_check_in_and_an_outsider_cannot(night, carol, dave, regulars):
    services.night_check_in(night=night, user=carol)
    with pytest.raises(PermissionDenied):
        services.night_check_in(night=night, user=dave)
    with pytest.raises(PermissionDenied):  # carol may not tick bob's name: only a manager may
        services.night_check_in(night=night, user=carol, player=regulars[0].player)
    assert selectors.night_present(night) == [carol.player.pk]


def test_the_organiser_ticks_names_and_only_game_must_be_on_offer(night, alice, regulars):
    services.night_check_in(night=night, user=alice, player=regulars[1].player)
    with pytest.raises(ValidationError):
        services.night_check_in(night=night, user=regulars[2], only_game="teikoku")
    assert selectors.night_present(night) == [regulars[1].player.pk]


def test_a_round_seats_everyone_present_and_a_second_round_avoids_the_first(night, alice, carol, regulars):
    for user in [alice, carol, *regulars]:  # eight players
        services.night_check_in(night=night, user=user)
    first = services.round_propose(night=night, user=alice)
    assert seated(first) == sorted(u.player.pk for u in [alice, carol, *regulars])
    first.opened_at = first.night.created_at  # as the tables' opening will stamp it
    first.save()
    second = services.round_propose(night=night, user=alice)
    assert second.number == 2
    before = [set(t["players"]) for t in selectors.round_tables(first)]
    for table in selectors.round_tables(second):
        for old in before:
            assert len(old & set(table["players"])) <= 2  # two tables of four: at most two old partners each


def test_asking_again_keeps_the_locked_table_and_seats_the_latecomer(night, alice, carol, regulars):
    for user in [alice, carol, *regulars[:4]]:  # six players: two tables of three
        services.night_check_in(night=night, user=user)
    night_round = services.round_propose(night=night, user=alice)
    kept = night_round.tables.first()
    services.table_lock(table=kept, user=alice)
    services.night_check_in(night=night, user=regulars[4])  # a latecomer
    services.night_leave(night=night, user=regulars[0])  # bob leaves early...
    if regulars[0].player.pk in kept.players:  # ...unless his table is locked
        with pytest.raises(ValidationError):
            services.round_propose(night=night, user=alice)
        return
    again = services.round_propose(night=night, user=alice)
    assert again.pk == night_round.pk
    tables = selectors.round_tables(again)
    assert tables[0]["players"] == kept.players and tables[0]["locked"]
    assert regulars[4].player.pk in seated(again) and regulars[0].player.pk not in seated(again)


def test_a_swap_moves_two_players_and_a_forbidden_swap_changes_nothing(season, alice, carol, regulars):
    night = services.night_open(
        season=season,
        user=alice,
        date=TONIGHT,
        games=["shitenno"],
        table_sizes=[3],
        forbidden=[[carol.player.pk, regulars[0].player.pk]],
    )
    for user in [alice, carol, *regulars[:4]]:
        services.night_check_in(night=night, user=user)
    night_round = services.round_propose(night=night, user=alice)
    rivals = {carol.player.pk, regulars[0].player.pk}
    one, two = selectors.round_tables(night_round)
    a = next(p for p in one["players"] if p not in rivals)
    b = next(p for p in two["players"] if p not in rivals)
    services.tables_swap(night_round=night_round, user=alice, a=a, b=b)
    after = selectors.round_tables(night_round)
    assert b in after[0]["players"] and a in after[1]["players"]
    carol_table = next(t for t in after if carol.player.pk in t["players"])
    assert regulars[0].player.pk not in carol_table["players"]
    beside_carol = next(p for p in carol_table["players"] if p != carol.player.pk)
    with pytest.raises(ValidationError, match="forbidden"):
        services.tables_swap(night_round=night_round, user=alice, a=beside_carol, b=regulars[0].player.pk)
    assert selectors.round_tables(night_round) == after
    with pytest.raises(PermissionDenied):
        services.tables_swap(night_round=night_round, user=carol, a=a, b=b)
    assert selectors.round_tables(night_round) == after


def test_the_season_s_results_count_as_meetings(night, alice, carol, regulars):
    result = Result.objects.create(game="shitenno", played_on=TONIGHT, season=night.season)
    for user in (alice, carol):
        ResultEntry.objects.create(result=result, player=user.player, rank=1)
    met, seats = services._history(night, [alice.player.pk, carol.player.pk])
    assert met == {frozenset((alice.player.pk, carol.player.pk)): 1} and seats == {}


def test_nobody_can_be_seated_when_the_sizes_do_not_fit(night, alice, carol):
    services.night_check_in(night=night, user=alice)
    services.night_check_in(night=night, user=carol)
    with pytest.raises(ValidationError, match="cannot be split"):
        services.round_propose(night=night, user=alice)
    assert not NightTable.objects.exists()
    assert NightCheckIn.objects.count() == 2 and NightRound.objects.count() == 0


def test_the_api_runs_an_evening(api, season, alice, carol, dave, regulars):
    url = f"/api/seasons/{season.pk}/nights/"
    assert api.login(carol).post(url, {"date": "2026-11-26", "games": ["shitenno"]}).status_code == 403
    refused = api.login(alice).post(url, {"date": "2026-11-26", "games": ["go"]})
    assert refused.status_code == 400 and "games" in refused.json()["errors"]
    assert not Night.objects.exists()
    opened = api.post(url, {"date": "2026-11-26", "games": ["shitenno"], "table_sizes": [3]})
    assert opened.status_code == 201, opened.content
    night = opened.json()["id"]
    for user in [carol, *regulars[:4]]:
        assert api.login(user).post(f"/api/nights/{night}/check-in/").status_code == 200
    assert api.login(dave).post(f"/api/nights/{night}/check-in/").status_code in (403, 404)
    api.login(alice).post(f"/api/nights/{night}/check-in/", {"player": alice.player.pk})
    assert api.login(carol).post(f"/api/nights/{night}/rounds/").status_code == 403
    proposed = api.login(alice).post(f"/api/nights/{night}/rounds/")
    assert proposed.status_code == 201, proposed.content
    one, two = proposed.json()["tables"]
    swapped = api.post(f"/api/nights/{night}/rounds/1/swap/", {"a": one["players"][0], "b": two["players"][0]})
    assert swapped.status_code == 200 and swapped.json()["tables"][0]["players"][0] == two["players"][0]
    bad = api.post(f"/api/nights/{night}/rounds/1/swap/", {"a": one["players"][0], "b": 999999})
    assert bad.status_code == 400 and api.get(f"/api/nights/{night}/").json()["rounds"][0] == swapped.json()
    locked = api.post(f"/api/nights/{night}/rounds/1/tables/0/lock/", {"locked": True})
    assert locked.status_code == 200 and locked.json()["locked"]
    again = api.post(f"/api/nights/{night}/rounds/").json()
    assert again["number"] == 1 and again["tables"][0] == locked.json()
    assert api.login(carol).post(f"/api/nights/{night}/rounds/1/open/").status_code == 403
    assert api.get(f"/api/nights/{night}/").json()["rounds"][0]["opened_at"] is None
    opened = api.login(alice).post(f"/api/nights/{night}/rounds/1/open/")
    assert opened.status_code == 200 and all(t["session"] for t in opened.json()["tables"])
    assert sorted(api.get(f"/api/nights/{night}/").json()["present"]) == sorted(
        u.player.pk for u in [alice, carol, *regulars[:4]]
    )


def test_a_refusal_is_said_in_dutch(season, alice):
    from django.utils import translation

    with translation.override("nl"), pytest.raises(ValidationError) as refused:
        services.night_open(season=season, user=alice, date=TONIGHT, games=[])
    assert refused.value.message_dict["games"] == ["Bied minstens één spel aan."]
    assert not Night.objects.exists()


def test_opening_the_tables_fills_their_seats_and_the_next_round_follows(night, alice, carol, regulars):
    from games.models import TableSession

    for user in [alice, carol, *regulars[:4]]:
        services.night_check_in(night=night, user=user)
    first = services.round_propose(night=night, user=alice)
    with pytest.raises(PermissionDenied):
        services.tables_open(night_round=first, user=carol)
    assert not TableSession.objects.exists()
    services.tables_open(night_round=first, user=alice)
    tables = selectors.round_tables(first)
    for table in tables:
        session = TableSession.objects.get(code=table["session"])
        assert [s.player_id for s in session.seats.order_by("position")] == table["players"]
        assert session.club_id == night.season.league.club_id
    with pytest.raises(ValidationError, match="open already"):
        services.tables_swap(night_round=first, user=alice, a=tables[0]["players"][0], b=tables[1]["players"][0])
    second = services.round_propose(night=night, user=alice)
    assert second.number == 2 and seated(second) == seated(first)
    met, _seats = services._history(night, seated(first))
    assert met[frozenset(tables[0]["players"][:2])] == services.TONIGHT_WEIGHT


def test_the_night_s_history_is_read_in_the_same_queries_however_many_tables_were_opened(night, alice, regulars):
    """What the optimiser is told (who met whom, who sat where) costs the same after one opened round as after
    three: a round's tables are read with their round, not one query a table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    ids = [alice.player.pk, *(user.player.pk for user in regulars)]

    def open_round(number):
        night_round = NightRound.objects.create(night=night, number=number, opened_at=timezone.now())
        for position in range(2):
            NightTable.objects.create(
                round=night_round, position=position, game="shitenno", players=ids[position * 3 : position * 3 + 3]
            )

    def history_queries():
        with CaptureQueriesContext(connection) as read:
            met, seats = services._history(night, ids)
        return len(read.captured_queries), met, seats

    open_round(1)
    after_one, met, _seats = history_queries()
    open_round(2)
    open_round(3)
    after_three, met, seats = history_queries()
    assert after_three == after_one
    assert met[frozenset((ids[0], ids[1]))] == 3 * services.TONIGHT_WEIGHT  # three rounds together tonight
    assert seats[(ids[0], "shitenno")] == (3,)  # seat 0 at each


def test_a_locked_table_keeps_its_number_when_the_round_is_proposed_again(night, alice, carol, regulars, club):
    """Its players were told "table 3": proposing again around it must not make it table 1."""
    extra = players.user_sign_up(username="jun", email="jun@example.org", password="a long passphrase 42")
    clubs.club_join(token=club.invite_token, user=extra)
    for user in [alice, carol, *regulars, extra]:
        services.night_check_in(night=night, user=user)
    night_round = services.round_propose(night=night, user=alice)
    third = night_round.tables.get(position=2)
    assert night_round.tables.count() == 3
    services.table_lock(table=third, user=alice, locked=True)
    services.round_propose(night=night, user=alice)
    again = night_round.tables.get(locked=True)
    assert again.pk == third.pk and again.position == 2 and again.players == third.players
    assert sorted(night_round.tables.values_list("position", flat=True)) == [0, 1, 2]
    assert sorted(seated(night_round)) == sorted(user.player.pk for user in [alice, carol, *regulars, extra])
