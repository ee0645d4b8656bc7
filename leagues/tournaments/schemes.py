"""A tournament's points per place (issue 51, docs/tournaments.md): the default, the named presets, the organiser's
own points, checked against the table sizes the tournament uses, and said in words for the day page and the wall.

A scheme is stored as `Tournament.scheme`: a pod size (as JSON text) to the points of its places, first place first,
e.g. {"4": [5, 3, 1, 0], "3": [5, 2, 0]}. A sound scheme names every table size the tournament uses and no other,
one whole number from 0 to 100 per place, never more for a lower place (equal is allowed: two places may score
alike), and more for first place than for last.

The presets: "4-2-1-0" is the default (4, 2, 1, 0; a pod of three 4, 2, 0), and the league's seasons' "3-2-1-0" and
"7-5-3-1" (leagues.standings: the places spaced evenly from the first value down to the last). A tournament scores
whole points, so a league preset is offered for the pod sizes where its spacing is whole: 3-2-1-0 for pods of two
and four (3, 0 and 3, 2, 1, 0; three players would score 1.5), 7-5-3-1 for pods of two to four (7, 1; 7, 4, 1;
7, 5, 3, 1). At another size the choice is refused with the reason, and custom points remain.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from leagues.standings import place_points

from .models import default_scheme

DEFAULT = "4-2-1-0"
CUSTOM = "custom"
LEAGUE_PRESETS = ("3-2-1-0", "7-5-3-1")
PRESETS = (DEFAULT, *LEAGUE_PRESETS)
PRESET_CHOICES = [
    (DEFAULT, gettext_lazy("4-2-1-0 (a pod of three: 4-2-0), the default")),
    ("3-2-1-0", gettext_lazy("3-2-1-0, as a league season (pods of two: 3-0; not for pods of three)")),
    ("7-5-3-1", gettext_lazy("7-5-3-1, as a league season (a pod of three: 7-4-1; a pod of two: 7-1)")),
]
MAX_POINTS = 100


def preset_points(name: str, size: int) -> list[int] | None:
    """The preset's points for a pod of `size`, or None where it gives none in whole points."""
    if name == DEFAULT:
        return default_scheme().get(str(size))
    points = place_points(name, size)
    return [int(p) for p in points] if all(p.denominator == 1 for p in points) else None


def preset_scheme(name: str, sizes: Iterable[int]) -> dict[str, list[int]]:
    """The preset as a scheme for these table sizes; a ValidationError on "scheme_preset" where it has no whole
    points for one of them."""
    if name not in PRESETS:
        raise ValidationError({"scheme_preset": _("Choose one of %(names)s.") % {"names": ", ".join(PRESETS)}})
    scheme = {}
    for size in sorted(set(sizes), reverse=True):
        points = preset_points(name, size)
        if points is None:
            raise ValidationError(
                {
                    "scheme_preset": _(
                        "The %(name)s points give no whole points for a pod of %(size)d: choose custom points for it."
                    )
                    % {"name": name, "size": size}
                }
            )
        scheme[str(size)] = points
    return scheme


def scheme_problem(scheme: object, sizes: Iterable[int]) -> str:
    """Why `scheme` is not a sound scheme for these table sizes ("" when it is)."""
    sizes = sorted(set(sizes), reverse=True)
    if not isinstance(scheme, Mapping) or not scheme:
        return _("Give the points per place for each table size, e.g. 4: 5, 3, 1, 0.")
    for key in scheme:
        if not re.fullmatch(r"[2-6]", str(key)) or int(key) not in sizes:
            return _("The tournament has no pods of %(size)s: its table sizes are %(sizes)s.") % {
                "size": str(key)[:10],
                "sizes": ", ".join(str(s) for s in sizes),
            }
    for size in sizes:
        problem = _points_problem(size, scheme.get(str(size)))
        if problem:
            return problem
    return ""


def _points_problem(size: int, points: object) -> str:
    """Why `points` are not a pod of `size`'s points per place ("" when they are)."""
    if points is None:
        return _("Give the points for a pod of %(size)d.") % {"size": size}
    if not isinstance(points, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
        return _("The points for a pod of %(size)d must be whole numbers from 0 to %(max)d.") % {
            "size": size,
            "max": MAX_POINTS,
        }
    if len(points) != size:
        return ngettext(
            "A pod of %(size)d needs %(size)d number, one per place: %(count)d given.",
            "A pod of %(size)d needs %(size)d numbers, one per place: %(count)d given.",
            size,
        ) % {"size": size, "count": len(points)}
    if not all(0 <= p <= MAX_POINTS for p in points):
        return _("The points for a pod of %(size)d must be whole numbers from 0 to %(max)d.") % {
            "size": size,
            "max": MAX_POINTS,
        }
    if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
        return _("The points for a pod of %(size)d must never increase from first place to last.") % {"size": size}
    if points[0] <= points[-1]:
        return _("In a pod of %(size)d first place must score more than last place.") % {"size": size}
    return ""


def validated_scheme(scheme: object, sizes: Iterable[int]) -> dict[str, list[int]]:
    """The scheme in size order (largest first), or a ValidationError on "scheme" saying why not."""
    problem = scheme_problem(scheme, sizes)
    if problem:
        raise ValidationError({"scheme": problem})
    assert isinstance(scheme, Mapping)
    return {str(size): list(scheme[str(size)]) for size in sorted({int(k) for k in scheme}, reverse=True)}


def parse_scheme(text: str) -> dict[str, list[int]]:
    """The form's custom points, "4: 5, 3, 1, 0; 3: 5, 2, 0", as a scheme (unchecked but for its being numbers);
    a ValidationError with the reason when it cannot be read."""
    scheme: dict[str, list[int]] = {}
    for part in (p.strip() for p in text.replace("\n", ";").split(";")):
        if not part:
            continue
        size, colon, points = part.partition(":")
        size = size.strip()
        if not colon or not re.fullmatch(r"[0-9]{1,2}", size):
            raise ValidationError(_("Write each table size, a colon and its points, e.g. 4: 5, 3, 1, 0; 3: 5, 2, 0."))
        numbers = [n.strip() for n in points.split(",")]
        if not all(re.fullmatch(r"[0-9]{1,3}", n) for n in numbers):
            raise ValidationError(
                _("The points for a pod of %(size)d must be whole numbers from 0 to %(max)d.")
                % {"size": int(size), "max": MAX_POINTS}
            )
        if str(int(size)) in scheme:
            raise ValidationError(_("Give the points for a pod of %(size)d once.") % {"size": int(size)})
        scheme[str(int(size))] = [int(n) for n in numbers]
    if not scheme:
        raise ValidationError(_("Give the points per place for each table size, e.g. 4: 5, 3, 1, 0."))
    return scheme


def scheme_text(scheme: Mapping) -> str:
    """The scheme as the form's custom points are written: "4: 5, 3, 1, 0; 3: 5, 2, 0"."""
    return "; ".join(
        f"{size}: {', '.join(str(p) for p in points)}"
        for size, points in sorted(scheme.items(), key=lambda item: -int(item[0]))
    )


def tournament_scheme_words(tournament) -> str:
    """The tournament's points per place in words, for the table sizes it uses (the default names pods of three and
    four whatever the sizes): "5, 3, 1, 0 (pods of 4); 5, 2, 0 (pods of 3)"."""
    used = {size: points for size, points in tournament.scheme.items() if int(size) in tournament.table_sizes}
    return scheme_words(used or tournament.scheme)


def scheme_words(scheme: Mapping) -> str:
    """ "5, 3, 1, 0 (pods of 4); 5, 2, 0 (pods of 3)": the largest pods first."""
    return "; ".join(
        _("%(points)s (pods of %(size)s)") % {"points": ", ".join(str(p) for p in points), "size": size}
        for size, points in sorted(scheme.items(), key=lambda item: -int(item[0]))
    )
