"""A club's pages: the list, creating one, its page, joining by invite, its members' roles, its audit log. Apart
from the players' and leagues' pages (leagues/result/views.py) so each file reads as one part of the site."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from leagues.club import clubs
from leagues.common import selectors
from leagues.common.access import club_access, club_for_member, club_sees_inside
from leagues.common.forms import ClubForm, RoleForm, apply_service_errors
from leagues.common.selectors import listed_sessions
from leagues.models import Club, Membership
from leagues.tournaments.selectors import club_tournaments
from shitenno_site.errors import Conflict, TooMany

CLUBS_PAGE = 100  # clubs a page lists; "Show more" brings the next (issue 46: 27,000 clubs took past 30 s unpaged)


@require_safe
def club_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.clubs_list(), CLUBS_PAGE).get_page(request.GET.get("page"))
    if request.htmx and "page" in request.GET:  # "Show more": the next rows only
        return render(request, "leagues/partials/club_rows.html", {"clubs": page})
    return render(
        request,
        "leagues/club_list.html",
        {
            "clubs": page,
            "my_clubs": selectors.clubs_of_user(request.user),
            "invites": clubs.club_invites_for(request.user),
        },
    )


@login_required
@require_POST
def club_invite_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The invited player (or the guest's creator) accepts or declines; anyone else is told it is not theirs."""
    invite = get_object_or_404(clubs.club_invites_for(request.user), pk=pk)
    answer = request.POST.get("answer")
    if answer not in ("accept", "decline"):
        return HttpResponse(_("Answer accept or decline."), status=400, content_type="text/plain; charset=utf-8")
    clubs.club_invite_answer(invite=invite, user=request.user, accept=answer == "accept")
    if answer == "accept":
        messages.success(
            request, _("%(player)s joined %(club)s.") % {"player": invite.player.name, "club": invite.club.name}
        )
        return redirect(invite.club)
    return redirect("club_list")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    too_many = False
    if request.method == "POST" and form.is_valid():
        try:
            club = clubs.club_create(owner=request.user, **form.cleaned_data)
        except ValidationError as exc:  # the account's budget of clubs (TooMany), said above the form
            too_many = isinstance(exc, TooMany)
            apply_service_errors(form, exc)
        else:
            return redirect(club)
    status = 429 if too_many else 400 if form.errors else 200
    return render(request, "leagues/club_form.html", {"form": form}, status=status)


CLUB_MEMBERS_PAGE = 50


@require_safe
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    access = club_access(club, request.user)
    membership = access.membership
    context = {
        "club": club,
        "membership": membership,
        # a page of members without counting them: one row more says whether a next page follows
        "members": selectors.LookaheadPage(
            selectors.club_member_rows(club, for_manager=bool(membership and membership.manages)),
            request.GET.get("members"),
            CLUB_MEMBERS_PAGE,
        )
        if access.sees_inside
        else None,
        "invite_url": request.build_absolute_uri(reverse("club_join", args=[club.invite_token]))
        if access.manages
        else None,
        "role_form": RoleForm(),
    }
    if request.htmx and "members" in request.GET and context["members"] is not None:  # "show more" members
        return render(request, "leagues/partials/member_rows.html", context)
    context.update(_club_extras(request, club))
    return render(request, "leagues/club_detail.html", context)


def _club_extras(request: HttpRequest, club: Club) -> dict:
    from games.selectors import sessions_for_club

    inside = club_sees_inside(club, request.user)
    return {
        "sessions": listed_sessions(sessions_for_club(club=club, viewer=request.user)),
        "tournaments": list(club_tournaments(club)[:10]) if inside else [],  # a day's pages (issue 51)
        **_club_leagues(club, request.user),
    }


@require_http_methods(["GET", "HEAD", "POST"])
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: a logged-out visitor sees the club he is invited to and logs in or signs up, both of
    which bring him back here to join."""
    club = Club.objects.filter(invite_token=token).first()
    if club is None:
        raise Http404(_("This club invite link is not valid any more."))
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "leagues/club_join.html", {"club": club, "next": request.get_full_path()})
    if club_access(club, request.user).membership is not None:  # the link opened again, or tapped twice
        messages.info(request, _("You are a member of %(club)s already.") % {"club": club.name})
        return redirect(club)
    if request.method == "POST":
        try:
            clubs.club_join(token=token, user=request.user)
        except Conflict as exc:  # his name reads as a member's: said on the page, nothing joined
            return render(request, "leagues/club_join.html", {"club": club, "refusal": exc.message}, status=409)
        messages.success(request, _("You joined %(club)s.") % {"club": club.name})
        return redirect(club)
    return render(request, "leagues/club_join.html", {"club": club})


def _membership_for_manager(request: HttpRequest, slug: str, pk: int) -> Membership:
    membership = get_object_or_404(Membership.objects.select_related("club", "player"), pk=pk, club__slug=slug)
    club_for_member(membership.club, request.user)  # a stranger learns nothing; the service decides the rest
    return membership


@login_required
@require_POST
def membership_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    membership = _membership_for_manager(request, slug, pk)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role: owner, admin or member."))
        return redirect(membership.club)
    try:
        clubs.membership_set_role(membership=membership, role=form.cleaned_data["role"], user=request.user)
    except (PermissionDenied, Conflict, ValidationError) as exc:
        return _club_error(request, membership.club, exc)
    messages.success(request, _role_done(membership))
    return redirect(membership.club)


def _role_done(membership: Membership) -> str:
    """What the club page says after "Set": the page reloads looking the same, so without it a change went unseen.
    A sentence a role (not the role's name put in one) so each language says it its own way."""
    said = {
        Membership.Role.OWNER: _("%(player)s is now an owner."),
        Membership.Role.ADMIN: _("%(player)s is now an admin."),
        Membership.Role.MEMBER: _("%(player)s is now a plain member."),
    }[membership.role]
    return said % {"player": membership.player.name}


@login_required
@require_http_methods(["GET", "POST"])
def membership_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The club page's "Remove" opens this confirmation (what removal does to the player's results and nights,
    or at once why it would be refused); its button POSTs here, and the club page then names who went."""
    membership = _membership_for_manager(request, slug, pk)
    club, name = membership.club, membership.player.name
    own = membership.player.user_id == request.user.pk
    context = {"club": club, "member": membership, "own": own}
    try:
        if request.method == "POST":
            clubs.membership_remove(membership=membership, user=request.user)
        else:
            clubs.membership_remove_check(membership=membership, user=request.user)
    except (PermissionDenied, Conflict) as exc:
        status = 403 if isinstance(exc, PermissionDenied) else 409
        message = getattr(exc, "message", None) or str(exc)
        return render(request, "leagues/member_remove.html", {**context, "error": message}, status=status)
    if request.method == "GET":
        return render(request, "leagues/member_remove.html", context)
    if own:
        messages.success(request, _("You left %(club)s.") % {"club": club.name})
    else:
        messages.success(request, _("%(player)s was removed from %(club)s.") % {"player": name, "club": club.name})
    return redirect(club)


@login_required
@require_POST
def club_invite_rotate(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user)
    try:
        clubs.club_invite_rotate(club=club, user=request.user)
    except PermissionDenied as exc:
        return _club_error(request, club, exc)
    return redirect(club)


def _club_error(request: HttpRequest, club: Club, exc: Exception) -> HttpResponse:
    """A refused membership change answers with its reason and the status that names it."""
    status = 403 if isinstance(exc, PermissionDenied) else 409 if isinstance(exc, Conflict) else 400
    message = getattr(exc, "message", None) or " ".join(getattr(exc, "messages", [])) or str(exc)
    return render(request, "leagues/club_error.html", {"club": club, "error": message}, status=status)


# --- Leagues, rankings and player stats pages (issue 5) ---


def _club_leagues(club: Club, viewer: AbstractBaseUser) -> dict:
    return {"leagues": selectors.leagues_list(viewer=viewer, club=club)}


# --- The club's audit trail (issue 7) ---


@require_safe
def club_audit(request: HttpRequest, slug: str) -> HttpResponse:
    """Owners and admins read every correction in their club; members get 403, anyone else 404."""
    from leagues.models import AuditEntry

    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user, manage=True)
    entries = AuditEntry.objects.filter(club=club).select_related("user")
    page = Paginator(entries, 100).get_page(request.GET.get("page"))
    return render(request, "leagues/club_audit.html", {"club": club, "page": page})


# --- Leagues, seasons and results entered on the site (issue 5) ---
