"""Tie-breakers compare like with like (issue 50): "average score margin" compares scores, and Shitennō counts
favour while Teikoku counts treasure, so a league of both never breaks a tie by margin. Its seasons' default is
every other tie-breaker; margin asked for is refused (400, EN/NL, nothing written); a league that gains a second
game drops margin from its seasons (audited, the table re-computed). A one-game league keeps margin."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from leagues.club import league_edits, seasons
from leagues.common import selectors
from leagues.models import AuditEntry, LeagueJob, Season
from leagues.people.players import player_for_user
from leagues.standings import store as standings_store

from .league_helpers import START, TODAY, enter, join, sign_all

pytestmark = pytest.mark.django_db
ENDS = TODAY + datetime.timedelta(days=30)


def both_games(club, alice):
    return seasons.league_create(club=club, name="Thursday", games=["shitenno", "teikoku"], user=alice)


def test_a_season_of_shitenno_and_teikoku_breaks_no_tie_by_margin_by_default(club, alice):
    season = seasons.season_create(
        league=both_games(club, alice), name="Autumn", starts_on=START, ends_on=ENDS, user=alice
    )
    assert "margin" not in season.tie_breakers
    assert season.tie_breakers == ["points", "wins", "countback", "opponents_points", "head_to_head"]


def test_a_one_game_league_keeps_margin_by_default(club, alice):
    league = seasons.league_create(club=club, name="Shitennō only", games=["shitenno"], user=alice)
    season = seasons.season_create(league=league, name="Autumn", starts_on=START, ends_on=ENDS, user=alice)
    assert season.tie_breakers[-1] == "margin"


def test_margin_asked_for_in_a_league_of_two_games_is_refused_and_nothing_is_written(club, alice):
    league = both_games(club, alice)
    with pytest.raises(ValidationError) as error:
        seasons.season_create(
            league=league, name="Autumn", starts_on=START, ends_on=ENDS, user=alice, tie_breakers=["points", "margin"]
        )
    assert "(Shitennō, Teikoku) count them in different units" in error.value.message_dict["tie_breakers"][0]
    assert not Season.objects.exists()


def test_the_api_refuses_it_with_a_400_in_dutch_too(api, club, alice):
    league = both_games(club, alice)
    body = {"name": "Autumn", "starts_on": str(START), "ends_on": str(ENDS), "tie_breakers": ["wins", "margin"]}
    response = api.login(alice).post(f"/api/leagues/{league.pk}/seasons/", body, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400, response.content
    assert "in verschillende eenheden" in response.content.decode()
    assert not Season.objects.exists()


def test_an_edit_cannot_add_margin_to_a_season_of_two_games(club, alice):
    season = seasons.season_create(
        league=both_games(club, alice), name="Autumn", starts_on=START, ends_on=ENDS, user=alice
    )
    with pytest.raises(ValidationError):
        league_edits.season_update(season=season, user=alice, tie_breakers=["points", "margin"])
    season.refresh_from_db()
    assert "margin" not in season.tie_breakers


def test_a_shitenno_winner_and_a_teikoku_winner_level_on_all_else_share_the_place(club, alice, bob, carol, dave):
    """alice wins a Shitennō game by 20 favour, bob a Teikoku game by 1 treasure: margin would put alice first,
    comparing favour with treasure. Level on points, wins, countback and opponents' points (and never at one
    table), they share first place."""
    join(club, bob, dave)
    season = seasons.season_create(
        league=both_games(club, alice), name="Autumn", starts_on=START, ends_on=ENDS, user=alice
    )
    sign_all(enter(season, alice, [(alice, 1, 30), (carol, 2, 10)]), carol)
    sign_all(enter(season, alice, [(bob, 1, 5), (dave, 2, 4)], game="teikoku"), bob, dave)
    standings_store.standings_compute(season=season)
    table = {row.player: row.position for row in selectors.standings_of(season)}
    assert table[player_for_user(alice)] == table[player_for_user(bob)] == 1
    assert table[player_for_user(carol)] == table[player_for_user(dave)] == 3


def test_a_league_that_gains_a_second_game_drops_margin_from_its_seasons(club, alice, carol):
    league = seasons.league_create(club=club, name="Shitennō only", games=["shitenno"], user=alice)
    season = seasons.season_create(league=league, name="Autumn", starts_on=START, ends_on=ENDS, user=alice)
    sign_all(enter(season, alice, [(alice, 1, 30), (carol, 2, 10)]), carol)
    LeagueJob.objects.all().delete()
    league_edits.league_update(league=league, user=alice, games=["shitenno", "teikoku"])
    season.refresh_from_db()
    assert "margin" not in season.tie_breakers
    assert AuditEntry.objects.filter(action="season.update", object_id=season.pk).exists()
    assert LeagueJob.objects.filter(job=LeagueJob.Job.COMPUTE_STANDINGS, target=str(season.pk)).exists()


def test_the_migration_drops_margin_from_seasons_stored_before_the_rule_and_leaves_one_game_leagues_alone(
    club, alice, bob
):
    """Seasons of a league of two games stored with margin before issue 50 (written here straight to the table, as
    the rule now refuses it): migration 0031 drops it, audits the change and asks the standings job to re-compute
    the season with counted results; a one-game league keeps margin."""
    import importlib

    from django.apps import apps as django_apps

    join(club, bob)
    league = both_games(club, alice)
    season = seasons.season_create(league=league, name="Old", starts_on=START, ends_on=TODAY, user=alice)
    sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)]), bob)
    Season.objects.filter(pk=season.pk).update(tie_breakers=["points", "margin", "wins"])
    single = seasons.league_create(club=club, name="Only one", games=["shitenno"], user=alice)
    kept = seasons.season_create(
        league=single, name="Kept", starts_on=START, ends_on=TODAY, user=alice, tie_breakers=["points", "margin"]
    )
    LeagueJob.objects.all().delete()
    audits = AuditEntry.objects.count()
    step = importlib.import_module("leagues.migrations.0031_margin_only_in_one_game_leagues")
    step.drop_margin_where_games_differ(django_apps, None)
    assert Season.objects.get(pk=season.pk).tie_breakers == ["points", "wins"]
    assert Season.objects.get(pk=kept.pk).tie_breakers == ["points", "margin"]
    (audit,) = AuditEntry.objects.order_by("pk")[audits:]
    assert audit.object_id == season.pk and audit.details["before"]["tie_breakers"] == ["points", "margin", "wins"]
    assert set(LeagueJob.objects.values_list("job", "target")) == {("compute_standings", str(season.pk))}
