"""The cut after the Swiss rounds (issue 51, docs/tournaments.md "The cut"): which kind of round is paired next,
who goes from the semi-final pods to the final, and the order of the standings once the cut is played.

Why apart from services.py: these are the rules of the cut alone, read by the writes (services.round_pair pairs
what they decide) and by the reads (selectors order the standings by them), so the pairing, the pages, the CSV and
the API can never disagree on who reached the final or who won. No writes and no queries here: the callers pass
the rounds and the Swiss standings they already read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .models import Tournament, TournamentRound


def next_kind(tournament: Tournament, number: int, kinds: Iterable[str]) -> str:
    """The kind of round `number`, given the kinds of the rounds before it: Swiss up to `swiss_rounds`; then, for
    a "semi" cut, the semi-final pods once and the final table after them; for a "final" cut the final table.
    (Whether a round may follow at all is services.is_over's to say.)"""
    if number <= tournament.swiss_rounds:
        return TournamentRound.Kind.SWISS
    if tournament.cut == Tournament.Cut.SEMI_FINALS and TournamentRound.Kind.SEMI not in set(kinds):
        return TournamentRound.Kind.SEMI
    return TournamentRound.Kind.CUT


def per_pod(table_sizes: Sequence[int], pods: int) -> int:
    """How many of each semi-final pod go to the final: the largest table shared among the pods, at least one
    (the top 16 in pods of 4 send each pod's winner; the top 8 in two pods of 4, each pod's first two)."""
    return max(max(table_sizes) // max(pods, 1), 1)


def finalists(
    semi_finals: Sequence[dict[int, int]], swiss_order: Sequence[int], table_sizes: Sequence[int]
) -> list[int]:
    """The final's players in Swiss-standings order (the top seed first, as the cut seats them): each semi-final
    pod's top places (`per_pod`), a shared place going to the one higher in the Swiss standings. Refused
    (ValidationError) when they cannot sit at one table of the tournament's sizes."""
    rank = {p: n for n, p in enumerate(swiss_order)}
    k = per_pod(table_sizes, len(semi_finals))
    chosen = [
        p for pod in semi_finals for p in sorted(pod, key=lambda p, pod=pod: (pod[p], rank.get(p, len(rank))))[:k]
    ]
    if len(chosen) not in set(table_sizes):
        raise ValidationError(
            _(
                "The semi-finals send %(count)d players to the final (%(each)d from each of %(pods)d pods), and a "
                "table seats %(sizes)s: the final cannot be paired."
            )
            % {
                "count": len(chosen),
                "each": k,
                "pods": len(semi_finals),
                "sizes": ", ".join(str(s) for s in sorted(set(table_sizes))),
            }
        )
    return sorted(chosen, key=lambda p: rank.get(p, len(rank)))


def final_order(swiss_order: Sequence[int], cut_rounds: Sequence[Sequence[dict[int, int]]]) -> list[int]:
    """The standings once the cut is played: the players of the latest cut round played (the final) by their
    places there, then those of the round before it (the other semi-finalists) by their places there, then
    everyone else; equal places, and everyone else, in the Swiss standings' order. `cut_rounds`: each cut round's
    played pods as {player: place}, in the order they were played."""
    rank = {p: n for n, p in enumerate(swiss_order)}
    reached: dict[int, tuple[int, int]] = {}
    for level, pods in enumerate(reversed(cut_rounds)):
        for pod in pods:
            for player, place in pod.items():
                reached.setdefault(player, (level, place))
    last = (len(cut_rounds), 0)
    return sorted(swiss_order, key=lambda p: (*reached.get(p, last), rank[p]))
