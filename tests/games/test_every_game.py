"""The shared site with every game: each registered game and Pile, the game registered only in the tests
(tests/games/tiny, six seats, no final-count calculator, no statistics), through the shared new-table page, the
tables API, the table's pages and a league night. Nothing here names a game: what a test needs of one it asks
the game (tests/games/every_game.py), so a fourth game runs here as soon as it is registered.

A game's own moves through its own forms are its page test's (docs/games.md, the checklist).
"""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import MoveEvent, TableSession
from leagues.club import clubs, seasons
from leagues.models import Result
from leagues.nights import services as nights
from leagues.people import players
from leagues.people.players import player_for_user
from tests.games import every_game
from tests.games.every_game import SLUGS

pytestmark = pytest.mark.django_db
SEED = 4  # a legal game from this seed seats as many as a game's demo offers (Pile: six)


def _members(club, count: int) -> list:
    """`count` members of the club, their owner alice first."""
    users = [m.player.user for m in club.memberships.select_related("player__user").order_by("pk")]
    for n in range(len(users), count):
        user = players.user_sign_up(
            username=f"member{n}", email=f"member{n}@example.org", password="a long passphrase 42"
        )
        clubs.club_join(token=club.invite_token, user=user)
        users.append(user)
    return users[:count]


@pytest.mark.parametrize("any_game", SLUGS, indirect=True)
def test_the_new_table_page_offers_the_game_and_the_home_page_lists_it(any_game, client, alice):
    client.force_login(alice)
    page = client.get(reverse("table_new") + f"?game={any_game.slug}")
    assert page.status_code == 200
    body = page.content.decode()
    assert f'name="game" value="{any_game.slug}"' in body and f'aria-current="page">{any_game.name}</a>' in body
    assert f"?game={any_game.slug}" in client.get("/").content.decode()


@pytest.mark.parametrize("any_game", SLUGS, indirect=True)
def test_a_legal_game_played_through_the_api_finishes_and_the_pages_show_it(any_game, api, club):
    setup, moves = every_game.legal_game(any_game.slug, SEED)
    users = _members(club, every_game.seats(any_game.slug, setup))
    alice = users[0]
    created = api.login(alice).post(
        "/api/tables/", {"game": any_game.slug, "players": [player_for_user(u).pk for u in users], "setup": setup}
    )
    assert created.status_code == 201, created.json()
    code = created.json()["code"]
    session = TableSession.objects.get(code=code)
    pages = [session.get_absolute_url(), reverse("table_history", args=[code])]
    for seq, move in enumerate(moves):
        if seq == len(moves) // 2:  # half way: a stale sequence is refused with the head, and nothing is written
            stale = api.post(f"/api/tables/{code}/moves/", {"seq": seq - 1, "move": move})
            assert stale.status_code == 409 and stale.json()["head_seq"] == seq
            assert MoveEvent.objects.filter(session=session).count() == seq
            assert all(api.client.get(url).status_code == 200 for url in pages)  # a game under way
        answer = api.post(f"/api/tables/{code}/moves/", {"seq": seq, "move": move})
        assert answer.status_code == 201, (seq, answer.json())
    table = api.get(f"/api/tables/{code}/").json()
    assert table["status"] == "finished" and table["head_seq"] == len(moves)
    assert api.get(f"/api/tables/{code}/score/").json()["score"] == any_game.engine.score(
        any_game.engine.initial_state(setup) if not moves else _end(any_game, setup, moves)
    )
    for url in pages:
        assert api.client.get(url).status_code == 200
    if len(users) >= 2:  # a finished table of two or more hands its placings to the leagues
        result = Result.objects.get(session=session)
        assert result.game == any_game.slug and result.entries.count() == len(users)


def _end(game, setup: dict, moves: list[dict]) -> dict:
    state = game.engine.initial_state(setup)
    for move in moves:
        state = game.engine.apply(state, move)
    return state


@pytest.mark.parametrize("any_game", SLUGS, indirect=True)
def test_a_league_night_opens_the_games_tables_or_says_why_naming_the_table(any_game, club, alice, client):
    """A game's `night_setup` opens the table by itself, or refuses with the reason, naming the table (a club's
    board not saved yet, a deck not counted): all or nothing."""
    import datetime

    engine = any_game.engine
    size = max(engine.min_players, 2)
    league = seasons.league_create(club=club, name="Thursday", games=[any_game.slug], user=alice)
    season = seasons.season_create(
        league=league,
        name="Autumn",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
        user=alice,
    )
    night = nights.night_open(
        season=season, user=alice, date=datetime.date(2026, 11, 26), games=[any_game.slug], table_sizes=[size]
    )
    for user in _members(club, size):
        nights.night_check_in(night=night, user=user)
    night_round = nights.round_propose(night=night, user=alice)
    try:
        nights.tables_open(night_round=night_round, user=alice)
    except ValidationError as refused:
        assert "Table 1" in " ".join(refused.messages)
        assert not TableSession.objects.exists()
    else:
        session = TableSession.objects.get()
        assert session.game == any_game.slug and session.seats.count() == size
    client.force_login(alice)
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 200


@pytest.mark.parametrize("any_game", SLUGS, indirect=True)
def test_site_css_hides_the_seats_past_every_player_count_the_game_offers(any_game):
    """The new-table page shows only as many seats as the count asks (site.css, one rule per count): a game seating
    more than the rules cover would always show its last seats."""
    from django.conf import settings

    css = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
    engine = any_game.engine
    for count in range(engine.min_players, engine.max_players):
        keep = ", ".join(f'[data-seat="{seat}"]' for seat in range(1, count + 1))
        rule = f'form:has(input[name="players_count"][value="{count}"]:checked) [data-seat]:not({keep})'
        assert rule in css, f"static/css/site.css hides no seat past {count} players ({any_game.slug})"
