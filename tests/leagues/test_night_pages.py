# ruff: noqa: F811  (the fixtures imported from test_nights are parameters here, by name)
"""League night pages (issue 25): who may open, run, check in to and watch a night; every refusal answers with a
4xx and leaves the night as it was."""

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import BoardSetup, TableSession
from leagues.club import seasons
from leagues.models import Night, NightCheckIn, NightRound, NightTable, Result, ResultEntry
from leagues.nights import pods, selectors, services
from tests.games.engines.samurai_empires.tables import random_legal_game as sse_game
from tests.leagues.league_helpers import TONIGHT, thursday_season  # noqa: F401 (the `season` fixture)
from tests.leagues.test_nights import night, regulars  # noqa: F401 (fixtures)


def as_user(client, user):
    client.force_login(user)
    return client


def tables_of(night):
    night_round = night.rounds.order_by("-number").first()
    return selectors.round_tables(night_round) if night_round else []


@pytest.fixture
def six(night, alice, carol, regulars):
    """Six players checked in: two tables of three."""
    for user in [alice, carol, *regulars[:4]]:
        services.night_check_in(night=night, user=user)
    return night


def test_a_manager_opens_a_night_from_the_season_page(client, season, alice, carol):
    url = reverse("season_nights", args=[season.pk])
    page = as_user(client, alice).get(url)
    assert page.status_code == 200 and b"Open the night" in page.content
    opened = client.post(url, {"date": TONIGHT.isoformat(), "games": ["shitenno"], "table_sizes": ["3", "4"]})
    night = Night.objects.get()
    assert opened.status_code == 302 and opened["Location"] == reverse("night_detail", args=[night.pk])
    assert night.games == ["shitenno"] and night.table_sizes == [3, 4]
    league = reverse("league_detail", args=[season.league_id])
    assert url.encode() in client.get(league).content  # the league page leads to its season's nights


@pytest.mark.parametrize(
    "data",
    [
        {"date": TONIGHT.isoformat(), "games": [], "table_sizes": ["3"]},
        {"date": TONIGHT.isoformat(), "games": ["go"], "table_sizes": ["3"]},
        {"date": "2027-06-01", "games": ["shitenno"], "table_sizes": ["3"]},  # after the season
        {"date": TONIGHT.isoformat(), "games": ["shitenno"], "table_sizes": ["6"]},  # Shitennō seats at most four
    ],
)
def test_a_bad_night_is_refused_with_400_and_nothing_opened(client, season, alice, data):
    refused = as_user(client, alice).post(reverse("season_nights", args=[season.pk]), data)
    assert refused.status_code == 400 and b'class="error"' in refused.content
    assert not Night.objects.exists()


def test_a_member_cannot_open_a_night_nor_run_one(client, season, night, carol):
    as_user(client, carol)
    page = client.get(reverse("season_nights", args=[season.pk]))
    assert page.status_code == 200 and b"Open the night" not in page.content
    assert (
        client.post(
            reverse("season_nights", args=[season.pk]),
            {"date": TONIGHT.isoformat(), "games": ["shitenno"], "table_sizes": ["3"]},
        ).status_code
        == 403
    )
    assert Night.objects.count() == 1
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 403


def test_a_member_finds_the_night_s_check_in_on_the_season_s_nights(client, season, night, carol, dave):
    """The QR on the organiser's phone is not the only way in: a member who opens the league finds the check-in."""
    check_in = reverse("night_check_in", args=[night.pk]).encode()
    page = as_user(client, carol).get(reverse("season_nights", args=[season.pk]), HTTP_ACCEPT_LANGUAGE="nl")
    assert page.status_code == 200 and check_in in page.content and "Inchecken" in page.content.decode()
    club = season.league.club
    club.members_public = True
    club.save(update_fields=["members_public"])
    client.logout()
    visitor = client.get(reverse("season_nights", args=[season.pk]))
    assert visitor.status_code == 200 and check_in not in visitor.content  # not a member: no check-in offered


def test_a_private_club_s_night_is_not_found_by_outsiders(client, night, dave):
    for url in (
        reverse("night_detail", args=[night.pk]),
        reverse("night_check_in", args=[night.pk]),
        reverse("night_standings", args=[night.pk]),
        reverse("season_nights", args=[night.season_id]),
    ):
        assert as_user(client, dave).get(url).status_code == 404, url
    client.logout()
    assert client.get(reverse("night_standings", args=[night.pk])).status_code == 404


def test_the_organiser_screen_shows_the_check_in_qr_and_ticks_names(client, night, alice, regulars):
    page = as_user(client, alice).get(reverse("night_detail", args=[night.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and reverse("night_check_in", args=[night.pk]) in html
    bob = regulars[0].player
    ticked = client.post(
        reverse("night_tick", args=[night.pk]), {"player": bob.pk, "present": "1"}, headers={"HX-Request": "true"}
    )
    assert ticked.status_code == 200 and 'aria-pressed="true">✓ bob' in ticked.content.decode()
    assert selectors.night_present(night) == [bob.pk]
    client.post(reverse("night_tick", args=[night.pk]), {"player": bob.pk, "present": "0"})
    assert selectors.night_present(night) == []
    assert client.post(reverse("night_tick", args=[night.pk]), {"player": "bob"}).status_code == 400


def test_a_member_checks_in_with_one_tap_then_leaves_early(client, season, night, carol, dave):
    url = reverse("night_check_in", args=[night.pk])
    assert as_user(client, carol).get(url).status_code == 200
    assert client.post(url, {}).status_code == 302
    assert selectors.night_present(night) == [carol.player.pk]
    checked_in = client.get(url).content.decode()
    assert "You are checked in." in checked_in
    # leaving is asked once more: a tap on "Leaving early" opens the question, the button inside it leaves
    assert "<summary>Leaving early</summary>" in checked_in and "Yes, I am leaving" in checked_in
    refused = client.post(url, {"only_game": "teikoku"})  # not on offer tonight
    assert refused.status_code == 400 and NightCheckIn.objects.get().only_game == ""
    client.post(url, {"action": "leave"})
    assert selectors.night_present(night) == [] and NightCheckIn.objects.get().left_at is not None
    season.league.club.members_public = True
    season.league.club.save()
    assert as_user(client, dave).get(url).status_code == 403  # a public club, but dave is not a member
    assert client.post(url, {}).status_code == 403 and NightCheckIn.objects.count() == 1


def test_check_in_needs_a_log_in(client, night):
    answer = client.get(reverse("night_check_in", args=[night.pk]))
    assert answer.status_code == 302 and reverse("login") in answer["Location"]


def test_the_organiser_proposes_swaps_by_two_taps_locks_and_proposes_again(client, six, alice):
    night = six
    as_user(client, alice)
    proposed = client.post(reverse("night_propose", args=[night.pk]), headers={"HX-Request": "true"})
    assert proposed.status_code == 200 and "Table 2: Shitennō" in proposed.content.decode()
    assert proposed.content.decode().count("% to win") == 6  # each seat's chance, from the players' ratings
    # three new players at a table of three: a third each, said in percent (not the fraction 0.33 rounded to 0)
    assert proposed.content.decode().count(">33% to win<") == 6
    one, two = tables_of(night)
    a, b = one["players"][0], two["players"][1]
    picked = client.get(
        reverse("night_detail", args=[night.pk]), {"part": "round", "pick": a}, headers={"HX-Request": "true"}
    )
    assert picked.content.decode().count('aria-pressed="true"') == 1  # the first tap marks the player
    assert f'name="a" value="{a}"' in picked.content.decode()
    swapped = client.post(reverse("night_swap", args=[night.pk, 1]), {"a": a, "b": b}, headers={"HX-Request": "true"})
    assert swapped.status_code == 200
    after = tables_of(night)
    assert after[0]["players"][0] == b and after[1]["players"][1] == a
    client.post(reverse("night_table_lock", args=[night.pk, 1, 0]), {"locked": "1"})
    kept = tables_of(night)[0]
    assert kept["locked"]
    client.post(reverse("night_propose", args=[night.pk]))
    assert tables_of(night)[0] == kept and NightRound.objects.count() == 1


@pytest.mark.parametrize("data", [{"a": "x", "b": "1"}, {"a": "1"}, {"a": "999999", "b": "999998"}])
def test_a_bad_swap_is_a_400_and_changes_nothing(client, six, alice, data):
    as_user(client, alice).post(reverse("night_propose", args=[six.pk]))
    before = tables_of(six)
    if data.get("a") == "1":
        data = {"a": str(before[0]["players"][0])}
    refused = client.post(reverse("night_swap", args=[six.pk, 1]), data, headers={"HX-Request": "true"})
    assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()
    assert tables_of(six) == before


def test_a_member_cannot_propose_swap_lock_or_open(client, six, alice, carol):
    as_user(client, alice).post(reverse("night_propose", args=[six.pk]))
    before = tables_of(six)
    one, two = before
    as_user(client, carol)
    assert client.post(reverse("night_propose", args=[six.pk])).status_code == 403
    assert (
        client.post(
            reverse("night_swap", args=[six.pk, 1]), {"a": one["players"][0], "b": two["players"][0]}
        ).status_code
        == 403
    )
    assert client.post(reverse("night_table_lock", args=[six.pk, 1, 0]), {"locked": "1"}).status_code == 403
    assert client.post(reverse("night_open_tables", args=[six.pk, 1])).status_code == 403
    assert tables_of(six) == before and not TableSession.objects.exists()


def test_an_outsider_of_a_private_club_gets_404_for_every_action(client, six, alice, dave):
    as_user(client, alice).post(reverse("night_propose", args=[six.pk]))
    before = tables_of(six)
    as_user(client, dave)
    for url in (
        reverse("night_propose", args=[six.pk]),
        reverse("night_swap", args=[six.pk, 1]),
        reverse("night_open_tables", args=[six.pk, 1]),
        reverse("night_tick", args=[six.pk]),
    ):
        assert client.post(url, {"a": 1, "b": 2}).status_code == 404, url
    assert tables_of(six) == before


def test_opening_the_tables_shows_each_table_s_link_and_qr(client, six, alice):
    as_user(client, alice).post(reverse("night_propose", args=[six.pk]))
    opened = client.post(reverse("night_open_tables", args=[six.pk, 1]), headers={"HX-Request": "true"})
    html = opened.content.decode()
    sessions = TableSession.objects.order_by("pk")
    assert opened.status_code == 200 and sessions.count() == 2
    for session in sessions:
        assert session.get_absolute_url() in html
    assert html.count("<svg") == 2 and "Propose the next round" in html
    again = client.post(reverse("night_open_tables", args=[six.pk, 1]))  # opened already
    assert again.status_code == 400 and TableSession.objects.count() == 2


def test_the_night_s_standings_follow_signed_off_results_and_poll(client, six, alice, season):
    services.round_propose(night=six, user=alice)
    services.tables_open(night_round=six.rounds.get(), user=alice)
    table = tables_of(six)[0]
    url = reverse("night_standings", args=[six.pk])
    page = as_user(client, alice).get(url)
    assert (
        'data-hx-trigger="every 10s"' in page.content.decode()
        and "No game signed off tonight yet." in page.content.decode()
    )
    result = Result.objects.create(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        status=Result.Status.PENDING,
        session=TableSession.objects.get(code=table["session"]),
    )
    for rank, player in enumerate(table["players"], start=1):
        ResultEntry.objects.create(result=result, player_id=player, rank=rank)
    assert "1 waiting for sign-off" in client.get(url).content.decode()
    result.status = Result.Status.COUNTED
    result.save()
    rows = selectors.night_standings(six)["rows"]
    assert [row["player"] for row in rows] == table["players"] and rows[0]["points"] == "3"  # 3-1.5-0 at three
    polled = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert polled.startswith('<section id="night-standings"') and "1 game signed off" in polled


def test_a_public_club_s_standings_need_no_log_in(client, night):
    club = night.season.league.club
    club.members_public = True
    club.save()
    assert client.get(reverse("night_standings", args=[night.pk])).status_code == 200
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 302  # the organiser logs in


@pytest.fixture
def mixed(club, alice, carol, regulars):
    league = seasons.league_create(club=club, name="Saturday", games=["teikoku", "samurai_empires"], user=alice)
    season = seasons.season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
        user=alice,
    )
    return season


def _one_table_of(season, alice, carol, regulars, game):
    night = services.night_open(season=season, user=alice, date=TONIGHT, games=[game], table_sizes=[3])
    for user in [alice, carol, regulars[0]]:
        services.night_check_in(night=night, user=user)
    services.round_propose(night=night, user=alice)
    return night


def test_teikoku_tables_open_once_the_units_deck_is_entered(client, mixed, alice, carol, regulars):
    night = _one_table_of(mixed, alice, carol, regulars, "teikoku")
    url = reverse("night_open_tables", args=[night.pk, 1])
    page = as_user(client, alice).get(reverse("night_detail", args=[night.pk])).content.decode()
    assert 'name="count_0"' in page
    refused = client.post(url)
    assert refused.status_code == 400 and "Units deck" in refused.content.decode()
    assert client.post(url, {"count_0": "lots"}).status_code == 400
    assert not TableSession.objects.exists()
    assert client.post(url, {"count_0": "27"}).status_code == 302
    session = TableSession.objects.get()
    assert session.setup["units_deck"] == 27 and session.setup["clans"] == ["fujiwara", "minamoto", "tokugawa"]


def test_samurai_empires_tables_use_the_club_s_saved_board(client, mixed, alice, carol, regulars):
    night = _one_table_of(mixed, alice, carol, regulars, "samurai_empires")
    url = reverse("night_open_tables", args=[night.pk, 1])
    refused = as_user(client, alice).post(url)
    assert refused.status_code == 400 and "Save this board for the club as" in refused.content.decode()
    assert not TableSession.objects.exists()
    board = sse_game(1, "multiplayer", 3)[0]["board"]
    BoardSetup.objects.create(club=mixed.league.club, game="samurai_empires", name="Ours", board=board)
    assert client.post(url).status_code == 302
    assert TableSession.objects.get().setup["board"] == board
    assert NightTable.objects.get().session_id is not None


def test_the_optimiser_s_refusals_are_said_in_dutch():
    error = pods.PodsError("5 players cannot be split into tables of [4].", "unsplittable", count=5, sizes=[4])
    with translation.override("nl"):
        assert services.pods_message(error) == "5 spelers kunnen niet over tafels van 4 verdeeld worden."
    assert services.pods_message(error) == "5 players cannot be split into tables of 4."
    infeasible = pods.PodsError("No split keeps every hard rule.", "infeasible")
    with translation.override("nl"):
        assert "Geen" in services.pods_message(infeasible)
    with pytest.raises(pods.PodsError) as raised:
        pods.propose(pods.Night(players=[1, 2, 3, 4, 5], table_sizes=(4,)))
    assert raised.value.code == "unsplittable" and raised.value.params == {"count": 5, "sizes": [4]}


def test_a_proposed_round_s_chances_cost_the_same_queries_for_two_tables_as_for_three(
    client, night, alice, carol, regulars, club
):
    """Each seat's chance comes from one read of the ratings for the whole round, not one read a table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from leagues.club import clubs
    from leagues.models import Rating
    from leagues.people import players
    from leagues.rating.chances import table_chances, tables_chances

    def round_queries():
        client.post(reverse("night_propose", args=[night.pk]))
        with CaptureQueriesContext(connection) as read:
            page = client.get(
                reverse("night_detail", args=[night.pk]), {"part": "round"}, headers={"HX-Request": "true"}
            )
        assert page.status_code == 200
        return len(read.captured_queries), page.content.decode().count("% to win")

    for user in [alice, carol, *regulars[:4]]:
        services.night_check_in(night=night, user=user)
    Rating.objects.create(kind="game", key="shitenno", player=carol.player, mu=31.0, sigma=2.0, games=30)
    as_user(client, alice)
    two_tables, seats_shown = round_queries()
    assert len(tables_of(night)) == 2 and seats_shown == 6
    for name in ("jun", "kei", "lin"):
        user = players.user_sign_up(username=name, email=f"{name}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        services.night_check_in(night=night, user=user)
    three_tables, seats_shown = round_queries()
    assert len(tables_of(night)) == 3 and seats_shown == 9
    assert three_tables == two_tables
    # and the chances are those each table would get alone
    rows = tables_of(night)
    together = tables_chances([(t["game"], t["players"]) for t in rows])
    assert together == [table_chances(game=t["game"], player_ids=t["players"]) for t in rows]
    assert any(seat.rating > 1500 for table in together for seat in table)  # carol's rating was read


def test_the_night_form_offers_today_as_an_iso_date_on_a_dutch_page(client, season, alice):
    page = (
        as_user(client, alice)
        .get(reverse("season_nights", args=[season.pk]), headers={"Accept-Language": "nl"})
        .content.decode()
    )
    assert 'lang="nl"' in page
    field = page[page.index('name="date"') - 80 : page.index('name="date"') + 80]
    assert 'type="date"' in field and 'value="' in field
    value = field.split('value="', 1)[1].split('"', 1)[0]
    assert datetime.date.fromisoformat(value)  # "27-11-2026" would be dropped by the browser


@pytest.mark.parametrize(
    "language, says",
    [
        ("en", "Only members of the club can check in: ask the organiser for the club's invite link"),
        ("nl", "Alleen leden van de club kunnen inchecken: vraag de organisator om de uitnodigingslink"),
    ],
)
def test_a_newcomer_who_scans_the_check_in_code_is_told_why_and_what_to_do(client, night, dave, language, says):
    """A public club's night: a signed-up non-member who opens the check-in page gets the site's own page with the
    reason in his language, not a bare "403 Forbidden"; nothing is checked in."""
    club = night.season.league.club
    club.members_public = True
    club.save()
    page = as_user(client, dave).get(reverse("night_check_in", args=[night.pk]), headers={"Accept-Language": language})
    text = page.content.decode().replace("&#x27;", "'")
    assert page.status_code == 403
    assert says in text and f'lang="{language}"' in text and 'href="/"' in text
    assert not NightCheckIn.objects.exists()


def test_a_member_on_the_organiser_s_screen_is_told_who_may_use_it(client, night, carol):
    page = as_user(client, carol).get(reverse("night_detail", args=[night.pk]))
    assert page.status_code == 403
    assert "Only the club" in page.content.decode().replace("&#x27;", "'") and "<nav" in page.content.decode()


def test_a_checked_in_member_s_phone_leads_to_the_table_once_the_tables_open(client, six, alice, carol, regulars):
    """The check-in page asks where its member sits (every few seconds, by htmx) and links his table once the
    organiser opens the round; before that it says the table will show there."""
    url = reverse("night_check_in", args=[six.pk])
    before = as_user(client, carol).get(url, {"part": "table"}, headers={"HX-Request": "true"}).content.decode()
    assert "shows here as soon as the organiser opens the tables" in before and 'data-hx-trigger="every 10s"' in before
    services.round_propose(night=six, user=alice)
    services.tables_open(night_round=six.rounds.get(), user=alice)
    table = next(t for t in tables_of(six) if carol.player.pk in t["players"])
    page = client.get(url).content.decode()
    assert f'href="/tables/{table["session"]}/"' in page and "Go to your table" in page
    assert f"Round 1: table {table['position'] + 1}, Shitennō" in page
    polled = client.get(url, {"part": "table"}, headers={"HX-Request": "true"}).content.decode()
    assert polled.lstrip().startswith('<section id="your-table"')  # the part alone, swapped in place
    assert f'href="/tables/{table["session"]}/"' in polled
    # a latecomer who checks in after the tables opened is told to wait, with no table of someone else's
    late = regulars[4]
    services.night_check_in(night=six, user=late)
    waiting = as_user(client, late).get(url).content.decode()
    assert "Go to your table" not in waiting and "shows here as soon as" in waiting


def test_the_organiser_sees_which_tables_still_play_before_proposing_the_next_round(client, six, alice):
    services.round_propose(night=six, user=alice)
    services.tables_open(night_round=six.rounds.get(), user=alice)
    url = reverse("night_detail", args=[six.pk])

    def round_part():
        return as_user(client, alice).get(url, {"part": "round"}, headers={"HX-Request": "true"}).content.decode()

    page = round_part()
    assert page.count('<small class="tag">playing</small>') == 2 and "Go to table 1" in page
    assert "2 tables of this round are still playing" in page
    TableSession.objects.filter(code=tables_of(six)[0]["session"]).update(status=TableSession.Status.FINISHED)
    page = round_part()
    assert page.count('<small class="tag">playing</small>') == 1 and '<small class="tag">finished</small>' in page
    assert "One table of this round is still playing" in page
    TableSession.objects.update(status=TableSession.Status.FINISHED)
    assert "still playing" not in round_part()
