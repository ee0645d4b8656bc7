from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static

from games.selectors import sessions_for_home


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"sessions": sessions_for_home(viewer=request.user)})


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and crawlers ask for whatever the page links: the static icon."""
    return HttpResponsePermanentRedirect(static("favicon.ico"))
