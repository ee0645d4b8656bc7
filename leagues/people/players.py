"""Writes for accounts and players: signing up, guests, and claiming a guest. Each function is one transaction;
callers check nothing themselves."""

import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.common.access import guest_claim_link_allowed, require_club_manager
from leagues.common.audit import audit_record
from leagues.jobs import outbox
from leagues.models import (
    Club,
    Membership,
    Player,
    PlayerTally,
    Rating,
    RatingEvent,
    Result,
    ResultEntry,
    RivalTally,
    Season,
    SignOff,
    Standing,
    new_token,
)
from leagues.people.names import require_unique_name
from shitenno_site.errors import Conflict, TooMany
from shitenno_site.validation import name_problem

User = get_user_model()
PLAYER_NAME_MAX = Player._meta.get_field("name").max_length


def _shown_name(name: str) -> str:
    """A name others read on tables, standings, nights and player pages (its player's `name`: the one place a
    person's shown name lives), or a 400 saying why not."""
    name = name.strip()
    problem = name_problem(name) if name else _("Give the name others see you by.")
    if problem:
        raise ValidationError({"name": problem})
    if len(name) > PLAYER_NAME_MAX:
        raise ValidationError({"name": _("A name has at most %(n)d characters.") % {"n": PLAYER_NAME_MAX}})
    return name


# Guests one person may add by hand in an hour, with or without a club (docs/operations.md, "Budgets"): a club
# night seats a few; a fresh account made a club and added 499 in 25 s (issue 36). An import's new players are
# bounded by the import's own limits (docs/import.md) and not counted here.
GUESTS_PER_HOUR = 50
GUEST_WINDOW = datetime.timedelta(hours=1)


@transaction.atomic
def user_sign_up(*, username: str, email: str, password: str, display_name: str = "") -> AbstractBaseUser:
    """Every account comes with its own Player, so it can sit at tables at once. The player is named by the
    display name asked at sign-up (the account's username when none is given): others see that name, not the
    username, which is for logging in (issue 34)."""
    name = _shown_name(display_name) if display_name.strip() else username
    user = User.objects.create_user(username=username, email=email, password=password)
    Player.objects.create(name=name, user=user, created_by=user)
    return user


@transaction.atomic
def player_rename(*, user: AbstractBaseUser, name: str) -> Player:
    """A person changes the name others see him by (his account page, PATCH /api/me/); only his own player."""
    name = _shown_name(name)
    player = Player.objects.select_for_update().get(pk=player_for_user(user).pk)
    if player.name != name:  # unchanged is no clash: a clash stored before the rule is not his to mend first
        require_unique_name(name, club_ids=player.memberships.values_list("club_id", flat=True), other_than=player.pk)
        player.name = name
        player.save(update_fields=["name"])
    return player


def player_for_user(user: AbstractBaseUser) -> Player:
    """The user's own player, created on first need for accounts made outside sign-up (admin, shell)."""
    player, _created = Player.objects.get_or_create(user=user, defaults={"name": user.get_username()})
    return player


@transaction.atomic
def player_guest_create(*, name: str, created_by: AbstractBaseUser, club: Club | None = None) -> Player:
    """A guest is answered for by whoever adds it. Added for a club (by its owners and admins), it joins that club
    at once and the club's managers may later make its claim link too."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("A guest needs a name.")})
    if club is not None:
        require_club_manager(club, created_by)
    _check_guests_per_hour(created_by)
    if club is not None:  # a guest of nobody's club clashes with nobody; joining a club later is not checked
        require_unique_name(name[:80], club_ids=[club.pk])
    player = Player.objects.create(name=name[:80], created_by=created_by, created_in=club)
    if club is not None:
        membership = Membership.objects.create(club=club, player=player)
        audit_record(
            action="membership.add",
            obj=membership,
            user=created_by,
            club=club,
            details={"player": player.name, "role": membership.role, "guest": True},
        )
    return player


def _check_guests_per_hour(user: AbstractBaseUser) -> None:
    """TooMany once `user` added GUESTS_PER_HOUR guests by hand in the last hour. The user's row is locked first,
    so two adds at once are counted one after the other (the limit is exact)."""
    User.objects.select_for_update().filter(pk=user.pk).exists()
    since = timezone.now() - GUEST_WINDOW
    added = (
        Player.objects.filter(created_by=user, user__isnull=True, created_at__gte=since)
        .exclude(result_entries__result__source__gt="")  # an import's players: its own limits
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    recent = list(added[:GUESTS_PER_HOUR])
    if len(recent) >= GUESTS_PER_HOUR:
        wait = recent[0] + GUEST_WINDOW - timezone.now()
        raise TooMany(
            _(
                "You added %(n)d guests in the last hour, the most one person may add; you may add the "
                "next in %(minutes)d minutes."
            )
            % {"n": GUESTS_PER_HOUR, "minutes": max(1, -(-wait.seconds // 60))}
        )


@transaction.atomic
def player_claim_link_create(*, player: Player, user: AbstractBaseUser) -> str:
    """A fresh one-time token for a guest; only who answers for the guest may ask (see `guest_claim_link_allowed`)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.is_guest:
        raise Conflict(_("%(name)s already belongs to an account.") % {"name": player.name})
    if not guest_claim_link_allowed(player, user):
        raise PermissionDenied(
            _("Only whoever added this guest, or an admin of the club it was added for, may invite them.")
        )
    player.claim_token = new_token()
    player.save(update_fields=["claim_token"])
    return player.claim_token


def _drop_derived_rows(player: Player) -> None:
    """Ratings, their history and standings are computed from results: drop the guest's and have the jobs
    compute them again once its results are the claimer's (two ratings in one scope cannot be merged)."""
    scopes = set(Rating.objects.filter(player=player).values_list("kind", "key"))
    seasons = set(Standing.objects.filter(player=player).values_list("season_id", flat=True))
    for model in (RatingEvent, Rating, Standing):
        model.objects.filter(player=player).delete()
    Season.objects.filter(pk__in=seasons).update(standings_results=None)  # no incremental update until recomputed
    for kind, key in sorted(scopes):
        outbox.ask_rate_scope(kind, key)
    for season_id in sorted(seasons):
        outbox.ask_compute_standings(season_id)


def _drop_tallies(guest: Player, target: Player) -> None:
    """The guest's tallies go; the claimer and everyone who shared a game with the guest (whose head-to-head names
    the guest) are recounted once the games are the claimer's."""
    opponents = set(ResultEntry.objects.filter(result__entries__player=guest).values_list("player_id", flat=True))
    PlayerTally.objects.filter(player=guest).delete()
    RivalTally.objects.filter(player=guest).delete()
    RivalTally.objects.filter(opponent=guest).delete()
    outbox.ask_tally_players((opponents - {guest.pk}) | {target.pk})


def _move_related_rows(*, source: Player, target: Player) -> None:
    """Point every row that names `source` at `target`, whatever app owns it, so nothing is left behind."""
    _drop_derived_rows(source)
    _drop_tallies(source, target)
    derived = (Player, Rating, RatingEvent, Standing, PlayerTally, RivalTally)
    for relation in Player._meta.related_objects:
        if relation.one_to_many is False or relation.related_model in derived:
            continue
        field = relation.field
        rows = relation.related_model._default_manager.filter(**{field.name: source})
        if relation.related_model is Membership:
            # The claimer may already be in the guest's club: keep the stronger role, drop the copy.
            for membership in rows:
                existing = Membership.objects.filter(club=membership.club_id, player=target).first()
                if existing is None:
                    membership.player = target
                    membership.save(update_fields=["player"])
                    continue
                order = [Membership.Role.OWNER, Membership.Role.ADMIN, Membership.Role.MEMBER]
                if order.index(membership.role) < order.index(existing.role):
                    existing.role = membership.role
                    existing.save(update_fields=["role"])
                membership.delete()
            continue
        rows.update(**{field.name: target})


@transaction.atomic
def player_claim(*, token: str, user: AbstractBaseUser) -> Player:
    """The guest's games, seats and memberships become the user's; the guest row stays as a record."""
    guest = Player.objects.select_for_update().filter(claim_token=token).first()
    if guest is None:
        raise Conflict(_("This invite link is not valid any more: it was used or replaced."))
    if guest.created_by_id == user.pk:
        raise Conflict(
            _("You added %(name)s yourself: send the link to the person it stands for.") % {"name": guest.name}
        )
    _audit_claim(guest, user)
    target = Player.objects.select_for_update().filter(user=user).first()
    if target is None:
        guest.user = user
        guest.claim_token = None
        guest.save(update_fields=["user", "claim_token"])
        _reopen_sign_offs(guest, user)
        return guest
    try:
        with transaction.atomic():
            _move_related_rows(source=guest, target=target)
    except IntegrityError as exc:  # e.g. both sat at the same table: a claim must not merge two seats
        raise Conflict(
            _("You and %(name)s sat at the same table; this guest cannot be you.") % {"name": guest.name}
        ) from exc
    guest.claim_token = None
    guest.merged_into = target
    guest.save(update_fields=["claim_token", "merged_into"])
    _reopen_sign_offs(target, user)
    return target


def _reopen_sign_offs(player: Player, user: AbstractBaseUser) -> None:
    """A claimed guest's results not counted yet become his to sign (issue 47 finding 5). Until the claim the
    guest was answered for by whoever added it (an importer, say), whose sign-off rows the claim moves onto the
    account; but an account answers for itself (access.result_signers), so those rows no longer count, and left
    in place they read as "settled" on every waiting list while the result waits for ever. They go (a vouching
    importer's stay: he answers for every player of his import); the results wait for the new owner, who is told.
    Counted results stay counted: the person may still dispute one."""
    from leagues.notifications import services as notifications

    stale = (
        SignOff.objects.filter(player=player)
        .exclude(by=user)
        .exclude(result__source__gt="", result__vouched_by=F("by"))
    )
    notifications.imported_to_sign(sign_offs_withdraw(stale))


_WITHDRAW: list = []  # result's rule for taking sign-offs back, registered at start-up (see below)


def register_sign_offs_withdraw(withdraw) -> None:
    """Once, from leagues.result.for_games.connect: a claim and an account's deletion take sign-offs back by
    result's rule (`leagues.result.withdraw`), and result is above people (docs/architecture.md), so people asks
    by this name rather than importing it."""
    _WITHDRAW[:] = [withdraw]


def sign_offs_withdraw(rows) -> list[Result]:
    """Drop the sign-offs `rows` on results not counted yet and reopen those results (result's rule:
    `leagues.result.withdraw.sign_offs_withdraw`); the results, locked."""
    return _WITHDRAW[0](rows)


def _audit_claim(guest: Player, user: AbstractBaseUser) -> None:
    """A claim hands the guest's seats and memberships to an account: every club the guest is in is told."""
    for membership in Membership.objects.filter(player=guest).select_related("club"):
        audit_record(
            action="player.claim",
            obj=guest,
            user=user,
            club=membership.club_id,
            details={"guest": guest.name, "account": user.get_username(), "role": membership.role},
        )
