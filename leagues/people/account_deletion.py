"""Deleting one's account (issue 47 finding 8: a Dutch site owes it under the GDPR, article 17). One transaction.

What goes: the account (username, e-mail, password), its API tokens and sessions, its notification choices, messages
and push devices, its uploads waiting for an import, its memberships (he left every club) and its check-ins for
league nights still to come. What stays, and why: the results he played are also his co-players' games, and the
league's standings and ratings are theirs too, so his player row stays under an anonymous name ("Former player N")
with its entries, sign-offs, ratings and standings, and nobody's table changes. The player becomes a guest with
nobody behind it: nobody can make a claim link for it, and a result still waiting for his sign-off is signed for him
as for any guest, by the league's club's managers (access.result_signers).

A club he is the only owner of is refused: it would be left with nobody to run it, and deleting it would take
the other members' games; he hands it over first (the club's members page makes another member its owner)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from leagues.common.audit import audit_record
from leagues.models import AuditEntry, Club, Membership, NightCheckIn, Player, SignOff
from leagues.people.players import sign_offs_withdraw
from shitenno_site import rate_limits
from shitenno_site.errors import Conflict

User = get_user_model()


def anonymous_name(player: Player) -> str:
    """The name a deleted account's player is shown by. Stored once, in the site's language (the name is one
    column read by every page; it is not worded per reader)."""
    with translation.override(settings.LANGUAGE_CODE):
        return _("Former player %(n)d") % {"n": player.pk}


def clubs_only_owned_by(player: Player) -> list[Club]:
    """The clubs `player` owns with no other owner: deleting his account would leave them with nobody to run them."""
    owned = Membership.objects.filter(player=player, role=Membership.Role.OWNER).values_list("club_id", flat=True)
    others = (
        Membership.objects.filter(club_id__in=owned, role=Membership.Role.OWNER, player__user__isnull=False)
        .exclude(player=player)
        .values_list("club_id", flat=True)
    )
    return list(Club.objects.filter(pk__in=set(owned) - set(others)).order_by("name"))


def _sessions_of(user: AbstractBaseUser) -> list[str]:
    """The live sessions signed in as `user`. Sessions are not indexed by user, so this reads every live one: an
    account is deleted rarely, and a session left behind would only point at an account that no longer exists."""
    keys = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            keys.append(session.session_key)
    return keys


def _scrub_audit(club_ids: set[int], *, words: set[str], name: str) -> None:
    """His name and username in the clubs' trails (a join, a claim) become the anonymous name; the entries stay,
    the trail is the club's record of who changed what."""
    rows = AuditEntry.objects.filter(club_id__in=club_ids) | AuditEntry.objects.filter(club__isnull=True)
    for entry in rows.iterator():
        details = entry.details if isinstance(entry.details, dict) else {}
        if any(isinstance(value, str) and value in words for value in details.values()):
            entry.details = {
                key: name if isinstance(value, str) and value in words else value for key, value in details.items()
            }
            entry.save(update_fields=["details"])


WRONG_PASSWORDS = rate_limits.WRONG_PASSWORDS  # the form's budget of wrong passwords (shitenno_site.rate_limits)


@transaction.atomic
def account_delete(*, user: AbstractBaseUser, password: str) -> None:
    """Delete `user`'s account after he confirmed with his password; see the module's docstring for what stays."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not rate_limits.password_confirmed(user, password, purpose="account-delete"):
        raise ValidationError({"password": _("That is not your password; your account was not deleted.")})
    player = Player.objects.select_for_update().filter(user=user).first()
    if player is not None:
        sole = clubs_only_owned_by(player)
        if sole:
            raise Conflict(
                _(
                    "You are the only owner of %(clubs)s. Make another member an owner first (the club's "
                    "members page), then delete your account."
                )
                % {"clubs": ", ".join(c.name for c in sole)}
            )
        _anonymise(user, player)
    # his words on results not counted yet: nobody answers for them once he is gone, and left in place they
    # would read as settled on every waiting list (the guest he leaves is signed for by the club's managers)
    sign_offs_withdraw(SignOff.objects.filter(by=user))
    sessions = _sessions_of(user)
    Token.objects.filter(user=user).delete()
    user.delete()  # cascades: notification choices, messages, push devices, pending imports
    transaction.on_commit(lambda: _drop_sessions(sessions))
    Session.objects.filter(session_key__in=sessions).delete()


def _drop_sessions(keys: list[str]) -> None:
    """The cached copies of the deleted sessions (the cached_db engine keeps them in the cache as well)."""
    from importlib import import_module

    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in keys:
        store(session_key=key).delete()


def _leave_nights_to_come(player: Player) -> None:
    """He will not come: off the nights still to come (not seated at a table nobody will sit at), and leaving
    tonight's if its rounds have begun (its tables so far stay, the later rounds seat the others)."""
    today = timezone.localdate()
    coming = NightCheckIn.objects.filter(player=player, night__date__gte=today)
    started = coming.filter(night__rounds__opened_at__isnull=False).values("pk")
    coming.filter(pk__in=started, left_at__isnull=True).update(left_at=timezone.now())
    coming.exclude(pk__in=started).delete()


def _anonymise(user: AbstractBaseUser, player: Player) -> None:
    name = anonymous_name(player)
    words = {player.name, user.get_username()}
    merged = list(Player.objects.filter(merged_into=player))
    words |= {guest.name for guest in merged}
    memberships = list(Membership.objects.filter(player=player).select_related("club"))
    club_ids = {m.club_id for m in memberships}
    player.name, player.user, player.claim_token, player.created_by = name, None, None, None
    player.save(update_fields=["name", "user", "claim_token", "created_by"])
    Player.objects.filter(merged_into=player).update(name=name, claim_token=None)
    _scrub_audit(club_ids, words=words, name=name)
    _leave_nights_to_come(player)
    for membership in memberships:
        audit_record(
            action="membership.leave",
            obj=membership,
            user=None,
            club=membership.club,
            details={"player": name, "role": membership.role},
        )
        membership.delete()
