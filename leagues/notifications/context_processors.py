from django.http import HttpRequest

from .selectors import to_sign_count


def to_sign(request: HttpRequest) -> dict:
    """The nav's "2 to sign" badge: a callable, so only a page that shows it (base.html) runs its one query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"to_sign_count": lambda: to_sign_count(user)}
