"""The nightly repair: every rating scope, every season's table and every player's tallies rebuilt from the
counted results.

It must agree with the incremental jobs, so on a healthy site it changes nothing; what it did change is the
measure of what went wrong, so it says so (logged, and returned to the task). One scope that fails does not
stop the others: each is its own transaction, the failure is logged, and the run fails at the end. The task's
soft time limit (settings.LONG_JOB_TIME_LIMIT) stops it at once: the scope in hand rolls back, those done stay.
"""

from __future__ import annotations

import logging

from celery.exceptions import SoftTimeLimitExceeded

from leagues.models import Rating, Season, Standing
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store
from leagues.standings import tally as tally_store

logger = logging.getLogger(__name__)


class RepairIncomplete(RuntimeError):
    """Some scopes or seasons could not be rebuilt (the others were)."""


def _ratings_of(kind: str, key: str) -> set[tuple]:
    return set(Rating.objects.filter(kind=kind, key=key).values_list("player_id", "mu", "sigma", "games"))


def _table_of(season_id: int) -> set[tuple]:
    return set(
        Standing.objects.filter(season_id=season_id).values_list(
            "player_id", "sort_key", "ranked", "points", "games", "wins", "seconds", "opponents_points", "margin"
        )
    )


def _repair_ratings(summary: dict) -> None:
    for kind, key in sorted(rating_store.rating_scopes()):
        try:
            before = _ratings_of(kind, key)
            summary["results_rated"] += rating_store.ratings_recompute(kind=kind, key=key)
            changed = len(before ^ _ratings_of(kind, key))
        except SoftTimeLimitExceeded:  # out of time: what is done stays done (each its own transaction)
            raise
        except Exception:
            logger.exception("Repair: re-rating %s:%s failed; going on with the others.", kind, key)
            summary["failed"].append(f"{kind}:{key}")
            continue
        summary["scopes"] += 1
        if changed:
            summary["scopes_changed"].append(f"{kind}:{key}")
            summary["rating_rows_changed"] += changed


def _repair_seasons(summary: dict) -> None:
    for season in Season.objects.order_by("pk"):
        try:
            before = _table_of(season.pk)
            standings_store.standings_compute(season=season)
            changed = len(before ^ _table_of(season.pk))
        except SoftTimeLimitExceeded:
            raise
        except Exception:
            logger.exception("Repair: recomputing season %s failed; going on with the others.", season.pk)
            summary["failed"].append(f"season:{season.pk}")
            continue
        summary["seasons"] += 1
        if changed:
            summary["seasons_changed"].append(season.pk)
            summary["standing_rows_changed"] += changed


def _repair_tallies(summary: dict) -> None:
    try:
        tallies = tally_store.tallies_repair()
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        logger.exception("Repair: recounting the players' tallies failed.")
        summary["failed"].append("tallies")
    else:
        summary.update(
            tallied_players=tallies["players"],
            tallies_changed=tallies["players_changed"],
            tally_rows_changed=tallies["tally_rows_changed"],
        )


def repair_all() -> dict:
    """Re-rate every scope from scratch, recompute every season's table, then recount every player's tallies;
    returns what changed: results rated, scopes re-rated and those whose stored ratings changed (with how many
    rating rows), seasons rebuilt and those whose table changed, players recounted and those whose tallies
    changed (with how many rows), and what failed."""
    summary = {
        "results_rated": 0,
        "scopes": 0,
        "scopes_changed": [],
        "rating_rows_changed": 0,
        "seasons": 0,
        "seasons_changed": [],
        "standing_rows_changed": 0,
        "tallied_players": 0,
        "tallies_changed": [],
        "tally_rows_changed": 0,
        "failed": [],
    }
    _repair_ratings(summary)
    _repair_seasons(summary)
    _repair_tallies(summary)
    changed = summary["scopes_changed"] or summary["seasons_changed"] or summary["tallies_changed"]
    log = logger.warning if changed else logger.info
    log("Repair: %s", summary)
    if summary["failed"]:
        raise RepairIncomplete(f"Repair incomplete: {summary}")
    return summary
