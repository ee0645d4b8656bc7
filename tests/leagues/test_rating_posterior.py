"""The win chances' own reading of a scope's games (issue 40, leagues.rating.posterior): every game read at once,
each player's skill and the spread of skills as the games tell them, and what the rating job stores of it."""

import datetime
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import Player, Rating, RatingFit, Result, ResultEntry
from leagues.rating import display as rating_display
from leagues.rating import posterior
from leagues.rating import store as rating_store

DAY = datetime.date(2026, 3, 1)


def club_games(count: int, *, players: int = 40, spread: float = 1.0, seed: int = 5):
    """A club whose skills are known: performance = skill + N(0, 1), the order of performance (as the model)."""
    rng = random.Random(seed)
    skill = [rng.gauss(0, spread) for _ in range(players)]
    games = []
    for _ in range(count):
        seated = rng.sample(range(players), rng.choice((2, 3, 4, 5)))
        order = sorted(seated, key=lambda p: skill[p] + rng.gauss(0, 1), reverse=True)
        games.append([(p, order.index(p) + 1) for p in seated])
    return skill, games


def test_a_club_s_games_give_back_its_skills_within_their_stated_uncertainty():
    """300 games of 40 players: the posterior means follow the hidden skills, and the stated standard deviations
    mean what they say (about 95% of the skills within 2 of them)."""
    skill, games = club_games(300)
    skills = posterior.fit(games)
    means = np.array([skills.players[p][0] for p in range(40)])
    sds = np.array([skills.players[p][1] for p in range(40)])
    assert np.corrcoef(means, skill)[0, 1] > 0.85
    assert np.mean(np.abs(means - np.array(skill)) <= 2 * sds) >= 0.85
    assert 0.6 < skills.spread < 1.5  # the skills' own spread is 1


def test_the_same_games_give_the_same_answer():
    _skill, games = club_games(120, players=12)
    assert posterior.fit(games) == posterior.fit(games)


def test_who_wins_every_game_is_read_the_strongest_and_who_loses_every_game_the_weakest():
    rng = random.Random(2)
    games = []
    for _ in range(40):
        seated = ["champion", *rng.sample(["a", "b", "c", "d", "e"], 2), "wooden spoon"]
        games.append([(p, k + 1) for k, p in enumerate(seated[:1] + rng.sample(seated[1:3], 2) + seated[3:])])
    skills = posterior.fit(games)
    means = {p: mean for p, (mean, _sd) in skills.players.items()}
    assert max(means, key=means.get) == "champion" and min(means, key=means.get) == "wooden spoon"


def test_too_few_ordered_seats_read_nothing_and_a_game_all_tied_or_alone_tells_nothing():
    assert posterior.fit([[(1, 1), (2, 2)]] * (posterior.MIN_PLACES - 1)) is None
    assert posterior.fit([[(1, 1), (2, 1), (3, 1)]] * 50 + [[(4, 1)]] * 50) is None
    read = posterior.fit([[(1, 1), (2, 2)]] * posterior.MIN_PLACES + [[(3, 1), (4, 1)]] * 50)
    assert read is not None and set(read.players) == {1, 2}


def test_players_tied_for_a_place_are_read_alike():
    read = posterior.fit([[(1, 1), (2, 2), (3, 2)], [(2, 1), (3, 1), (1, 3)], [(3, 1), (2, 1), (1, 2)]] * 10)
    assert abs(read.players[2][0] - read.players[3][0]) < 0.25
    assert read.players[1][0] < read.players[2][0]


def test_a_wild_upset_between_far_apart_players_stays_finite():
    """A player who won 60 games loses to one who lost 60: the draws far in a normal's tail stay in their
    intervals (drawn as the mirror image) and nothing becomes infinite or NaN."""
    games = [[("strong", 1), (f"x{i % 5}", 2)] for i in range(60)] + [[(f"x{i % 5}", 1), ("weak", 2)]
                                                                    for i in range(60)]
    skills = posterior.fit([*games, [("weak", 1), ("strong", 2)]])
    assert all(math.isfinite(mean) and math.isfinite(sd) and sd > 0 for mean, sd in skills.players.values())
    assert skills.players["strong"][0] > skills.players["weak"][0]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.tuples(st.integers(0, 7), st.integers(1, 4)), min_size=2, max_size=5,
                         unique_by=lambda seat: seat[0]), min_size=1, max_size=30))
def test_any_games_give_finite_skills_for_exactly_their_ordered_players(games):
    read = posterior.fit(games)
    ordered = [game for game in games if len({rank for _p, rank in game}) > 1]
    if read is None:
        return
    assert set(read.players) == {p for game in ordered for p, _rank in game}
    assert read.spread > 0 and all(math.isfinite(m) and 0 < sd < 50 for m, sd in read.players.values())


def test_rust_widens_a_posterior_skill_as_it_widens_a_rating_until_the_player_is_new_again():
    spread, sd = 0.8, 0.3
    assert rating_display.rusted_skill_sd(sd, spread, DAY, DAY + datetime.timedelta(days=30)) == sd
    assert sd < rating_display.rusted_skill_sd(sd, spread, DAY, DAY + datetime.timedelta(days=200)) < spread
    assert rating_display.rusted_skill_sd(sd, spread, DAY, DAY + datetime.timedelta(days=3000)) == spread
    assert rating_display.rusted_skill_sd(sd, spread, None, DAY) == sd


def _results(games, people):
    for n, game in enumerate(games):
        result = Result.objects.create(game="shitenno", played_on=DAY + datetime.timedelta(days=n),
                                       status=Result.Status.COUNTED, ranked_publicly=True)
        ResultEntry.objects.bulk_create(ResultEntry(result=result, player=people[p], rank=r) for p, r in game)


@pytest.mark.django_db
def test_the_rating_job_stores_each_player_s_posterior_skill_and_the_scope_s_spread(monkeypatch):
    """A scope whose every game is in the window (here of 40): the job reads them as posterior.fit reads them and
    stores each player's mean and sd on his rating and the spread on the scope's fit."""
    monkeypatch.setattr(rating_display, "FIT_MAX_GAMES", 40)
    people = [Player.objects.create(name=f"p{i}") for i in range(7)]
    _skill, games = club_games(40, players=7, seed=9)
    _results(games, people)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    expected = posterior.fit([[(people[p].pk, r) for p, r in game] for game in games])
    stored = {r.player_id: r for r in Rating.objects.filter(kind="game", key="shitenno")}
    assert RatingFit.objects.get(kind="game", key="shitenno").skill_sd == expected.spread
    assert set(expected.players) == set(stored)
    for player, (mean, sd) in expected.players.items():
        assert (stored[player].chance_mean, stored[player].chance_sd) == (mean, sd)


@pytest.mark.django_db
def test_a_scope_with_more_games_than_the_window_reads_its_ratings_and_loses_a_posterior_it_had(monkeypatch):
    """The posterior reads a scope's whole history or nothing: once a scope has more games than the window, its
    ratings (which carry the games the window drops) answer the chances, and what the posterior stored goes."""
    monkeypatch.setattr(rating_display, "FIT_MAX_GAMES", 40)
    people = [Player.objects.create(name=f"p{i}") for i in range(7)]
    _skill, games = club_games(41, players=7, seed=9)
    _results(games[:40], people)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert Rating.objects.filter(kind="game", key="shitenno", chance_mean__isnull=False).count() == 7
    _results(games[40:], people)  # one game more than the window holds
    rating_store.ratings_recompute(kind="game", key="shitenno")
    fit = RatingFit.objects.get(kind="game", key="shitenno")
    assert fit.skill_sd is None and fit.performance_sd > 0
    assert not Rating.objects.filter(kind="game", key="shitenno", chance_mean__isnull=False).exists()
    assert not Rating.objects.filter(kind="game", key="shitenno", chance_sd__isnull=False).exists()


@pytest.mark.django_db
def test_a_scope_with_too_few_games_to_read_has_no_spread_and_its_players_no_posterior():
    alice, bob = Player.objects.create(name="alice"), Player.objects.create(name="bob")
    result = Result.objects.create(game="shitenno", played_on=DAY, status=Result.Status.COUNTED,
                                   ranked_publicly=True)
    ResultEntry.objects.bulk_create([ResultEntry(result=result, player=alice, rank=1),
                                     ResultEntry(result=result, player=bob, rank=2)])
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert RatingFit.objects.get(kind="game", key="shitenno").skill_sd is None
    assert not Rating.objects.filter(kind="game", key="shitenno", chance_mean__isnull=False).exists()


@pytest.mark.django_db
def test_the_migration_asks_every_rated_scope_to_be_rated_again_and_its_job_fits_the_posterior():
    """Scopes rated before the posterior existed (no skill_sd, no chance columns): migration 0029 asks the league
    jobs' outbox to re-rate each, and the job fits it; a scope nobody rated is not asked."""
    import importlib

    from django.apps import apps as django_apps

    from leagues.jobs import outbox
    from leagues.models import LeagueJob

    people = [Player.objects.create(name=f"p{i}") for i in range(7)]
    _skill, games = club_games(30, players=7, seed=4)
    for n, game in enumerate(games):
        result = Result.objects.create(game="shitenno", played_on=DAY + datetime.timedelta(days=n),
                                       status=Result.Status.COUNTED, ranked_publicly=True)
        ResultEntry.objects.bulk_create(ResultEntry(result=result, player=people[p], rank=r) for p, r in game)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    RatingFit.objects.update(skill_sd=None)  # as the rows stood before the migration
    Rating.objects.update(chance_mean=None, chance_sd=None)
    LeagueJob.objects.all().delete()
    step = importlib.import_module("leagues.migrations.0029_chances_posterior")
    step.ask_every_scope_rated_again(django_apps, None)
    assert set(LeagueJob.objects.values_list("job", "target")) == {("rate_scope", "game:shitenno")}
    for row_id in LeagueJob.objects.values_list("pk", flat=True):
        outbox.run(row_id)
    assert RatingFit.objects.get(kind="game", key="shitenno").skill_sd is not None
    assert Rating.objects.filter(kind="game", key="shitenno", chance_mean__isnull=False).count() == 7
