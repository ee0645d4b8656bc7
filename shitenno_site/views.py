from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_safe

from games.plugins import get_game
from games.selectors import session_playing_now, sessions_for_home, sessions_settled


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    sessions = list(sessions_for_home(viewer=request.user))
    settled = sessions_settled(sessions)  # a night's table whose result was entered by hand: listed as finished
    for session in sessions:
        session.settled = session.pk in settled
    context = {"sessions": sessions}
    if not request.user.is_authenticated:
        playing_now = session_playing_now()
        if playing_now is not None:
            context.update(playing_now=playing_now, playing_now_game=get_game(playing_now.game).name)
    return render(request, "home.html", context)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and crawlers ask for whatever the page links: the static icon."""
    return HttpResponsePermanentRedirect(static("favicon.ico"))


def bad_request_page(request: HttpRequest, message: str, *, status: int = 400) -> HttpResponse:
    """A page saying what was wrong with the request (the API answers JSON instead)."""
    return render(request, "400.html", {"message": message}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: the sentence of an InputError (or any BadRequest) rather than a bare "Bad Request"."""
    message = getattr(exception, "message", None) or (str(exception) if exception else "") or "Bad request."
    if request.path_info.startswith("/api/"):
        return JsonResponse({"detail": message}, status=400)
    return bad_request_page(request, message)
