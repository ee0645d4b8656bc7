"""The displayed ratings on pages that are not the rankings (issue 29): the league page's "Ratings in this league"
section. Kept apart from leagues/result/views.py so the league page's view only asks for it (one query)."""

from __future__ import annotations

from django.core.paginator import Page, Paginator

from leagues.common import selectors
from leagues.models import League, RatingScope

LEAGUE_RATINGS = 10  # the league page shows the best ten; the rankings page has the rest


def league_ratings(league: League) -> Page:
    """The league's best ratings (by the conservative estimate, as the rankings order them), as a page for the rows
    tag (leagues/templatetags/rows.py: the displayed number, "?" while provisional, μ ± σ after rust). One query:
    the rows are sliced in SQL and paged in memory."""
    rows = list(
        selectors.ratings_list(kind=RatingScope.LEAGUE, key=str(league.pk)).values(
            "player_id", "player__name", "mu", "sigma", "games", "last_played"
        )[:LEAGUE_RATINGS]
    )
    return Paginator(rows, LEAGUE_RATINGS).get_page(1)
