"""The player page's statistics, read so that they cost the same with 10 and with 1,000 games (issue 18).

The record comes from the player's stored tally rows (PlayerTally: a few rows whatever his history). His
head-to-head is one group of RivalTally rows per opponent, and putting the opponents in order (most games decided
first) or finding the nemesis means summing all of them: with 1,000 games, ~1,000 groups, two aggregates that
grew from 0.4 to 1.2 ms each (bench/profile_pages.py). Their answer depends only on the player's tally rows the
viewer may see: a recount (leagues/standings/tally.py) deletes and re-inserts every row of the player, the record's
and the head-to-head's, so the ids of the record rows change with any change to either, and a club turning
private, or a viewer who may look inside another club, sees another set of record rows. So the first page of
the opponents and the nemesis are kept in the cache under those ids, read by the query that reads the record
anyway. The names shown are read fresh, in one query for the page and the nemesis together; only the order
among opponents with the same number of decided games follows a rename at the next recount.

Games at private tables the viewer may see are not in the tallies: when there are some, the list is counted and
merged as before (leagues.people.player_record.head_to_head_rows).
"""

from __future__ import annotations

import hashlib

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from leagues.common import selectors
from leagues.models import Player
from leagues.people import player_record

HEAD_TO_HEAD_SECONDS = 24 * 3600


def _first_page_and_nemesis(
    player: Player, viewer: AbstractBaseUser, record_ids: list[int], per_page: int
) -> tuple[list[dict], dict | None]:
    """The stored head-to-head's first `per_page` + 1 rows (one more says whether more follow) and the nemesis,
    kept in the cache under the ids of the player's record rows the viewer sees."""
    # the player's creation (to the microsecond) too: ids start again in a database made anew (a restored copy,
    # a test run) while a shared cache may still hold what was kept under them
    mark = hashlib.blake2b(
        f"{player.created_at.isoformat()}|{','.join(map(str, record_ids))}".encode(), digest_size=12
    ).hexdigest()
    name = f"player-head-to-head:{player.pk}:{per_page}:{mark}"
    found = cache.get(name)
    if found is None:
        stored = player_record.stored_head_to_head(player, viewer)
        found = (list(stored[: per_page + 1]), player_record.nemesis_of(stored))
        cache.set(name, found, HEAD_TO_HEAD_SECONDS)
    return found


def player_page_stats(
    *, player: Player, viewer: AbstractBaseUser, opponents_page: str | None, per_page: int
) -> tuple[dict, selectors.LookaheadPage]:
    """The page's statistics (as player_record.player_stats, with one page of the head-to-head) and that page of
    opponents (a LookaheadPage of head_to_head_rows)."""
    stored = player_record.stored_record_rows(player, viewer)
    private = player_record.private_table_results(viewer)
    extra = list(player_record.head_to_head_live(player, private)) if private is not None else []
    if extra:  # games at private tables the viewer shares with the player: the whole list, merged
        rows = player_record.head_to_head_merged(player_record.stored_head_to_head(player, viewer), extra)
        opponents, nemesis = selectors.LookaheadPage(rows, opponents_page, per_page), player_record.nemesis_of(rows)
    elif not stored:  # no stored record the viewer may see: no stored head-to-head either
        opponents, nemesis = selectors.LookaheadPage([], opponents_page, per_page), None
    else:
        first, nemesis = _first_page_and_nemesis(player, viewer, [row["id"] for row in stored], per_page)
        if selectors.LookaheadPage.page_number(opponents_page) == 1:
            opponents = selectors.LookaheadPage(first, 1, per_page)
        else:  # a later page (a link followed without htmx): read from the tallies
            opponents = selectors.LookaheadPage(
                player_record.stored_head_to_head(player, viewer), opponents_page, per_page
            )
    shown = player_record.head_to_head_of([*opponents.object_list, *([nemesis] if nemesis else [])])
    stats = {
        **player_record.game_sections(player_record.player_game_stats(player, viewer)),
        **player_record.record_summary(player_record.record_groups(player, viewer, stored)),
        "head_to_head": shown[: len(opponents.object_list)],
        "nemesis": shown[-1] if nemesis else None,
    }
    return stats, opponents
