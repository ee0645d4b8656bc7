from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors import sessions_for_home


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"sessions": sessions_for_home(viewer=request.user)})
