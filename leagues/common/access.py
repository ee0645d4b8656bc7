"""Who may see and do what with clubs, guests and results: each rule written once, used by API and pages.

docs/security.md has the whole table of roles and rights; tests/site/test_access_matrix.py checks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.utils.translation import gettext as _

from leagues.models import Club, Membership, Player, Result, SignOff


def membership_of(club: Club, user: AbstractBaseUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, player__user=user).first()


@dataclass(frozen=True)
class ClubAccess:
    """What one user may do in one club, worked out once (after healthchecks' `_get_check_for_user`): every
    page, API view and service asks this instead of reading memberships itself.

    A superuser sees inside and manages every club, as an owner would (the admin site lets them anyway)."""

    club: Club
    membership: Membership | None
    sees_inside: bool
    manages: bool
    owns: bool


def club_access(club: Club, user: AbstractBaseUser) -> ClubAccess:
    membership = membership_of(club, user)
    superuser = bool(user.is_superuser)
    return ClubAccess(
        club=club,
        membership=membership,
        sees_inside=superuser or club.members_public or membership is not None,
        manages=superuser or bool(membership and membership.manages),
        owns=superuser or bool(membership and membership.role == Membership.Role.OWNER),
    )


def require_club_manager(club: Club | None, user: AbstractBaseUser) -> ClubAccess:
    """The one rule for managing a club (its members, leagues, seasons and results): an owner or admin of it."""
    access = club_access(club, user) if club is not None else None
    if access is None or not access.manages:
        raise PermissionDenied(_("Only the club's owners and admins may do this."))
    return access


def require_result_editor(result: Result, user: AbstractBaseUser) -> None:
    """The one rule for correcting or deleting a result (the API's PATCH and DELETE, the result pages' Edit and
    Delete): an owner or admin of its club (its league's, or the club it was recorded for); a result of no club is
    its recorder's. `result` comes with its season's league."""
    club = result.season.league.club if result.season_id else result.club
    if club is None and not user.is_superuser:
        if result.created_by_id != user.pk:
            raise PermissionDenied(_("Only whoever recorded this game may change it."))
    else:
        require_club_manager(club, user)


def result_editable(result: Result, user: AbstractBaseUser, managed: set[int]) -> bool:
    """`require_result_editor` read without a query, for a list of results: `managed` is the user's
    `managed_club_ids`, and each result comes with its season's league (an Edit link it shows may still be refused
    by the service, never the other way round)."""
    if not user.is_authenticated:
        return False
    club_id = result.season.league.club_id if result.season_id else result.club_id
    if club_id is None:
        return not user.is_superuser and result.created_by_id == user.pk
    return bool(user.is_superuser) or club_id in managed


def club_for_member(club: Club, user: AbstractBaseUser, *, manage: bool = False) -> ClubAccess:
    """A club's inner pages and actions (its audit trail, its forms, managing members): 404 to whoever is not a
    member (they are not theirs to know of), and with `manage` a 403 to a member who is no owner or admin."""
    access = club_access(club, user)
    if access.membership is None and not user.is_superuser:
        raise Http404
    if manage and not access.manages:
        raise PermissionDenied(_("Only the club's owners and admins may do this."))
    return access


def managed_club_ids(user: AbstractBaseUser) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(
            player__user=user, role__in=[Membership.Role.OWNER, Membership.Role.ADMIN]
        ).values_list("club_id", flat=True)
    )


def club_sees_inside(club: Club, user: AbstractBaseUser) -> bool:
    """A public club's members, leagues, standings and results are for everyone; a private club's for its members.
    `ClubAccess.sees_inside` by the same rule, for a caller that needs nothing else (no membership query for a
    public club)."""
    if club.members_public or user.is_superuser:
        return True
    return user.is_authenticated and Membership.objects.filter(club=club, player__user=user).exists()


def clubs_inside_q(viewer: AbstractBaseUser, *, prefix: str = "") -> Q:
    """Rows whose club (`<prefix>club`) the viewer may look inside: no club, a public club, or one of theirs."""
    if viewer.is_superuser:
        return Q()
    visible = Q(**{f"{prefix}club__isnull": True}) | Q(**{f"{prefix}club__members_public": True})
    if viewer.is_authenticated:
        visible |= Q(**{f"{prefix}club__in": Membership.objects.filter(player__user=viewer).values("club")})
    return visible


def guest_claim_link_allowed(player: Player, user: AbstractBaseUser) -> bool:
    """A guest's claim link hands its games, seats and memberships to whoever opens it, so only who answers for
    the guest may make one: its creator, or a manager of the club it was added for (not of any club it joined
    later: a club that merely has the guest as a member must not be able to take it over)."""
    if user.is_superuser or (player.created_by_id is not None and player.created_by_id == user.pk):
        return True
    return player.created_in_id is not None and player.created_in_id in managed_club_ids(user)


def strangers_to(user: AbstractBaseUser, players: Sequence[Player]) -> list[Player]:
    """Of these players, those `user` may not name in a result outside any club (issue 47 finding 6): a result
    lands on the waiting list (the "to sign" badge) of whoever answers for each player (`players_signers`: his
    account, or a guest's creator), showing whatever the recorder typed (a guest named "Visit ... to verify",
    twenty times). So that list takes games only from people its owner already plays with: the recorder himself,
    or someone sharing a club with him or who sat at a table of the site with him. A guest nobody answers for
    lands on no list. Two queries at most; none when every player is the recorder's own or his guest."""
    if user.is_superuser:
        return []
    from games.models import Seat

    answerer = {p.pk: p.user_id if p.user_id is not None else p.created_by_id for p in players}
    others = {u for u in answerer.values() if u is not None and u != user.pk}
    known = {user.pk}
    if others:
        clubs = Membership.objects.filter(player__user=user).values("club")
        shares_club = Exists(Membership.objects.filter(player=OuterRef("pk"), club__in=clubs))
        shares_table = Exists(Seat.objects.filter(player=OuterRef("pk"), session__seats__player__user=user))
        known |= set(
            Player.objects.filter(Q(shares_club) | Q(shares_table), user__in=others).values_list("user_id", flat=True)
        )
    return [p for p in players if answerer[p.pk] is not None and answerer[p.pk] not in known]


def player_consent_givers(player: Player) -> set[int]:
    """The users whose yes puts this player into a club: its own account, or, for a guest, its creator."""
    if player.user_id is not None:
        return {player.user_id}
    return {player.created_by_id} if player.created_by_id is not None else set()


def hand_entry_settles_q() -> Q:
    """The one rule for which results entered by hand may settle a league night's table (nights.selectors): a
    counted one (every player signed it), or one still pending that an owner or admin of its season's club (who
    run the club's nights), or a superuser, entered. A pending entry by anyone else is only his word: it must not
    shut a table other people are playing (issue 47 finding 6). A disputed one settles nothing, so its table is
    back in play (a dispute after it counted only flags it, and it stays counted). Written for SQL, as one
    condition, so that a list of tables still asks in the same few queries."""
    organiser = Exists(
        Membership.objects.filter(
            club=OuterRef("season__league__club"),
            player__user=OuterRef("created_by"),
            role__in=[Membership.Role.OWNER, Membership.Role.ADMIN],
        )
    )
    return Q(status=Result.Status.COUNTED) | (
        Q(status=Result.Status.PENDING) & (Q(organiser) | Q(created_by__is_superuser=True))
    )


def club_manager_user_ids(club_id: int) -> set[int]:
    return set(
        Membership.objects.filter(
            club_id=club_id,
            role__in=[Membership.Role.OWNER, Membership.Role.ADMIN],
            player__user__isnull=False,
        ).values_list("player__user_id", flat=True)
    )


def _entries_and_managers(result: Result, managers: set[int] | None) -> tuple[list, set[int]]:
    """The result's entries with their players, and (when a guest needs them) its league's club's managers."""
    if "entries" in getattr(result, "_prefetched_objects_cache", {}):
        entries = list(result.entries.all())  # a page prefetched them with their players
    else:
        entries = list(result.entries.select_related("player"))
    if managers is None:
        managers = set()
        if result.season_id and any(e.player.user_id is None for e in entries):
            managers = club_manager_user_ids(result.season.league.club_id)
    return entries, managers


def result_signers(result: Result, *, managers: set[int] | None = None) -> dict[int, set[int]]:
    """The one rule for who answers for each player of a result: entry's player id -> users whose sign-off counts.

    A player with an account answers for themself. A guest has no account: it is vouched for by whoever added
    it, or by a manager of the club whose league the result is in. A result counts only when every player is
    answered for, so nobody can put a game into the ratings on someone else's behalf. `managers` (the league's
    club's managers' user ids) may be passed by a page that asks for many results of one league.

    An imported play its importing manager confirmed in the preview (`vouched_by`, issue 34) is answered for by
    him too, for every player: he vouches for his club's own history, and each player may still dispute it.
    """
    entries, managers = _entries_and_managers(result, managers)
    return players_signers(result, [entry.player for entry in entries], managers=managers)


def players_signers(result: Result, players: Sequence[Player], *, managers: set[int]) -> dict[int, set[int]]:
    """`result_signers` for a result whose players (and, when a guest needs them and the result is in a season,
    its league's club's managers) the caller has read already: an import settles thousands at once."""
    vouched = {result.vouched_by_id} if result.source and result.vouched_by_id else set()
    signers = {}
    for player in players:
        if player.user_id is not None:
            signers[player.pk] = {player.user_id} | vouched
        else:
            signers[player.pk] = ({player.created_by_id} if player.created_by_id else set()) | managers | vouched
    return signers


def entries_signed_by_q(user: AbstractBaseUser) -> Q:
    """`players_signers` as a condition on result entries: the entries whose player this (signed-in) user answers
    for, so that what waits for him over many results is one query (the header's "to sign" badge is on every
    page). The same rule, written for SQL: his own player; a guest he added, or any guest of a result in a league
    of a club he manages; every player of an import he vouched for. tests/leagues/test_waiting_sign_offs.py checks
    that both say the same."""
    managed = Membership.objects.filter(player__user=user, role__in=[Membership.Role.OWNER, Membership.Role.ADMIN])
    guest = Q(player__user__isnull=True) & (
        Q(player__created_by=user) | Q(result__season__league__club__in=managed.values("club_id"))
    )
    vouched = Q(result__vouched_by=user) & ~Q(result__source="")
    return Q(player__user=user) | guest | vouched


def result_players_signed_by(result: Result, user: AbstractBaseUser, *, managers: set[int] | None = None) -> list[int]:
    """The players of `result` this user answers for (empty: they may not sign it off)."""
    if not user.is_authenticated:
        return []
    return sorted(player for player, users in result_signers(result, managers=managers).items() if user.pk in users)


def players_open_for(result: Result, user: AbstractBaseUser, managed: set[int]) -> list[Player]:
    """The players of a result still waiting for this user's word (`results_to_sign`, read per result): those he
    answers for (`players_signers`) and nobody agreed for, nor he disputed. Without a query: the result comes with
    its season's league and its entries' players and sign-offs prefetched, and `managed` is his
    `managed_club_ids` (a guest of a season's result is his to sign when he manages its league's club)."""
    if not user.is_authenticated:
        return []
    players = [entry.player for entry in result.entries.all()]
    manager = result.season_id is not None and result.season.league.club_id in managed
    signers = players_signers(result, players, managers={user.pk} if manager else set())
    settled = {s.player_id for s in result.sign_offs.all() if s.agreed or s.by_id == user.pk}
    return [p for p in players if user.pk in signers[p.pk] and p.pk not in settled]


def result_signed_publicly(result: Result, sign_offs: dict[int, SignOff], *, managers: set[int] | None = None) -> bool:
    """The one rule for the site-wide game ratings: **no single account can move a public ranking**.

    `sign_offs` are the result's valid agreements (player id -> sign-off, as `result_signers` allows them). A
    result that counts by `result_signers` may still be the word of one person: dave records three wins over
    three guests he made himself and vouches for each. So, for the public game ratings only, a result needs
    every player answered for, each guest vouched for by an account other than the recorder (or by a manager of
    the club whose league the result is in), and at least two different accounts among the signers. A result
    that falls short still counts in its league (whose managers answer for it) and in its players' own
    statistics; docs/security.md has the rule and the player page says why a game is not ranked site-wide.

    An imported play (`source` set, issue 27) never moves a public ranking: it comes in signed by the importing
    manager for his club's leagues only, and a later sign-off cannot vouch for a game nobody watched on the site.
    """
    if result.source:
        return False
    entries, managers = _entries_and_managers(result, managers)
    accounts = set()
    for entry in entries:
        sign_off = sign_offs.get(entry.player_id)
        if sign_off is None or not sign_off.agreed or sign_off.by_id is None:
            return False
        if entry.player.user_id is None and sign_off.by_id == result.created_by_id and sign_off.by_id not in managers:
            return False
        accounts.add(sign_off.by_id)
    return len(accounts) >= 2
