"""One display name per person within a club (issue 47, finding 7): a member renamed himself "Alice" in Alice's
club and read as its owner. Two names are the same name when they fold equal: case, accents, compatibility
forms (full-width letters, ligatures) and runs of white space do not tell people apart on a page, so they do not
tell names apart here. Reads only; the services that set a name call `name_clash` inside their transaction.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from leagues.models import Club, Membership


def folded_name(name: str) -> str:
    """The name as a reader tells it apart: NFKD ("ﬁ" is "fi", "Ａ" is "A"), without combining marks ("É" is "E")
    nor characters nobody sees (a name stored before the rule refused them), casefolded ("Straße" is "strasse"),
    white space collapsed."""
    decomposed = unicodedata.normalize("NFKD", name)
    kept = "".join(ch for ch in decomposed if unicodedata.category(ch)[0] not in "MC")
    return " ".join(kept.casefold().split())


def name_clash(name: str, *, club_ids: Iterable[int], other_than: int | None = None) -> Club | None:
    """The first of `club_ids` where another member or guest (not player `other_than`) goes by a name that folds
    equal to `name`, else None. The clubs' rows are locked, in order, so two renames to one name at once in a
    club are decided one after the other (the caller's transaction holds the locks)."""
    ids = sorted(set(club_ids))
    if not ids:
        return None
    list(Club.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
    wanted = folded_name(name)
    rows = (
        Membership.objects.filter(club_id__in=ids, player__merged_into__isnull=True)
        .exclude(player_id=other_than)
        .order_by("club_id")
        .values_list("club_id", "player__name")
    )
    for club_id, other in rows:
        if folded_name(other) == wanted:
            return Club.objects.get(pk=club_id)
    return None


def require_unique_name(name: str, *, club_ids: Iterable[int], other_than: int | None = None) -> None:
    """A 400 on `name` when it folds equal to another's in one of the clubs, naming the club."""
    club = name_clash(name, club_ids=club_ids, other_than=other_than)
    if club is not None:
        raise ValidationError(
            {
                "name": _(
                    "Someone in %(club)s already goes by a name that reads the same as "
                    "“%(name)s” (capitals and accents aside): choose another name, so no two "
                    "people in the club look the same."
                )
                % {"club": club.name, "name": name}
            }
        )
