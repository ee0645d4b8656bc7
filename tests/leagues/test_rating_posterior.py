"""The win chances' own reading of a scope's games (issue 40, leagues.rating.posterior): every game read at once,
each player's skill and the spread of skills as the games tell them, and what the rating job stores of it."""

import datetime
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import Player, Rating, RatingEvent, RatingFit, Result, ResultEntry
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


def test_one_ordered_pair_is_read_and_a_game_all_tied_or_alone_tells_nothing():
    """No threshold below which the chances switch to another method (issue 50 finding 2: at MIN_PLACES = 20 an
    8-player club's chances jumped by 11.8 points in the median): the first game with two places is read."""
    assert posterior.MIN_PLACES == 1
    assert posterior.fit([[(1, 1), (2, 1), (3, 1)]] * 50 + [[(4, 1)]] * 50) is None
    read = posterior.fit([[(1, 1), (2, 2)], [(3, 1), (4, 1)]])
    assert read is not None and set(read.players) == {1, 2} and read.players[1][0] > read.players[2][0]


def test_a_game_leaving_the_window_had_faded_out_and_moves_nobody(monkeypatch):
    """The window's oldest games weigh less and less (posterior.TAPER): its oldest game weighs 1/200 of a new one,
    so the game that leaves moves even a player it knew half of by little, while dropping his newest game moves
    him as a game does. Averaged over three seeds of the sampler: a player of two games is read with a Monte
    Carlo error of about 0.05 a seed (before the walk as now: on seeds 40-42 the leaving game "moved" him by
    0.02, 0.10 and 0.12), which is no step of the method."""
    _skill, games = club_games(998, players=10, seed=3)
    rare_first, rare_last = [("rare", 1), (0, 2)], [(1, 1), ("rare", 2)]
    window = [rare_first, *games, rare_last]  # 1,000 games: the window is full
    whole = old_gone = new_gone = 0.0
    for seed in (40, 41, 42):
        monkeypatch.setattr(posterior, "SEED", seed)
        whole += posterior.fit(window).players["rare"][0] / 3
        old_gone += posterior.fit(window[1:]).players["rare"][0] / 3
        new_gone += posterior.fit(window[:-1]).players["rare"][0] / 3
    assert abs(whole - old_gone) < 0.1
    assert abs(whole - new_gone) > 0.2


def test_a_player_known_before_the_window_starts_from_his_rating():
    """Issue 50 finding 4, and the window's edge: what a rating before the window says is read with the slope the
    window's own players give it. "strong" (mu 37 before the window) lost his one game in it and "weak" (mu 13)
    won his: read with their ratings strong is still ahead; read as newcomers, weak would be."""
    skill, games = club_games(300, players=12, spread=1.0, seed=4)
    before = {p: 8 * skill[p] for p in range(12)} | {"strong": 12.0, "weak": -12.0}  # mu − 25 at the window's start
    window = [*games, [(0, 1), ("strong", 2)], [("weak", 1), (1, 2)]]
    read = posterior.fit(window, before)
    assert 0.06 < read.slope < 0.25  # the ratings' scale: 8 points of mu a unit of skill here
    assert read.players["strong"][0] > read.players["weak"][0]
    as_new = posterior.fit(window)
    assert as_new.players["strong"][0] < as_new.players["weak"][0]


def test_players_tied_for_a_place_are_read_alike():
    read = posterior.fit([[(1, 1), (2, 2), (3, 2)], [(2, 1), (3, 1), (1, 3)], [(3, 1), (2, 1), (1, 2)]] * 10)
    assert abs(read.players[2][0] - read.players[3][0]) < 0.25
    assert read.players[1][0] < read.players[2][0]


def test_a_wild_upset_between_far_apart_players_stays_finite():
    """A player who won 60 games loses to one who lost 60: the draws far in a normal's tail stay in their
    intervals (drawn as the mirror image) and nothing becomes infinite or NaN."""
    games = [[("strong", 1), (f"x{i % 5}", 2)] for i in range(60)] + [
        [(f"x{i % 5}", 1), ("weak", 2)] for i in range(60)
    ]
    skills = posterior.fit([*games, [("weak", 1), ("strong", 2)]])
    assert all(math.isfinite(mean) and math.isfinite(sd) and sd > 0 for mean, sd in skills.players.values())
    assert skills.players["strong"][0] > skills.players["weak"][0]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(
            st.tuples(st.integers(0, 7), st.integers(1, 4)), min_size=2, max_size=5, unique_by=lambda seat: seat[0]
        ),
        min_size=1,
        max_size=30,
    )
)
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
        result = Result.objects.create(
            game="shitenno",
            played_on=DAY + datetime.timedelta(days=n),
            status=Result.Status.COUNTED,
            ranked_publicly=True,
        )
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
    expected = posterior.fit(
        [[(people[p].pk, r) for p, r in game] for game in games], {}, window=40
    )  # everyone new to the scope in its first game
    stored = {r.player_id: r for r in Rating.objects.filter(kind="game", key="shitenno")}
    assert RatingFit.objects.get(kind="game", key="shitenno").skill_sd == expected.spread
    assert set(expected.players) == set(stored)
    for player, (mean, sd) in expected.players.items():
        assert (stored[player].chance_mean, stored[player].chance_sd) == (mean, sd)


@pytest.mark.django_db
def test_a_scope_with_more_games_than_the_window_keeps_its_posterior_and_reads_who_left_it_by_his_rating(monkeypatch):
    """Issue 50 finding 2: the posterior was dropped whole at game 1,001 (the window's size, 40 here). Now the
    window's games are read with each player's rating at its start as his prior, and a player whose games all left
    the window is read from his rating by the window's slope, with the scope's spread."""
    monkeypatch.setattr(rating_display, "FIT_MAX_GAMES", 40)
    people = [Player.objects.create(name=f"p{i}") for i in range(8)]
    _skill, games = club_games(41, players=7, seed=9)
    games[0] = [(7, 1), (0, 2)]  # p7 plays the first game only
    _results(games, people)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    fit = RatingFit.objects.get(kind="game", key="shitenno")
    stored = {r.player_id: r for r in Rating.objects.filter(kind="game", key="shitenno")}
    assert fit.skill_sd is not None and all(r.chance_mean is not None for r in stored.values())
    first_seats, seen = {}, set()
    for event in RatingEvent.objects.filter(kind="game", key="shitenno").order_by("played_on", "result_id"):
        if event.result.played_on > DAY and event.player_id not in seen:  # the window: every game but the first
            seen.add(event.player_id)
            if event.sigma_before < 25 / 3:  # rated before the window
                first_seats[event.player_id] = event.mu_before - 25.0
    expected = posterior.fit([[(people[p].pk, r) for p, r in game] for game in games[1:]], first_seats, window=40)
    assert fit.skill_sd == expected.spread and people[7].pk not in expected.players
    left = stored[people[7].pk]
    assert left.chance_mean == pytest.approx(expected.slope * (left.mu - 25.0))
    assert left.chance_sd == expected.residual < expected.spread
    for player, (mean, sd) in expected.players.items():
        assert (stored[player].chance_mean, stored[player].chance_sd) == (mean, sd)


@pytest.mark.django_db
def test_a_scope_s_first_game_is_read_together_already():
    alice, bob = Player.objects.create(name="alice"), Player.objects.create(name="bob")
    result = Result.objects.create(game="shitenno", played_on=DAY, status=Result.Status.COUNTED, ranked_publicly=True)
    ResultEntry.objects.bulk_create(
        [ResultEntry(result=result, player=alice, rank=1), ResultEntry(result=result, player=bob, rank=2)]
    )
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert RatingFit.objects.get(kind="game", key="shitenno").skill_sd > 0
    read = {r.player_id: r.chance_mean for r in Rating.objects.filter(kind="game", key="shitenno")}
    assert read[alice.pk] > read[bob.pk]


@pytest.mark.django_db
@pytest.mark.parametrize("migration", ["0029_chances_posterior", "0030_chances_every_scope"])
def test_the_migration_asks_every_rated_scope_to_be_rated_again_and_its_job_fits_the_posterior(migration):
    """Scopes rated before the posterior existed (no skill_sd, no chance columns), or before it was read in every
    scope (issue 50): migrations 0029 and 0030 ask the league jobs' outbox to re-rate each, and the job fits it; a
    scope nobody rated is not asked."""
    import importlib

    from django.apps import apps as django_apps

    from leagues.jobs import outbox
    from leagues.models import LeagueJob

    people = [Player.objects.create(name=f"p{i}") for i in range(7)]
    _skill, games = club_games(30, players=7, seed=4)
    for n, game in enumerate(games):
        result = Result.objects.create(
            game="shitenno",
            played_on=DAY + datetime.timedelta(days=n),
            status=Result.Status.COUNTED,
            ranked_publicly=True,
        )
        ResultEntry.objects.bulk_create(ResultEntry(result=result, player=people[p], rank=r) for p, r in game)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    RatingFit.objects.update(skill_sd=None)  # as the rows stood before the migration
    Rating.objects.update(chance_mean=None, chance_sd=None)
    LeagueJob.objects.all().delete()
    step = importlib.import_module(f"leagues.migrations.{migration}")
    step.ask_every_scope_rated_again(django_apps, None)
    assert set(LeagueJob.objects.values_list("job", "target")) == {("rate_scope", "game:shitenno")}
    for row_id in LeagueJob.objects.values_list("pk", flat=True):
        outbox.run(row_id)
    assert RatingFit.objects.get(kind="game", key="shitenno").skill_sd is not None
    assert Rating.objects.filter(kind="game", key="shitenno", chance_mean__isnull=False).count() == 7


def drifting_games(count: int, *, players: int = 20, drift: float = 1.0, seed: int = 6):
    """A club whose skills walk: each game every skill moves by N(0, drift² / count), sd `drift` over the club's
    life (bench/calibration.py --drift)."""
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1.0) for _ in range(players)]
    games = []
    for _ in range(count):
        skill = [s + rng.gauss(0, drift / math.sqrt(count)) for s in skill]
        seated = rng.sample(range(players), rng.choice((2, 3, 4, 5)))
        order = sorted(seated, key=lambda p: skill[p] + rng.gauss(0, 1), reverse=True)
        games.append([(p, order.index(p) + 1) for p in seated])
    return skill, games


def test_in_a_club_whose_skills_walk_an_old_result_tells_less_than_a_new_one():
    """Issue 50 finding 3: each player's skill is a walk over the window, so of two players who each lost one game
    to the same opponent, the one who lost it 400 games ago is read with a wider sd today (1.43 against 0.84 on
    seed 40; weighing every game alike, 0.81 against 0.80). The walk is one size for the whole scope, read from
    all its games: one player's change of form alone does not make it (a club whose skills stand still reads
    hardly any walk, below)."""
    _skill, games = drifting_games(400, drift=1.5, seed=9)
    read = posterior.fit([[(0, 1), ("early", 2)], *games, [(0, 1), ("late", 2)]])
    assert read.players["early"][1] > read.players["late"][1] + 0.3


def test_fixed_skills_are_read_as_hardly_walking_and_drifting_ones_as_walking():
    """The walk's size is read from the games (a half-Cauchy on its sd over a window): close to nothing when the
    skills do not move, so a club of fixed skills loses little to it; larger when they do."""
    _skill, fixed = club_games(600, players=20, seed=7)
    _skill, walking = drifting_games(600, players=20, drift=2.0, seed=7)
    still, moving = posterior.fit(fixed), posterior.fit(walking)
    assert still.drift * posterior.WINDOW < 0.35
    assert moving.drift > 3 * still.drift


def test_the_walk_follows_a_drifting_club_s_skills_today_closer_than_its_whole_window_alike():
    """Skills walking sd 2 over 600 games: today's skills are read within 0.84 (root mean square; weighing every
    game alike, as before the walk, missed them by 1.29)."""
    skill, games = drifting_games(600, players=20, drift=2.0, seed=11)
    read = posterior.fit(games)
    means = np.array([read.players[p][0] for p in range(20)])
    error = means - means.mean() - (np.array(skill) - np.mean(skill))
    assert np.sqrt(np.mean(error**2)) < 1.0
    # the walk's variance over the 600 games is 2², beyond the cut (sd 2 over a window of 1,000: 2.4 over 600)
    assert read.drift * 600 > min(4.0, posterior.DRIFT_MAX**2 * 600 / posterior.WINDOW) / 2


def test_another_seed_of_the_sampler_moves_no_seat_s_chance_by_much(monkeypatch):
    """The chances must not hang on the sampler's seed (issue 50's cliff check: one result may move a seat by at
    most 3 points, and a refit is most of what a result does). The wide club of bench/calibration.py --cliff (40
    players, seed 41, 600 games, rated as the site rates them, read as the rating job reads its window): with the
    walk's size drawn given the paths, seed 40 then 41 read it 0.18 and 0.85 a window and moved a seat by 12.4
    points; drawn with the paths integrated out, 2.9 (before the walk: 3.3)."""
    from leagues.rating.maths import DEFAULT_MU, DEFAULT_SIGMA, plackett_luce

    rng = random.Random(41)
    skill = [rng.gauss(0, 2.0) for _ in range(40)]
    state = [(DEFAULT_MU, DEFAULT_SIGMA)] * 40
    asked = [rng.sample(range(40), rng.choice((2, 3, 4, 5))) for _ in range(200)]
    seats = []
    for _ in range(600):
        seated = rng.sample(range(40), rng.choice((2, 3, 4, 5)))
        order = sorted(seated, key=lambda p: skill[p] + rng.gauss(0, 1), reverse=True)
        before = [state[p] for p in seated]
        seats.append([(p, *state[p], order.index(p) + 1) for p in seated])
        for player, rated in zip(seated, plackett_luce(before, [order.index(p) + 1 for p in seated]), strict=True):
            state[player] = rated
    first: dict = {}
    for game in seats:
        for player, mu, sigma, _rank in game:
            first.setdefault(player, (mu, sigma))
    known = {p: mu - DEFAULT_MU for p, (mu, sigma) in first.items() if sigma < DEFAULT_SIGMA}
    window = [[(p, rank) for p, _mu, _sigma, rank in game] for game in seats]

    def read(seed: int) -> np.ndarray:
        monkeypatch.setattr(posterior, "SEED", seed)
        fitted = posterior.fit(window, known)
        return np.array(
            [
                c.win
                for seated in asked
                for c in rating_display.posterior_chances(
                    [
                        fitted.players[p]
                        if p in fitted.players
                        else (fitted.slope * (state[p][0] - DEFAULT_MU), fitted.residual)
                        for p in seated
                    ],
                    fitted.spread,
                )
            ]
        )

    assert np.abs(read(40) - read(41)).max() * 100 < 5
