"""One name for each game (issue 40): a registered game named by its slug or its name, in any case, with or without
its accents, is one game, stored by its slug; a game the site does not know keeps the name it was given."""

import datetime
import importlib

import pytest
from django.apps import apps as django_apps
from django.utils import timezone

from games.engines import REGISTRY
from games.registry import game_key, one_name, registered_slug
from leagues.club import seasons
from leagues.jobs import outbox
from leagues.models import League, LeagueJob, Rating, RatingEvent, Result
from leagues.rating import store as rating_store

from .league_helpers import enter, join, league_with_season, sign_all

pytestmark = pytest.mark.django_db

SHITENNO = "shitenno"


@pytest.mark.parametrize("written", ["shitenno", "Shitennō", "SHITENNŌ", "shitennō", "SHITENNO", "  Shitenno "])
def test_every_spelling_of_a_registered_game_is_its_slug(written):
    assert REGISTRY[SHITENNO].name == "Shitennō"  # the name /api/games/ gives
    assert one_name(written) == SHITENNO and registered_slug(written) == SHITENNO


def test_a_name_of_several_words_and_the_slug_written_with_spaces_are_the_game():
    for slug, engine in REGISTRY.items():
        assert one_name(engine.name.upper()) == slug
        assert one_name(slug.replace("_", " ").title()) == slug


def test_a_game_the_site_does_not_know_keeps_its_name_and_never_takes_a_registered_one():
    assert one_name("  Go ") == "Go" and registered_slug("Go") is None
    assert one_name("Shitennō deluxe") == "Shitennō deluxe"  # another game, though it starts the same
    assert registered_slug("") is None and registered_slug("  ") is None and registered_slug("!!") is None
    assert game_key("Shitennō") == game_key("SHITENNO") != game_key("Shitennō deluxe")


def _five_players(*users):
    from leagues.models import Player

    return [user.player for user in users] + [Player.objects.create(name="eve")]


def _public_league(club, alice, bob, games):
    club.members_public = True
    club.save()
    join(club, bob)
    return seasons.league_create(club=club, name="Names league", games=games, user=alice)


def test_a_league_made_with_names_stores_slugs_once(club, alice, bob):
    league = _public_league(club, alice, bob, ["Shitennō", "SHITENNO", "shitenno", "Go"])
    assert league.games == [SHITENNO, "Go"]


def test_a_result_entered_by_the_game_s_name_counts_in_the_game_s_one_rating_scope(club, alice, bob, carol):
    _league, season = league_with_season(club, alice)
    club.members_public = True
    club.save()
    join(club, bob)
    for written in ("shitenno", "Shitennō", "SHITENNO"):
        result = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)], game=written), bob)
        assert result.game == SHITENNO and result.status == "counted"
        rating_store.ratings_apply_result(result=result)
    assert Rating.objects.get(kind="game", key=SHITENNO, player=alice.player).games == 3
    assert not Rating.objects.filter(kind="game").exclude(key=SHITENNO).exists()


def test_the_api_takes_the_name_for_a_result_and_for_the_ratings(api, club, alice, bob, carol):
    league, season = league_with_season(club, alice)
    join(club, bob)
    api.login(alice)
    body = {
        "game": "Shitennō",
        "played_on": str(timezone.localdate()),
        "season": season.pk,
        "entries": [
            {"player": alice.player.pk, "rank": 1, "score": 31},
            {"player": bob.player.pk, "rank": 2, "score": 20},
        ],
    }
    answer = api.post("/api/results/", body)
    assert answer.status_code == 201, answer.content
    assert answer.json()["game"] == SHITENNO and Result.objects.get(pk=answer.json()["id"]).game == SHITENNO
    Rating.objects.create(kind="game", key=SHITENNO, player=alice.player, mu=30.0, sigma=4.0, games=12)
    for written in ("SHITENNO", "Shitenn%C5%8D"):
        rows = api.get(f"/api/ratings/?game={written}").json()["results"]
        assert [row["player"]["id"] for row in rows] == [alice.player.pk]
        chances = api.get(f"/api/games/{written}/chances/?players={alice.player.pk},{bob.player.pk}")
        assert chances.status_code == 200 and chances.json()["players"][0]["win"] > 0.5


def test_the_rankings_page_takes_the_name(client, alice):
    Rating.objects.create(kind="game", key=SHITENNO, player=alice.player, mu=30.0, sigma=4.0, games=12)
    page = client.get("/rankings/?scope=game:SHITENN%C5%8C").content.decode()
    assert f'value="game:{SHITENNO}" selected' in page and "alice" in page


# --- the data migration folding what is already stored ---

FOLD = importlib.import_module("leagues.migrations.0021_chances_fold_game_names")


def _fold():
    """The migration's step on today's schema: later migrations add columns, so the database cannot be taken back
    to 0020 while today's models write the rows; the step reads its models through `apps` like any migration."""
    FOLD.fold_game_names(django_apps, None)


def _counted(season, alice, bob, game, days_ago, alice_rank=1):
    """A counted, publicly ranked result stored as it was before the folding (the service now folds the name)."""
    result = sign_all(
        enter(season, alice, [(alice, alice_rank, 30), (bob, 3 - alice_rank, 20)], days_ago=days_ago), bob
    )
    Result.objects.filter(pk=result.pk).update(game=game)
    result.refresh_from_db()
    assert result.status == "counted" and result.ranked_publicly
    return result


@pytest.mark.django_db(transaction=True)
def test_the_migration_folds_names_into_the_slug_and_re_rates_both_scopes(club, alice, bob):
    """Before: two results by the slug and two by the name, in two rating scopes. After the migration and its jobs:
    one scope by the slug holding all four in date order (the ratings a fresh recompute gives), the name's scope
    empty, the league's games folded; a free-text game is left alone."""
    league = _public_league(club, alice, bob, ["shitenno", "Go"])
    today = timezone.localdate()
    season = seasons.season_create(
        league=league, name="S", starts_on=today - datetime.timedelta(60), ends_on=today, user=alice
    )
    League.objects.filter(pk=league.pk).update(games=["shitenno", "Shitennō", "Go"])
    rows = [
        _counted(season, alice, bob, "shitenno", 10),
        _counted(season, alice, bob, "Shitennō", 8, 2),
        _counted(season, alice, bob, "SHITENNO", 6),
        _counted(season, alice, bob, "shitenno", 4, 2),
    ]
    other = _counted(season, alice, bob, "Go", 2)
    for key in ("shitenno", "Shitennō", "SHITENNO"):
        rating_store.ratings_recompute(kind="game", key=key)
    assert Rating.objects.get(kind="game", key="shitenno", player=alice.player).games == 2
    LeagueJob.objects.all().delete()
    _fold()
    assert set(Result.objects.filter(pk__in=[r.pk for r in rows]).values_list("game", flat=True)) == {SHITENNO}
    assert Result.objects.get(pk=other.pk).game == "Go"
    assert League.objects.get(pk=league.pk).games == [SHITENNO, "Go"]
    asked = set(LeagueJob.objects.values_list("job", "target"))
    assert {
        ("rate_scope", "game:shitenno"),
        ("rate_scope", "game:Shitennō"),
        ("rate_scope", "game:SHITENNO"),
        ("compute_standings", str(season.pk)),
        ("tally_player", str(alice.player.pk)),
    } <= asked
    assert ("rate_scope", "game:Go") not in asked
    for row_id in LeagueJob.objects.values_list("pk", flat=True):
        outbox.run(row_id)
    alice_rating = Rating.objects.get(kind="game", key=SHITENNO, player=alice.player)
    assert alice_rating.games == 4
    assert not Rating.objects.filter(kind="game", key__in=["Shitennō", "SHITENNO"]).exists()
    assert not RatingEvent.objects.filter(kind="game", key__in=["Shitennō", "SHITENNO"]).exists()
    stored = (alice_rating.mu, alice_rating.sigma)
    rating_store.ratings_recompute(kind="game", key=SHITENNO)
    assert (
        Rating.objects.get(kind="game", key=SHITENNO, player=alice.player).mu,
        Rating.objects.get(kind="game", key=SHITENNO, player=alice.player).sigma,
    ) == stored


def test_the_new_table_chances_take_the_game_s_name(client, club, alice, carol):
    """The new-table page's fragment reads the same ratings whether the form names the game by slug or by name."""
    me, her = alice.player, carol.player  # carol shares alice's club: alice may seat her
    Rating.objects.create(kind="game", key=SHITENNO, player=me, mu=30, sigma=3, games=40)
    client.force_login(alice)
    pages = [
        client.get(
            "/tables/new/chances/", {"game": written, "players_count": 2, "seat0_player": me.pk, "seat1_player": her.pk}
        )
        for written in (SHITENNO, "SHITENNŌ")
    ]
    assert [page.status_code for page in pages] == [200, 200]
    assert "alice has a" in pages[0].content.decode() and pages[0].content == pages[1].content
