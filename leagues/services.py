"""Writes for players and clubs. Each function is one transaction; callers check nothing themselves."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from shitenno_site.errors import Conflict

from .access import guest_claim_link_allowed, player_consent_givers
from .audit import audit_record
from .models import Club, ClubInvite, Membership, Player, Rating, RatingEvent, Season, Standing, new_token

User = get_user_model()


@transaction.atomic
def user_sign_up(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """Every account comes with its own Player, so it can sit at tables at once."""
    user = User.objects.create_user(username=username, email=email, password=password)
    Player.objects.create(name=username, user=user, created_by=user)
    return user


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
        _require_manager(club, created_by)
    player = Player.objects.create(name=name[:80], created_by=created_by, created_in=club)
    if club is not None:
        membership = Membership.objects.create(club=club, player=player)
        audit_record(action="membership.add", obj=membership, user=created_by, club=club,
                     details={"player": player.name, "role": membership.role, "guest": True})
    return player


@transaction.atomic
def player_claim_link_create(*, player: Player, user: AbstractBaseUser) -> str:
    """A fresh one-time token for a guest; only who answers for the guest may ask (see `guest_claim_link_allowed`)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.is_guest:
        raise Conflict(_("%(name)s already belongs to an account.") % {"name": player.name})
    if not guest_claim_link_allowed(player, user):
        raise PermissionDenied(_("Only whoever added this guest, or an admin of the club it was added for, may "
                                 "invite them."))
    player.claim_token = new_token()
    player.save(update_fields=["claim_token"])
    return player.claim_token


def _drop_derived_rows(player: Player) -> None:
    """Ratings, their history and standings are computed from results: drop the guest's and have the jobs
    compute them again once its results are the claimer's (two ratings in one scope cannot be merged)."""
    from . import tasks

    scopes = set(Rating.objects.filter(player=player).values_list("kind", "key"))
    seasons = set(Standing.objects.filter(player=player).values_list("season_id", flat=True))
    for model in (RatingEvent, Rating, Standing):
        model.objects.filter(player=player).delete()
    Season.objects.filter(pk__in=seasons).update(standings_results=None)  # no incremental update until recomputed
    for kind, key in sorted(scopes):
        tasks.ratings_recompute.delay_on_commit(kind, key)
    for season_id in sorted(seasons):
        tasks.standings_compute.delay_on_commit(season_id)


def _move_related_rows(*, source: Player, target: Player) -> None:
    """Point every row that names `source` at `target`, whatever app owns it, so nothing is left behind."""
    _drop_derived_rows(source)
    for relation in Player._meta.related_objects:
        if relation.one_to_many is False or relation.related_model in (Player, Rating, RatingEvent, Standing):
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
        raise Conflict(_("You added %(name)s yourself: send the link to the person it stands for.")
                       % {"name": guest.name})
    _audit_claim(guest, user)
    target = Player.objects.select_for_update().filter(user=user).first()
    if target is None:
        guest.user = user
        guest.claim_token = None
        guest.save(update_fields=["user", "claim_token"])
        return guest
    try:
        with transaction.atomic():
            _move_related_rows(source=guest, target=target)
    except IntegrityError as exc:  # e.g. both sat at the same table: a claim must not merge two seats
        raise Conflict(_("You and %(name)s sat at the same table; this guest cannot be you.")
                       % {"name": guest.name}) from exc
    guest.claim_token = None
    guest.merged_into = target
    guest.save(update_fields=["claim_token", "merged_into"])
    return target


def _audit_claim(guest: Player, user: AbstractBaseUser) -> None:
    """A claim hands the guest's seats and memberships to an account: every club the guest is in is told."""
    for membership in Membership.objects.filter(player=guest).select_related("club"):
        audit_record(action="player.claim", obj=guest, user=user, club=membership.club_id,
                     details={"guest": guest.name, "account": user.get_username(), "role": membership.role})


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
    club = Club.objects.create(
        name=name[:100], slug=_unique_slug(name), description=description, members_public=members_public
    )
    Membership.objects.create(club=club, player=player_for_user(owner), role=Membership.Role.OWNER)
    return club


def membership_of(club: Club, user: AbstractBaseUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, player__user=user).first()


def _require_manager(club: Club, user: AbstractBaseUser) -> Membership:
    membership = membership_of(club, user)
    if membership is None or not membership.manages:
        raise PermissionDenied(_("Only the club's owners and admins may do this."))
    return membership


@transaction.atomic
def club_join(*, token: str, user: AbstractBaseUser) -> Club:
    club = Club.objects.filter(invite_token=token).first()
    if club is None:
        raise Conflict(_("This club invite link is not valid any more."))
    membership, created = Membership.objects.get_or_create(club=club, player=player_for_user(user))
    if created:
        audit_record(action="membership.join", obj=membership, user=user, club=club,
                     details={"player": membership.player.name, "role": membership.role})
    ClubInvite.objects.filter(club=club, player=membership.player).delete()  # answered by joining
    return club


@transaction.atomic
def club_invite_rotate(*, club: Club, user: AbstractBaseUser) -> str:
    _require_manager(club, user)
    club.invite_token = new_token()
    club.save(update_fields=["invite_token"])
    return club.invite_token


@transaction.atomic
def club_member_add(*, club: Club, player: Player, user: AbstractBaseUser) -> Membership | ClubInvite:
    """Managers ask a player in; the player joins only with consent. When the manager is who answers for the
    player (their own guest) that consent is given, and the membership is made at once; otherwise the player
    (or the guest's creator) gets an invite to accept, and nothing else changes until they do."""
    _require_manager(club, user)
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
        audit_record(action="membership.add", obj=membership, user=user, club=club,
                     details={"player": player.name, "role": membership.role,
                              "invited_by": invited_by.get_username() if invited_by else None})
    return membership


def club_invites_for(user: AbstractBaseUser):
    """The invites this user may answer: for their own player, and for the guests they added."""
    if not user.is_authenticated:
        return ClubInvite.objects.none()
    return (ClubInvite.objects.filter(player__user=user)
            | ClubInvite.objects.filter(player__user__isnull=True, player__created_by=user)
            ).select_related("club", "player", "invited_by").order_by("-created_at", "-id")


@transaction.atomic
def club_invite_answer(*, invite: ClubInvite, user: AbstractBaseUser, accept: bool) -> Membership | None:
    """The player (or the guest's creator) says yes, and the player becomes a member, or no, and the invite goes."""
    invite = ClubInvite.objects.select_for_update(of=("self",)).select_related("club", "player", "invited_by").get(
        pk=invite.pk)
    if user.pk not in player_consent_givers(invite.player):
        raise PermissionDenied(_("Only the invited player, or whoever added this guest, may answer this invite."))
    membership = None
    if accept:
        membership = _membership_add(club=invite.club, player=invite.player, user=user, invited_by=invite.invited_by)
    else:
        audit_record(action="membership.decline", obj=invite, user=user, club=invite.club_id,
                     details={"player": invite.player.name})
    invite.delete()
    return membership


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, user: AbstractBaseUser) -> Membership:
    """Admins manage members; only owners make or unmake owners and admins. A club keeps an owner."""
    actor = _require_manager(membership.club, user)
    if role not in Membership.Role.values:
        raise ValidationError({"role": _("Unknown role %(role)s.") % {"role": role}})
    touches_managers = role != Membership.Role.MEMBER or membership.manages
    if touches_managers and actor.role != Membership.Role.OWNER:
        raise PermissionDenied(_("Only an owner may change who is an owner or an admin."))
    _keep_an_owner(membership, leaving=role != Membership.Role.OWNER)
    old_role = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    if old_role != role:
        audit_record(action="membership.role", obj=membership, user=user, club=membership.club_id,
                     details={"player": membership.player.name, "from": old_role, "to": role})
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, user: AbstractBaseUser) -> None:
    """Members may leave; managers remove members; only owners remove admins or owners."""
    own = membership.player.user_id == user.pk
    if not own:
        actor = _require_manager(membership.club, user)
        if membership.manages and actor.role != Membership.Role.OWNER:
            raise PermissionDenied(_("Only an owner may remove an owner or an admin."))
    _keep_an_owner(membership, leaving=True)
    audit_record(action="membership.leave" if own else "membership.remove", obj=membership, user=user,
                 club=membership.club_id, details={"player": membership.player.name, "role": membership.role})
    membership.delete()


def _keep_an_owner(membership: Membership, *, leaving: bool) -> None:
    if not leaving or membership.role != Membership.Role.OWNER:
        return
    owners = Membership.objects.select_for_update().filter(club=membership.club, role=Membership.Role.OWNER)
    if owners.count() <= 1:
        raise Conflict(_("A club needs an owner: make someone else owner first."))
