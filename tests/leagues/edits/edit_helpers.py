"""What the league and season edit tests compare and send: the stored state an edit may change, and the season
page's form as its page fills it."""

from leagues.models import AuditEntry, League, Season


def stored() -> tuple:
    """What an edit may change: every league and season as stored, and the audit trail's length."""
    return (
        list(League.objects.order_by("pk").values()),
        list(Season.objects.order_by("pk").values()),
        AuditEntry.objects.count(),
    )


def season_form(season: Season, **changes) -> dict:
    """The season's edit form as its page fills it, with `changes`."""
    order = [name for name in season.tie_breakers if name != "points"]
    data = {
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "points_scheme": season.points_scheme,
        "custom_points": "",
        "min_games": str(season.min_games),
        **{f"tie_breaker_{i}": (order[i - 1] if i <= len(order) else "") for i in range(1, 7)},
    }
    return data | changes
