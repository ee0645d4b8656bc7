# ruff: noqa: F811  (the fixtures imported from test_nights are parameters here, by name)
"""A table's game (issue 34): a night may say how many boxes of each game the club has tonight; the proposal never
opens more tables of a game than its boxes and shares the tables out across the games the players accept; the
organiser sets a table's game by tap, and the next proposal keeps it like a lock. Refusals change nothing."""

import datetime
import random
from itertools import product

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from leagues.club import clubs, seasons
from leagues.models import Night, NightTable
from leagues.nights import pods, selectors, services, table_games
from leagues.people import players
from tests.leagues.league_helpers import TONIGHT

SSE, SHITENNO, TEIKOKU = "samurai_empires", "shitenno", "teikoku"


@pytest.fixture
def season(club, alice):
    league = seasons.league_create(club=club, name="Tuesday", games=[SHITENNO, SSE, TEIKOKU, "Go"], user=alice)
    return seasons.season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2026, 11, 1),
        ends_on=datetime.date(2027, 2, 28),
        user=alice,
    )


@pytest.fixture
def members(club, alice, carol):
    """alice, carol and ten more: twelve members."""
    users = [alice, carol]
    for n in range(10):
        user = players.user_sign_up(username=f"m{n}", email=f"m{n}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        users.append(user)
    return users


def games_of(night_round):
    return sorted(t["game"] for t in selectors.round_tables(night_round))


def open_night(season, alice, users, **kwargs):
    night = services.night_open(season=season, user=alice, date=TONIGHT, **kwargs)
    for user in users:
        services.night_check_in(night=night, user=user)
    return night


def tables_snapshot(night):
    return list(
        NightTable.objects.filter(round__night=night)
        .order_by("pk")
        .values_list("position", "game", "players", "locked")
    )


# --- the games shared out ------------------------------------------------------------------------------------


def test_eight_players_accepting_both_games_get_one_table_of_each_every_time(season, alice, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO, SSE], table_sizes=[4])
    first = services.round_propose(night=night, user=alice)
    assert games_of(first) == [SSE, SHITENNO]
    again = services.round_propose(night=night, user=alice)
    assert games_of(again) == [SSE, SHITENNO]


def test_a_player_who_plays_one_game_only_sits_at_a_table_of_it(season, alice, members):
    night = open_night(season, alice, members[:7], games=[SHITENNO, SSE], table_sizes=[4])
    services.night_check_in(night=night, user=members[7], only_game=SHITENNO)
    night_round = services.round_propose(night=night, user=alice)
    [his] = [t for t in selectors.round_tables(night_round) if members[7].player.pk in t["players"]]
    assert his["game"] == SHITENNO and games_of(night_round) == [SSE, SHITENNO]


def test_never_more_tables_of_a_game_than_its_boxes(season, alice, members):
    night = open_night(season, alice, members, games=[SHITENNO, TEIKOKU], table_sizes=[4], boxes={TEIKOKU: 1})
    assert games_of(services.round_propose(night=night, user=alice)) == [SHITENNO, SHITENNO, TEIKOKU]


def test_short_of_boxes_the_players_sit_at_fewer_larger_tables(season, alice, members):
    """Twelve players at tables of 3 or 4 with three boxes: three tables of four, not four of three."""
    night = open_night(
        season, alice, members, games=[SHITENNO, TEIKOKU], table_sizes=[3, 4], boxes={SHITENNO: 2, TEIKOKU: 1}
    )
    tables = selectors.round_tables(services.round_propose(night=night, user=alice))
    assert sorted(len(t["players"]) for t in tables) == [4, 4, 4]
    assert sorted(t["game"] for t in tables) == [SHITENNO, SHITENNO, TEIKOKU]


def test_too_few_boxes_is_refused_and_nothing_is_proposed(season, alice, members):
    night = open_night(
        season, alice, members, games=[SHITENNO, TEIKOKU], table_sizes=[3, 4], boxes={SHITENNO: 1, TEIKOKU: 1}
    )
    with pytest.raises(ValidationError, match="boxes cannot seat everyone: the split needs 3 tables"):
        services.round_propose(night=night, user=alice)
    assert not NightTable.objects.exists()


# --- the boxes on the night ----------------------------------------------------------------------------------


@pytest.mark.parametrize("boxes", [{TEIKOKU: 1}, {SHITENNO: 0}, {SHITENNO: 100}, {SHITENNO: True}, {SHITENNO: "2"}])
def test_bad_boxes_are_refused_and_no_night_is_opened(season, alice, boxes):
    with pytest.raises(ValidationError) as refused:
        services.night_open(season=season, user=alice, date=TONIGHT, games=[SHITENNO], boxes=boxes)
    assert "boxes" in refused.value.message_dict
    assert not Night.objects.exists()


def test_a_league_game_the_site_has_no_tables_for_is_refused_when_the_night_opens(season, alice):
    with pytest.raises(ValidationError) as refused:
        services.night_open(season=season, user=alice, date=TONIGHT, games=[SHITENNO, "Go"])
    assert refused.value.message_dict["games"] == [
        "The site has no tables for Go: a night offers only games played on the site."
    ]
    assert not Night.objects.exists()


def test_the_api_takes_and_shows_the_boxes_and_refuses_bad_ones(api, season, alice):
    api.login(alice)
    url = f"/api/seasons/{season.pk}/nights/"
    for bad in ({SHITENNO: 0}, {TEIKOKU: 2}, {SHITENNO: "2"}, [SHITENNO]):
        refused = api.post(url, {"date": TONIGHT.isoformat(), "games": [SHITENNO], "boxes": bad})
        assert refused.status_code == 400 and "boxes" in refused.json()["errors"], bad
    assert not Night.objects.exists()
    opened = api.post(url, {"date": TONIGHT.isoformat(), "games": [SHITENNO, SSE], "boxes": {SSE: 2}})
    assert opened.status_code == 201 and opened.json()["boxes"] == {SSE: 2}
    assert api.get(f"/api/nights/{opened.json()['id']}/").json()["boxes"] == {SSE: 2}
    go = api.post(url, {"date": TONIGHT.isoformat(), "games": ["Go"]})
    assert go.status_code == 400 and "games" in go.json()["errors"]
    assert Night.objects.count() == 1


def test_the_night_s_form_asks_for_the_boxes(client, season, alice):
    client.force_login(alice)
    url = reverse("season_nights", args=[season.pk])
    assert "Boxes of Small Samurai Empires tonight" in client.get(url).content.decode()
    assert "Dozen Small Samurai Empires vanavond" in client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    refused = client.post(
        url, {"date": TONIGHT.isoformat(), "games": [SHITENNO], "table_sizes": ["4"], f"boxes_{SSE}": "2"}
    )  # boxes for a game not ticked: said, not dropped
    assert refused.status_code == 400 and "Boxes named for a game not on offer tonight" in refused.content.decode()
    assert not Night.objects.exists()
    client.post(
        url,
        {
            "date": TONIGHT.isoformat(),
            "games": [SHITENNO, SSE],
            "table_sizes": ["4"],
            f"boxes_{SSE}": "2",
            f"boxes_{SHITENNO}": "",
        },
    )
    assert Night.objects.get().boxes == {SSE: 2}


# --- the organiser sets a table's game -----------------------------------------------------------------------


@pytest.fixture
def two_tables(season, alice, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO, SSE, TEIKOKU], table_sizes=[4], boxes={TEIKOKU: 1})
    return night, services.round_propose(night=night, user=alice)


def test_a_table_s_game_set_by_the_api_is_kept_by_the_next_proposal(api, two_tables, alice):
    night, night_round = two_tables
    table = night_round.tables.get(position=1)
    api.login(alice)
    set_game = api.post(f"/api/nights/{night.pk}/rounds/1/tables/1/game/", {"game": TEIKOKU})
    assert set_game.status_code == 200
    assert set_game.json() | {"players": None} == {
        "position": 1,
        "game": TEIKOKU,
        "players": None,
        "locked": True,
        "session": None,
        "finished": False,
    }
    again = services.round_propose(night=night, user=alice)
    kept = again.tables.get(position=1)
    assert (kept.game, kept.players, kept.locked) == (TEIKOKU, table.players, True)
    assert again.tables.get(position=0).game != TEIKOKU  # its one box is at table 2


@pytest.mark.parametrize(
    "game, says",
    [
        ("Go", "Go is not on offer tonight."),
        ("chess", "chess is not on offer tonight."),
    ],
)
def test_a_game_not_on_offer_is_refused_and_the_table_stays(api, two_tables, alice, game, says):
    night, _round = two_tables
    before = tables_snapshot(night)
    api.login(alice)
    refused = api.post(f"/api/nights/{night.pk}/rounds/1/tables/0/game/", {"game": game})
    assert refused.status_code == 400 and refused.json()["errors"]["game"] == [says]
    assert tables_snapshot(night) == before


def test_a_game_whose_boxes_are_all_in_use_is_refused_and_the_table_stays(two_tables, alice):
    night, night_round = two_tables
    services.table_game_set(table=night_round.tables.get(position=0), user=alice, game=TEIKOKU)
    before = tables_snapshot(night)
    with pytest.raises(ValidationError, match="Every box of Teikoku is at another table of this round."):
        services.table_game_set(table=night_round.tables.get(position=1), user=alice, game=TEIKOKU)
    assert tables_snapshot(night) == before


def test_a_game_a_player_at_the_table_does_not_play_is_refused(season, alice, members):
    night = open_night(season, alice, members[:7], games=[SHITENNO, SSE], table_sizes=[4])
    services.night_check_in(night=night, user=members[7], only_game=SSE)
    night_round = services.round_propose(night=night, user=alice)
    [his] = [t for t in night_round.tables.all() if members[7].player.pk in t.players]
    before = tables_snapshot(night)
    with pytest.raises(ValidationError, match="plays another game only"):
        services.table_game_set(table=his, user=alice, game=SHITENNO)
    assert tables_snapshot(night) == before


def test_a_game_that_does_not_seat_the_table_s_size_is_refused(season, alice, members):
    """Nine players at tables of four or five: the table of five can only be Small Samurai Empires (Shitennō seats
    two to four)."""
    night = open_night(season, alice, members[:9], games=[SHITENNO, SSE], table_sizes=[4, 5])
    night_round = services.round_propose(night=night, user=alice)
    five = next(t for t in night_round.tables.all() if len(t.players) == 5)
    assert five.game == SSE
    before = tables_snapshot(night)
    with pytest.raises(ValidationError, match=f"Shitennō does not seat the 5 players of table {five.position + 1}"):
        services.table_game_set(table=five, user=alice, game=SHITENNO)
    assert tables_snapshot(night) == before


def test_a_member_cannot_set_a_game_nor_can_anyone_once_the_tables_are_open(api, season, alice, carol, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO], table_sizes=[4])
    night_round = services.round_propose(night=night, user=alice)
    before = tables_snapshot(night)
    api.login(carol)
    assert api.post(f"/api/nights/{night.pk}/rounds/1/tables/0/game/", {"game": SHITENNO}).status_code == 403
    assert tables_snapshot(night) == before
    services.tables_open(night_round=night_round, user=alice)
    before = tables_snapshot(night)
    api.login(alice)
    refused = api.post(f"/api/nights/{night.pk}/rounds/1/tables/0/game/", {"game": SHITENNO})
    assert refused.status_code == 400 and "open already" in refused.json()["errors"]["round"][0]
    assert tables_snapshot(night) == before


def test_the_organiser_taps_a_game_on_the_page(client, two_tables, alice):
    night, night_round = two_tables
    client.force_login(alice)
    page = client.get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "Play Teikoku at table 2" in page
    url = reverse("night_table_game", args=[night.pk, 1, 1])
    assert client.post(url, {"game": TEIKOKU}, HTTP_HX_REQUEST="true").status_code == 200
    table = night_round.tables.get(position=1)
    assert (table.game, table.locked) == (TEIKOKU, True)
    refused = client.post(
        reverse("night_table_game", args=[night.pk, 1, 0]),
        {"game": TEIKOKU},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert refused.status_code == 400
    assert "Elke doos Teikoku ligt al op een andere tafel van deze ronde." in refused.content.decode()
    assert night_round.tables.get(position=0).game != TEIKOKU


# --- the rule itself, against every assignment -----------------------------------------------------------------


def brute_force(options, locked_load, boxes, games):
    """The least sum of squares of tables per game over every assignment within the boxes (None: none fits)."""
    best = None
    for choice in product(*options):
        load = dict(locked_load)
        for game in choice:
            load[game] = load.get(game, 0) + 1
        if any(load.get(g, 0) > boxes.get(g, 99) for g in games):
            continue
        cost = sum(n * n for n in load.values())
        best = cost if best is None else min(best, cost)
    return best


@pytest.mark.parametrize("seed", range(300))
def test_the_games_are_shared_out_as_evenly_as_the_boxes_and_players_allow(seed):
    rng = random.Random(seed)
    games = ["a", "b", "c"][: rng.randint(2, 3)]
    sizes = {g: (4,) for g in games}
    tables, accepts = [], {}
    for t in range(rng.randint(1, 6)):
        seated = (4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3)
        if rng.random() < 0.5:  # one player of the table plays some games only
            accepts[seated[0]] = set(rng.sample(games, rng.randint(1, len(games))))
        tables.append(pods.Table(seated, rng.choice(games)))
    locked = [pods.Table((-1 - n, -2 - n, -3 - n, -4 - n), rng.choice(games), True) for n in range(rng.randint(0, 2))]
    boxes = {g: rng.randint(1, 4) for g in games if rng.random() < 0.6}
    options = [table_games.fitting_games(t.players, offered=games, sizes=sizes, accepts=accepts) for t in tables]
    locked_load = {}
    for table in locked:
        locked_load[table.game] = locked_load.get(table.game, 0) + 1
    best = brute_force(options, locked_load, boxes, games)
    if any(locked_load.get(g, 0) > boxes.get(g, 99) for g in games):
        return  # the service never lets locked tables take more than the boxes
    chosen = table_games.assign(tables, locked=locked, offered=games, sizes=sizes, accepts=accepts, boxes=boxes)
    if best is None:
        assert chosen is None
        return
    assert all(game in fits for game, fits in zip(chosen, options, strict=True))
    load = dict(locked_load)
    for game in chosen:
        load[game] = load.get(game, 0) + 1
    assert all(load.get(g, 0) <= boxes.get(g, 99) for g in games)
    assert sum(n * n for n in load.values()) == best
