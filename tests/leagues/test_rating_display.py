"""The rating people read (leagues/rating/display.py, docs/ratings.md): a number that moves the way the game went,
a "?" while it is provisional, rust for time away, and win chances that add up."""

import datetime
import math
import random

from hypothesis import given
from hypothesis import strategies as st

from leagues.rating import display as shown_rating
from leagues.rating.maths import DEFAULT_MU, DEFAULT_SIGMA, plackett_luce

TODAY = datetime.date(2026, 11, 26)


def _simulated_games(count: int, seed: int):
    """`count` games of 2 to 5 players drawn from 30 with hidden skills, rated as the site rates them; yields each
    player's (place, players at the table, rating before, rating after)."""
    rng = random.Random(seed)
    skill = {p: rng.gauss(0, 1.5) for p in range(30)}
    state = {p: (DEFAULT_MU, DEFAULT_SIGMA) for p in range(30)}
    for _game in range(count):
        seated = rng.sample(range(30), rng.randint(2, 5))
        finish = sorted(seated, key=lambda p: -(skill[p] + rng.gauss(0, 1)))
        ranks = [finish.index(p) + 1 for p in seated]
        after = plackett_luce([state[p] for p in seated], ranks)
        for player, rank, new in zip(seated, ranks, after, strict=True):
            yield rank, len(seated), state[player], new
            state[player] = new


def test_over_ten_thousand_games_a_win_never_lowers_and_a_loss_never_raises_the_displayed_number():
    wins = losses = 0
    for place, players, (mu_before, _s0), (mu_after, _s1) in _simulated_games(10_000, seed=29):
        before, after = shown_rating.displayed(mu_before), shown_rating.displayed(mu_after)
        if place == 1:
            wins += 1
            assert after >= before
        elif place == players:
            losses += 1
            assert after <= before
    assert wins == 10_000 and losses == 10_000


def test_the_conservative_estimate_alone_would_not_keep_that_promise():
    """Why the number follows mu (docs/ratings.md): openskill's tau lets sigma grow after a win that moved mu
    little, so mu - 3 sigma drops after some wins."""
    dropped = sum(1 for place, _n, (m0, s0), (m1, s1) in _simulated_games(10_000, seed=29)
                  if place == 1 and m1 - 3 * s1 < m0 - 3 * s0)
    assert dropped > 0


def test_a_new_player_reads_1500_and_is_provisional():
    new = shown_rating.shown(DEFAULT_MU, DEFAULT_SIGMA, 0)
    assert new.rating == 1500 and new.provisional and new.text == "1500?"
    assert new.low == 1500 - 400 and new.high == 1500 + 400  # 2 sigma of 200 points each
    settled = shown_rating.shown(30.0, 4.0, 40, TODAY, TODAY)
    assert settled.rating == 1620 and not settled.provisional and settled.text == "1620"
    assert shown_rating.shown(30.0, 4.0, shown_rating.PROVISIONAL_GAMES - 1).provisional  # too few games


def test_rust_widens_sigma_with_time_away_up_to_the_prior_and_makes_the_rating_provisional_again():
    sigma = 4.0
    assert shown_rating.rusted_sigma(sigma, TODAY - datetime.timedelta(days=30), TODAY) == sigma  # the grace
    assert shown_rating.rusted_sigma(sigma, None, TODAY) == sigma
    a_while = shown_rating.rusted_sigma(sigma, TODAY - datetime.timedelta(days=200), TODAY)
    assert a_while == math.sqrt(sigma**2 + shown_rating.RUST_PER_DAY * 170)
    years = shown_rating.rusted_sigma(sigma, TODAY - datetime.timedelta(days=2000), TODAY)
    assert years == DEFAULT_SIGMA
    assert not shown_rating.shown(30.0, sigma, 40, TODAY - datetime.timedelta(days=60), TODAY).provisional
    back = shown_rating.shown(30.0, sigma, 40, TODAY - datetime.timedelta(days=400), TODAY)
    assert back.provisional and back.rating == 1620  # rust widens the band, it never moves the number


@given(st.lists(st.tuples(st.floats(-20, 70), st.floats(0.5, 9)), min_size=2, max_size=5))
def test_win_chances_add_up_to_one_and_places_to_their_total(ratings):
    odds = shown_rating.chances(ratings)
    n = len(ratings)
    assert abs(math.fsum(o.win for o in odds) - 1) <= 1e-9
    assert abs(math.fsum(o.expected_place for o in odds) - n * (n + 1) / 2) <= 1e-9
    assert all(0 <= o.win <= 1 and 1 - 1e-9 <= o.expected_place <= n + 1e-9 for o in odds)


@given(st.integers(2, 5), st.floats(0, 40), st.floats(1, 9))
def test_equal_players_have_equal_chances_and_the_stronger_wins_more_often(n, mu, sigma):
    odds = shown_rating.chances([(mu, sigma)] * n)
    assert all(abs(o.win - 1 / n) < 1e-12 and abs(o.expected_place - (n + 1) / 2) < 1e-9 for o in odds)
    stronger = shown_rating.chances([(mu + 5, sigma), *[(mu, sigma)] * (n - 1)])
    assert stronger[0].win > 1 / n > stronger[1].win and stronger[0].expected_place < (n + 1) / 2


def test_two_player_chances_match_the_performance_model_by_hand():
    """Two performances N(30, 3^2 + b^2) and N(25, 4^2 + b^2): the first is ahead with Phi(5 / sqrt(the sum))."""
    (a, b) = shown_rating.chances([(30.0, 3.0), (25.0, 4.0)])
    spread = math.sqrt(3.0**2 + 4.0**2 + 2 * shown_rating.PERFORMANCE_SD**2)
    assert abs(a.win - (1 + math.erf(5 / spread / math.sqrt(2))) / 2) < 1e-12
    assert abs(a.expected_place - (2 - a.win)) < 1e-12 and abs(a.win + b.win - 1) < 1e-15


def test_the_chances_do_not_flatten_as_the_table_grows():
    """Issue 40: a favourite's edge over one equal opponent is the same at every size. With performances of one
    spread whatever the size, the favourite beats each other seat with the same chance, so his expected place is
    1 + (n - 1) x (the two-player chance of losing); the old rank model's scale grew like sqrt(n)."""
    favourite, other = (35.0, 3.0), (25.0, 3.0)
    lose = shown_rating.chances([other, favourite])[0].win
    for n in range(2, 6):
        odds = shown_rating.chances([favourite, *[other] * (n - 1)])
        assert abs(odds[0].expected_place - (1 + (n - 1) * lose)) < 1e-9


def test_with_three_or_more_players_the_integral_agrees_with_a_simulation():
    """The Simpson's-rule integral against 2,000,000 sampled tables (seeded numpy): within 4 standard errors."""
    import numpy as np

    ratings = [(40.0, 2.0), (30.0, 6.0), (25.0, 8.0), (20.0, 1.0)]
    odds = shown_rating.chances(ratings)
    spreads = [math.sqrt(s * s + shown_rating.PERFORMANCE_SD**2) for _m, s in ratings]
    draws = 2_000_000
    performance = np.random.default_rng(40).normal([m for m, _s in ratings], spreads, size=(draws, 4))
    wins = np.bincount(performance.argmax(axis=1), minlength=4)
    for chance, won in zip(odds, wins, strict=True):
        assert abs(chance.win - won / draws) < 4 * math.sqrt(chance.win * (1 - chance.win) / draws)


def test_the_win_chances_beat_a_guess_on_simulated_players_with_known_skills():
    """bench/calibration.py's replay on a smaller history: predicted before each game, scored against 1/n."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "calibration.py"
    spec = importlib.util.spec_from_file_location("calibration", path)
    calibration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(calibration)
    figures = calibration.replay(calibration.simulated(60, 3000, seed=7))
    assert figures["brier"] < 0.85 * figures["base_brier"]
    assert figures["log_loss"] < 0.85 * figures["base_log_loss"]
    unfair = calibration.replay([([0, 1], [1, 2])] * 50)  # the same player always wins: the model learns it
    assert unfair["log_loss"] < unfair["base_log_loss"]


def _games_with_spread(b: float, count: int, seed: int) -> list[list[tuple[int, float, float, int]]]:
    """`count` tables of 5 from known ratings (each seat a player of its own), each finishing in the order of
    performances N(mu, sigma^2 + b^2): the chances' own model with a performance spread of `b`."""
    rng = random.Random(seed)
    games = []
    for game in range(count):
        seats = [(rng.gauss(25, 8), rng.uniform(2, 6)) for _seat in range(5)]
        performance = [rng.gauss(mu, math.hypot(sigma, b)) for mu, sigma in seats]
        order = sorted(range(5), key=lambda i: -performance[i])
        games.append([(5 * game + i, mu, sigma, order.index(i) + 1) for i, (mu, sigma) in enumerate(seats)])
    return games


def _unchanged(games) -> dict[int, float]:
    """Each player's mu today: as it was at his game (no stretch since)."""
    return {player: mu for seats in games for player, mu, _sigma, _rank in seats}


def _fit(games, current=None) -> float:
    """The site's fit over the scope's window (the later third of `games`)."""
    later = games[len(games) - shown_rating.fit_window(len(games)):]
    return shown_rating.fitted_performance_sd(later, _unchanged(games) if current is None else current)


def test_a_scope_s_own_performance_spread_is_found_from_its_games():
    """Issue 40's small clubs: games played with a spread of 6 (surer than the fixed b of 11.7) or 20 (less sure)
    give back that spread, within 10% (1,500 tables, of which the later 500 count: 5,000 pairs)."""
    for truth in (6.0, 20.0):
        fitted = _fit(_games_with_spread(truth, 1500, seed=int(truth)))
        assert abs(fitted / truth - 1) < 0.10, (truth, fitted)


def test_a_spread_found_on_the_mus_of_their_day_is_stretched_as_the_mus_have_since():
    """The same games read after the scope's mus spread 20% wider around their mean (a young club's ratings still
    stretching): b is 20% wider too, on today's scale."""
    games = _games_with_spread(8.0, 300, seed=3)
    then = _unchanged(games)
    mean = sum(then.values()) / len(then)
    stretched = {player: mean + 1.2 * (mu - mean) for player, mu in then.items()}
    assert abs(_fit(games, stretched) / _fit(games) - 1.2) < 1e-9


def test_the_window_is_the_later_third_and_at_most_1000_games():
    assert [shown_rating.fit_window(n) for n in (1, 3, 4, 300, 2500, 3000, 100_000)] == [1, 1, 2, 100, 834, 1000, 1000]


def test_only_the_later_third_of_a_scope_s_games_counts():
    """The ratings before the later games are the nearest to those the chances will read: the first two thirds of
    the games do not move the fit, whatever they say."""
    late = _games_with_spread(6.0, 100, seed=1)
    sure = _games_with_spread(6.0, 200, seed=2)
    upside_down = [[(p, mu, sigma, len(seats) + 1 - rank) for p, mu, sigma, rank in seats] for seats in sure]
    assert _fit(sure + late) == _fit(upside_down + late)
    assert _fit(sure + late) != _fit(late)


def test_a_scope_with_few_games_or_only_ties_keeps_the_fixed_spread():
    """Fewer than 20 ordered pairs in the later third (here 3 two-player games, or any number of full ties) say too
    little: the fixed PERFORMANCE_SD."""
    assert _fit([]) == shown_rating.PERFORMANCE_SD
    few = [[(1, 30.0, 3.0, 1), (2, 20.0, 3.0, 2)]] * 9
    assert _fit(few) == shown_rating.PERFORMANCE_SD
    ties = [[(1, 30.0, 3.0, 1), (2, 20.0, 3.0, 1), (3, 25.0, 3.0, 1)]] * 90
    assert _fit(ties) == shown_rating.PERFORMANCE_SD


def test_the_prior_keeps_a_one_sided_record_from_an_extreme_spread():
    """Favourites who won every one of 60 games would fit a spread of nothing alone (the likelihood grows as b
    shrinks); the prior on ln b and the range keep it within a factor of 3 of the fixed one, below it."""
    sure = [[(1, 30.0, 3.0, 1), (2, 25.0, 3.0, 2), (3, 20.0, 3.0, 3)]] * 60
    fitted = _fit(sure)
    assert shown_rating.PERFORMANCE_SD / 3 - 1e-9 <= fitted < shown_rating.PERFORMANCE_SD / 2


def test_the_chances_read_with_a_scope_s_spread():
    """`performance_sd` replaces b in the formula: two performances N(30, 3^2 + b^2), N(25, 4^2 + b^2), b = 20."""
    (a, _b) = shown_rating.chances([(30.0, 3.0), (25.0, 4.0)], performance_sd=20.0)
    assert abs(a.win - (1 + math.erf(5 / math.sqrt(9 + 16 + 2 * 400) / math.sqrt(2))) / 2) < 1e-12
    assert shown_rating.chances([(30.0, 3.0), (25.0, 4.0)], performance_sd=None) == shown_rating.chances(
        [(30.0, 3.0), (25.0, 4.0)])
