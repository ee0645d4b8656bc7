"""Writes for clubs: creating one, joining, invites and consent, members' roles. Each function is one
transaction; callers check nothing themselves."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext as _

from leagues.common import budgets
from leagues.common.access import player_consent_givers, require_club_manager
from leagues.common.audit import audit_record
from leagues.jobs import outbox
from leagues.models import Club, ClubInvite, Membership, Player, RatingScope, Result, new_token
from leagues.nights import services as night_services
from leagues.people.names import name_clash
from leagues.people.players import player_for_user
from shitenno_site.errors import Conflict


def _unique_slug(name: str) -> str:
    base = slugify(name)[:90] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser, description: str = "", members_public: bool = False) -> Club:
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("A club needs a name.")})
    budgets.hold_account(owner)
    budgets.clubs_budget(
        owner, Club.objects.filter(memberships__player__user=owner, memberships__role=Membership.Role.OWNER)
    )
    club = Club.objects.create(
        name=name[:100], slug=_unique_slug(name), description=description, members_public=members_public
    )
    Membership.objects.create(club=club, player=player_for_user(owner), role=Membership.Role.OWNER)
    return club


@transaction.atomic
def club_join(*, token: str, user: AbstractBaseUser) -> Club:
    club = Club.objects.filter(invite_token=token).first()
    if club is None:
        raise Conflict(_("This club invite link is not valid any more."))
    player = player_for_user(user)
    if not Membership.objects.filter(club=club, player=player).exists() and name_clash(
        player.name, club_ids=[club.pk], other_than=player.pk
    ):  # a newcomer by link may not read as a member
        raise Conflict(
            _(
                "Someone in %(club)s already goes by a name that reads the same as “%(name)s”: change the "
                "name others see you by on your account page, then join."
            )
            % {"club": club.name, "name": player.name}
        )
    membership, created = Membership.objects.get_or_create(club=club, player=player)
    if created:
        audit_record(
            action="membership.join",
            obj=membership,
            user=user,
            club=club,
            details={"player": membership.player.name, "role": membership.role},
        )
    ClubInvite.objects.filter(club=club, player=membership.player).delete()  # answered by joining
    return club


@transaction.atomic
def club_invite_rotate(*, club: Club, user: AbstractBaseUser) -> str:
    require_club_manager(club, user)
    club.invite_token = new_token()
    club.save(update_fields=["invite_token"])
    return club.invite_token


@transaction.atomic
def club_member_add(*, club: Club, player: Player, user: AbstractBaseUser) -> Membership | ClubInvite:
    """Managers ask a player in; the player joins only with consent. When the manager is who answers for the
    player (their own guest) that consent is given, and the membership is made at once; otherwise the player
    (or the guest's creator) gets an invite to accept, and nothing else changes until they do."""
    require_club_manager(club, user)
    existing = Membership.objects.filter(club=club, player=player).first()
    if existing is not None:
        return existing
    if player.merged_into_id is not None:
        raise ValidationError({"player": _("%(name)s was claimed: add the account instead.") % {"name": player.name}})
    if user.pk in player_consent_givers(player):
        return _membership_add(club=club, player=player, user=user, invited_by=user)
    invite, created = ClubInvite.objects.get_or_create(club=club, player=player, defaults={"invited_by": user})
    if created:
        audit_record(action="membership.invite", obj=invite, user=user, club=club, details={"player": player.name})
    return invite


def _membership_add(*, club: Club, player: Player, user: AbstractBaseUser, invited_by) -> Membership:
    membership, created = Membership.objects.get_or_create(club=club, player=player)
    if created:
        audit_record(
            action="membership.add",
            obj=membership,
            user=user,
            club=club,
            details={
                "player": player.name,
                "role": membership.role,
                "invited_by": invited_by.get_username() if invited_by else None,
            },
        )
    return membership


def club_invites_for(user: AbstractBaseUser) -> QuerySet:
    """The invites this user may answer: for their own player, and for the guests they added."""
    if not user.is_authenticated:
        return ClubInvite.objects.none()
    return (
        (
            ClubInvite.objects.filter(player__user=user)
            | ClubInvite.objects.filter(player__user__isnull=True, player__created_by=user)
        )
        .select_related("club", "player", "invited_by__player")
        .order_by("-created_at", "-id")
    )


@transaction.atomic
def club_invite_answer(*, invite: ClubInvite, user: AbstractBaseUser, accept: bool) -> Membership | None:
    """The player (or the guest's creator) says yes, and the player becomes a member, or no, and the invite goes."""
    invite = (
        ClubInvite.objects.select_for_update(of=("self",))
        .select_related("club", "player", "invited_by")
        .get(pk=invite.pk)
    )
    if user.pk not in player_consent_givers(invite.player):
        raise PermissionDenied(_("Only the invited player, or whoever added this guest, may answer this invite."))
    membership = None
    if accept:
        membership = _membership_add(club=invite.club, player=invite.player, user=user, invited_by=invite.invited_by)
    else:
        audit_record(
            action="membership.decline",
            obj=invite,
            user=user,
            club=invite.club_id,
            details={"player": invite.player.name},
        )
    invite.delete()
    return membership


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, user: AbstractBaseUser) -> Membership:
    """Admins manage members; only owners make or unmake owners and admins. A club keeps an owner who can sign in.
    A guest stays a plain member: it has no account to manage the club with, and whoever claimed it later would
    take over its role (players.player_claim keeps the higher one)."""
    actor = require_club_manager(membership.club, user)
    if role not in Membership.Role.values:
        raise ValidationError({"role": _("Unknown role %(role)s.") % {"role": role}})
    if role != Membership.Role.MEMBER and membership.player.is_guest:
        raise ValidationError(
            {
                "role": _(
                    "%(player)s is a guest without an account and cannot sign in, so cannot be an owner or admin."
                )
                % {"player": membership.player.name}
            }
        )
    touches_managers = role != Membership.Role.MEMBER or membership.manages
    if touches_managers and not actor.owns:
        raise PermissionDenied(_("Only an owner may change who is an owner or an admin."))
    _keep_an_owner(membership, leaving=role != Membership.Role.OWNER)
    old_role = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    if old_role != role:
        audit_record(
            action="membership.role",
            obj=membership,
            user=user,
            club=membership.club_id,
            details={"player": membership.player.name, "from": old_role, "to": role},
        )
    return membership


@transaction.atomic  # _keep_an_owner reads the owners under lock
def membership_remove_check(*, membership: Membership, user: AbstractBaseUser) -> None:
    """Raises why `user` may not remove this membership (PermissionDenied, Conflict), writing nothing: the
    confirmation page asks it so it says so at once instead of offering a button that will be refused."""
    _remove_check(membership, user)


def _remove_check(membership: Membership, user: AbstractBaseUser) -> None:
    if membership.player.user_id != user.pk:
        actor = require_club_manager(membership.club, user)
        if membership.manages and not actor.owns:
            raise PermissionDenied(_("Only an owner may remove an owner or an admin."))
    _keep_an_owner(membership, leaving=True)


@transaction.atomic
def membership_remove(*, membership: Membership, user: AbstractBaseUser) -> None:
    """Members may leave; managers remove members; only owners remove admins or owners. Whoever goes also leaves
    the club's running nights and no longer reads or moves at its night tables still being played
    (nights.services.member_gone). Nothing else goes with the membership: the player's results stay, and count in
    the standings and ratings as before (season_refusals asks membership only of new players in a result)."""
    own = membership.player.user_id == user.pk
    _remove_check(membership, user)
    audit_record(
        action="membership.leave" if own else "membership.remove",
        obj=membership,
        user=user,
        club=membership.club_id,
        details={"player": membership.player.name, "role": membership.role},
    )
    membership.delete()
    night_services.member_gone(club=membership.club, player=membership.player)


def _keep_an_owner(membership: Membership, *, leaving: bool) -> None:
    """A club keeps an owner who can sign in: the last such owner may neither leave nor step down. An owner
    without an account (a guest made owner before that was refused, or an owner whose account was deleted) cannot
    manage anything, so does not count, and may itself be demoted or removed."""
    if not leaving or membership.role != Membership.Role.OWNER or membership.player.user_id is None:
        return
    owners = (
        Membership.objects.select_for_update(of=("self",))
        .filter(club=membership.club_id, role=Membership.Role.OWNER, player__user__isnull=False)
        .order_by("pk")
    )
    if not [pk for pk in owners.values_list("pk", flat=True) if pk != membership.pk]:
        raise Conflict(_("A club needs an owner who can sign in: make another member with an account owner first."))


def club_privacy_changed(*, club: Club) -> None:
    """A club turned private (or public): its results leave (or join) the site-wide ratings of their games."""
    games = Result.objects.filter(club=club, status=Result.Status.COUNTED).values_list("game", flat=True).distinct()
    for game in sorted(set(games)):
        outbox.ask_rate_scope(RatingScope.GAME, game)
