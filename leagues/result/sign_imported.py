""" "Sign all" for imported plays on the waiting page (issue 47 finding 5): a claimed guest's history can be dozens
of plays, each waiting for its new owner; he signs the ones the page showed him in one tap. One transaction: the
plays he may still sign among those posted (a play settled meanwhile is skipped), each signed as by its own
button, so every rule of `results.result_sign_off` holds."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from leagues.common.selectors import WAITING_SHOWN, results_to_sign
from leagues.models import Result
from leagues.result import results


@transaction.atomic
def results_sign_imported(*, user: AbstractBaseUser, result_ids: list[int]) -> list[Result]:
    """Agree to each imported play in `result_ids` that still waits for `user`; the plays signed."""
    if not result_ids or len(result_ids) > WAITING_SHOWN:
        raise ValidationError({"results": _("Sign at most %(n)d plays at once.") % {"n": WAITING_SHOWN}})
    waiting = list(results_to_sign(user).filter(pk__in=set(result_ids)).exclude(source="").order_by("pk"))
    return [results.result_sign_off(result=result, user=user) for result in waiting]
