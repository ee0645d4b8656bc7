"""Budgets counted in the shared cache, for the forms that send mail (issue 47 finding 8: reset mails were
unthrottled, and a sign-up mails any address it is given): the password reset, the sign-up and the verification
link's "send it again", each limited per address and per client address (the IP as django-axes reads it, behind
TRUSTED_PROXIES).

A fixed window per key: the first hit starts it, its end is kept beside the count, so a refusal can say when to
try again. The cache is the site's shared one (CACHE_URL); a cache that cannot be reached counts nothing
(shitenno_site.cache forgives it), so an outage of Redis opens the forms rather than closing them."""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest

logger = logging.getLogger(__name__)

NAMESPACE = "rate"  # tests give each test its own (tests/conftest.py), so no count outlives its test


@dataclass(frozen=True)
class Budget:
    name: str
    per_address: int  # hits per window for one e-mail address (known to the site or not: the same answer)
    per_ip: int  # hits per window from one client address
    window: int  # seconds


# docs/security.md ("Mail") and docs/operations.md list them.
PASSWORD_RESET = Budget("password-reset", per_address=3, per_ip=10, window=3600)
SIGN_UP = Budget("sign-up", per_address=3, per_ip=5, window=3600)
VERIFY_RESEND = Budget("verify-resend", per_address=3, per_ip=10, window=3600)
# A new address asks for the password: five tries an account (and 20 a client) in 15 minutes, as the deletion's.
EMAIL_CHANGE = Budget("email-change", per_address=5, per_ip=20, window=900)


class Limited(Exception):
    """The budget is used up: `retry_after` seconds until its window ends."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = max(1, retry_after)

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.retry_after / 60))


def client_ip(request: HttpRequest) -> str:
    from axes.helpers import get_client_ip_address

    return get_client_ip_address(request) or request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(budget: Budget, kind: str, value: str) -> str:
    digest = hashlib.sha256(value.strip().casefold().encode()).hexdigest()[:32]  # no address kept in the cache
    return f"{NAMESPACE}:{budget.name}:{kind}:{digest}"


def count_hit(key: str, window: int) -> tuple[int, float]:
    """Counts one hit on `key` (a window of `window` seconds from its first hit); returns the hits so far in the
    window and the window's end. The account deletion's wrong passwords are counted by it too."""
    now = time.time()
    if cache.add(key, 1, window):
        cache.set(key + ":ends", now + window, window)
        return 1, now + window
    try:
        hits = cache.incr(key)
    except ValueError:  # expired between the two calls: a new window
        cache.add(key, 1, window)
        cache.set(key + ":ends", now + window, window)
        return 1, now + window
    return int(hits or 0), float(cache.get(key + ":ends") or now + window)


def check(budget: Budget, *, ip: str, address: str = "") -> None:
    """Counts this request against the client address's budget and the e-mail address's; raises Limited (with
    the longer wait) when either is used up. A refused request still counts, so hammering does not reopen it."""
    _refuse_past(budget, ip, address, count=True)


def peek(budget: Budget, *, ip: str, address: str = "") -> None:
    """Raises Limited when either budget is used up already, counting nothing: for a step that must not be taken
    when the one after it would be refused (a new address whose link could not be sent: issue 47)."""
    _refuse_past(budget, ip, address, count=False)


def _refuse_past(budget: Budget, ip: str, address: str, *, count: bool) -> None:
    """Limited (the longer wait) when the client's or the address's budget is past its limit: counting this
    request first (`check`), or only reading (`peek`). A cache that cannot be reached counts nothing."""
    waits = []
    for kind, value, limit in (("ip", ip, budget.per_ip), ("address", address, budget.per_address)):
        if not value:
            continue
        key = _key(budget, kind, value)
        try:
            if count:
                hits, ends = count_hit(key, budget.window)
            else:  # this request not counted: the budget is past its limit once it holds `limit` hits
                hits, ends = int(cache.get(key) or 0) + 1, cache.get(key + ":ends")
        except Exception as error:  # noqa: BLE001 (the cache unreachable: counted as nothing, see above)
            logger.warning("Rate limit %s not read: %s", budget.name, error)
            continue
        if hits > limit and ends:
            waits.append(int(math.ceil(float(ends) - time.time())))
    if waits:
        raise Limited(max(waits))


# Wrong passwords one account may try on a form that asks for it again (deleting the account, making an API token)
# before waiting (docs/operations.md, "Budgets"): the log-in page's lock-out does not see these forms, and a borrowed,
# signed-in phone must not be a way to guess the password.
WRONG_PASSWORDS = 5
WRONG_PASSWORD_WINDOW = 15 * 60


def _wrong_key(purpose: str, user) -> str:
    """The account's counter for one form, named by its creation time too: a counter never outlives its account
    onto another with the same id (a test database made again)."""
    return f"{purpose}-wrong:{user.pk}:{user.date_joined.timestamp()}"


def password_confirmed(user, password: str, *, purpose: str) -> bool:
    """Whether `password` is `user`'s, counting a wrong one; raises TooMany (writing nothing) while this form's
    budget of wrong passwords is used up, even for the right one."""
    from django.utils.translation import gettext as _

    from shitenno_site.errors import TooMany

    key = _wrong_key(purpose, user)
    if (cache.get(key) or 0) >= WRONG_PASSWORDS:
        raise TooMany(
            _("Too many wrong passwords: try again in %(minutes)d minutes.") % {"minutes": WRONG_PASSWORD_WINDOW // 60}
        )
    if password and user.check_password(password):
        return True
    count_hit(key, WRONG_PASSWORD_WINDOW)
    return False
