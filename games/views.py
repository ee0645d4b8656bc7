from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import selectors


def table_new(request: HttpRequest) -> HttpResponse:
    raise NotImplementedError


def final_count(request: HttpRequest) -> HttpResponse:
    raise NotImplementedError


def table_detail(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    return render(request, "games/table.html", {"session": session})
