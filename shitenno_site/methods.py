"""The methods a page's view takes, read from the view itself (issue 48 finding 5).

Django's CSRF check runs before a view's method decorator, so a PUT or a DELETE (or a POST to a read-only page)
from a real client, which sends no CSRF token, was answered 403 "the form expired" instead of 405 with `Allow`.
The CSRF failure page asks here first: when the view would refuse the method anyway, the answer is its 405."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def declared_methods(view: Callable[..., Any]) -> list[str] | None:
    """The methods a function view's require_http_methods (or require_safe, require_POST) lets through, found in
    the decorator's closure under any decorators wrapped around it; a class-based view's handlers; None when it
    declares none."""
    view_class = getattr(view, "view_class", None) or getattr(view, "cls", None)
    if view_class is not None:
        names = getattr(view_class, "http_method_names", [])
        return [name.upper() for name in names if hasattr(view_class, name) and name != "options"] or None
    seen: set[int] = set()
    function: Any = view
    while function is not None and id(function) not in seen:
        seen.add(id(function))
        for cell in getattr(function, "__closure__", None) or ():
            value = cell.cell_contents
            if isinstance(value, list) and value and all(isinstance(m, str) and m.isupper() for m in value):
                return value
        function = getattr(function, "__wrapped__", None)
    return None


def refused_method(path: str, method: str) -> list[str] | None:
    """The methods the view at `path` takes, when it declares them and `method` is not one of them; else None."""
    from django.urls import Resolver404, resolve

    try:
        match = resolve(path)
    except Resolver404:
        return None
    allowed = declared_methods(match.func)
    return allowed if allowed and method not in allowed else None
