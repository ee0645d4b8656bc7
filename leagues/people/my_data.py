"""Everything the site holds about one person, as one JSON-ready dict (issue 47 finding 8: a Dutch site owes a
person a copy of his data under the GDPR, article 15 and 20). A selector: it only reads.

Only his own rows: his account, his player and the guests merged into it, his memberships, his own entry of each
result (not the co-players' names or scores: those are theirs), the sign-offs given for his player or by him, his
ratings and standings, his notification choices and messages, and his push devices with their endpoints redacted
(an endpoint is a capability: whoever holds it may push to the device). The password hash is never in it."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from leagues.models import Membership, Player, Rating, ResultEntry, SignOff, Standing, VerifiedAddress
from leagues.models.accounts import same_address
from leagues.notifications.models import Notification, Preference, PushSubscription
from leagues.people.players import player_for_user
from shitenno_site.tokens.models import AccessToken

FORMAT_VERSION = 1


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def _redacted(endpoint: str) -> str:
    """The push service's address without the device's own path: enough to tell devices apart, useless to push."""
    scheme, _sep, rest = endpoint.partition("://")
    host = rest.split("/", 1)[0]
    return f"{scheme}://{host}/…" if host else "…"


def _account(user: AbstractBaseUser) -> dict:
    verified = VerifiedAddress.objects.filter(user_id=user.pk).first()
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email or None,
        "email_verified_at": _when(verified.verified_at)
        if verified is not None and same_address(user.email, verified.email)
        else None,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
    }


def _players(player: Player) -> list[dict]:
    rows = [player, *Player.objects.filter(merged_into=player).order_by("pk")]
    return [
        {
            "id": p.pk,
            "name": p.name,
            "created_at": _when(p.created_at),
            "merged_into": p.merged_into_id,
            "yours": p.pk == player.pk,
        }
        for p in rows
    ]


def _memberships(player: Player) -> list[dict]:
    rows = Membership.objects.filter(player=player).select_related("club").order_by("club__name")
    return [
        {"club": m.club.name, "club_slug": m.club.slug, "role": m.role, "joined_at": _when(m.joined_at)} for m in rows
    ]


def _results(player: Player) -> list[dict]:
    rows = (
        ResultEntry.objects.filter(player=player)
        .select_related("result__club", "result__season__league")
        .order_by("result__played_on", "result_id")
    )
    out = []
    for entry in rows:
        result = entry.result
        season = result.season
        out.append(
            {
                "result": result.pk,
                "game": result.game,
                "played_on": _when(result.played_on),
                "club": result.club.name if result.club else None,
                "league": season.league.name if season else None,
                "season": season.name if season else None,
                "status": result.status,
                "source": result.source or None,
                "rank": entry.rank,
                "score": entry.score,
                "score_text": entry.score_text or None,
                "seat": entry.seat,
            }
        )
    return out


def _sign_offs(user: AbstractBaseUser, player: Player) -> list[dict]:
    rows = SignOff.objects.filter(Q(player=player) | Q(by=user)).order_by("created_at", "pk")
    return [
        {
            "result": s.result_id,
            "for_you": s.player_id == player.pk,
            "by_you": s.by_id == user.pk,
            "agreed": s.agreed,
            "note": s.note,
            "created_at": _when(s.created_at),
        }
        for s in rows
    ]


def _ratings(player: Player) -> dict:
    ratings = Rating.objects.filter(player=player).order_by("kind", "key")
    standings = Standing.objects.filter(player=player).select_related("season__league").order_by("season_id")
    return {
        "ratings": [{"scope": r.kind, "key": r.key, "mu": r.mu, "sigma": r.sigma, "games": r.games} for r in ratings],
        "standings": [
            {"league": s.season.league.name, "season": s.season.name, "points": str(s.points), "games": s.games}
            for s in standings
        ],
    }


def _notifications(user: AbstractBaseUser) -> dict:
    preference = Preference.objects.filter(user=user).first()
    choices = None
    if preference is not None:
        choices = {
            field: getattr(preference, field)
            for field in ("your_table", "sign_off", "dispute", "standings", "language")
        }
    messages = Notification.objects.filter(recipient=user).order_by("created_at", "pk")
    devices = PushSubscription.objects.filter(user=user).order_by("created_at", "pk")
    return {
        "settings": choices,
        "messages": [
            {"kind": n.kind, "state": n.state, "created_at": _when(n.created_at), "sent_at": _when(n.sent_at)}
            for n in messages
        ],
        "devices": [
            {"endpoint": _redacted(d.endpoint), "user_agent": d.user_agent, "created_at": _when(d.created_at)}
            for d in devices
        ],
    }


def _tokens(user: AbstractBaseUser) -> list[dict]:
    """His access tokens as the tokens page lists them: never a key (the site has none) nor its fingerprint."""
    return [
        {
            "name": t.name,
            "scope": t.scope,
            "prefix": t.prefix,
            "created_at": _when(t.created_at),
            "expires_at": _when(t.expires_at),
            "last_used_at": _when(t.last_used_at),
        }
        for t in AccessToken.objects.filter(user=user)
    ]


def personal_data(user: AbstractBaseUser) -> dict:
    """The download of "Download my data": what the site holds about `user`, and nothing of anyone else."""
    player = player_for_user(user)
    return {
        "format": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "account": _account(user),
        "players": _players(player),
        "memberships": _memberships(player),
        "results": _results(player),
        "sign_offs": _sign_offs(user, player),
        **_ratings(player),
        "notifications": _notifications(user),
        "access_tokens": _tokens(user),
    }
