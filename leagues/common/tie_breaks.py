"""Tie-breakers that compare like with like (issue 50).

"Average score margin" compares score points, and each game counts them in its own unit (the `score_unit` its
plug-in states; a game the site does not know in whatever its players wrote). A tie between players of two games broken
by margin compared one game's unit with another's. Normalising each game's margins (by the season's spread of that
game's scores, say) would make the tie-breaker depend on every other game of the season, so one new game could
reorder players who did not play it, and the standings could no longer be folded one game at a time
(leagues.standings.apply_game). So the rule is simpler: margin breaks ties only in a league of one game. A league of
more games is refused it (a clear 400), its seasons' default is every other tie-breaker in the usual order, and a
league that gains a second game drops margin from its seasons' rules (re-computing their tables).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.engines import REGISTRY
from leagues import standings as standings_maths

ONE_GAME_ONLY = ("margin",)


def scored_apart(games: Sequence[str]) -> bool:
    """Whether the league's results are of more than one game, whose scores are not one unit."""
    return len(set(games)) > 1


def default_tie_breakers(games: Sequence[str]) -> list[str]:
    """A new season's tie-breakers when none are given: all of them, less those a league of these games refuses."""
    return (
        without_score_comparisons(standings_maths.DEFAULT_TIE_BREAKERS)
        if scored_apart(games)
        else list(standings_maths.DEFAULT_TIE_BREAKERS)
    )


def without_score_comparisons(tie_breakers: Sequence[str]) -> list[str]:
    return [name for name in tie_breakers if name not in ONE_GAME_ONLY]


def tie_breaker_refusal(games: Sequence[str], tie_breakers: Sequence[str]) -> dict[str, str]:
    """The field error for `tie_breakers` in a league of `games` (empty when they compare like with like)."""
    if not scored_apart(games) or not set(tie_breakers) & set(ONE_GAME_ONLY):
        return {}
    names = ", ".join(REGISTRY[g].name if g in REGISTRY else g for g in dict.fromkeys(games))
    return {
        "tie_breakers": _(
            "Average score margin compares scores, and the games of this league (%(games)s) count them in different "
            "units: it breaks ties only in a league of one game."
        )
        % {"games": names}
    }
