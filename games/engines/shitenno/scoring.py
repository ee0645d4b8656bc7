"""The final count and the winner (rulebook "END OF GAME"; rulings 12 and 13).

`final_count(end)` is pure and stands alone, for tables that did not enter every move; the engine's
own outcome calls it with the end state (there is no other scoring code). Its input:

    {"generals": ["honda", "ii", ...],                      the seats, in order
     "titles": {"honda": "daimyo", ...},                    the titles held in the last year
     "favour": [{"positions": 31, "title_bonus": 6}, ...]   favour won during the game, per seat
               (or plain ints per seat when the parts are not known),
     "provinces": {"kanto": [{"seat": 0, "face": "simple"}, {"seat": 2, "face": "golden"}], ...}
               kamons left to right (a missing province is empty),
     "kokus": [[1, 2], ...],                                koku cards in hand, by value, per seat
     "troops": [["samurai", "bushi+sohei", "hidden"], ...]  troop cards in hand per seat ("hidden": a
               card never shown, counted as one troop),
     "tiles": [{"exchange": 1, "plus_one": 0, "card_taking": 2}, ...]   bonus tiles left, per seat
     "termination": "koku_deck_exhausted"}                  optional; "final_count" by default
"""

from __future__ import annotations

from games.engines.base import Outcome, Phrase, Placing
from games.engines.shitenno.board import (
    BONUSES,
    GENERALS,
    KOKU_DECK,
    MAJORITY_FAVOUR,
    POSITIONS,
    PROVINCES,
    TILES_PER_KIND,
    TITLE_NAMES,
    TITLES,
    TROOPS,
    check_koku,
    check_troop_card,
    invalid,
    ordinal,
    troops_on,
)

FACE_WEIGHT = {"simple": 1, "golden": 2}


END_FIELDS = {"generals", "titles", "favour", "provinces", "kokus", "troops", "tiles", "termination"}
TERMINATIONS = ("final_count", "kamon_stock_empty", "koku_deck_exhausted")
# No table comes near these; they keep a typo or a hostile number (10**400, -994) out of the stored result.
MAX_FAVOUR = 999
MAX_TILES = TILES_PER_KIND * len(TROOPS)  # the tiles of one bonus face in the game


def _per_seat(end: dict, key: str, n: int) -> list:
    values = end.get(key)
    if not isinstance(values, list) or len(values) != n:
        raise invalid(f'The final count needs "{key}": one entry per seat ({n}).', "count.per_seat", field=key, seats=n)
    return values


def _count(value: object, what: str, most: int) -> int:
    """A whole number from 0 to `most`; a bool, a fraction or a string is refused, never rounded."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise invalid(
            f"{what} is a whole number from 0 to {most}, not {value!r}.",
            "count.not_a_count",
            what=what,
            most=most,
            value=repr(value)[:40],
        )
    return value


def _favour_parts(so_far: object) -> dict[str, int]:
    if isinstance(so_far, dict):
        unknown = set(so_far) - {"positions", "title_bonus"}
        if unknown:
            raise invalid(
                f'Each "favour" entry has "positions" and "title_bonus", not {", ".join(sorted(unknown))}.',
                "count.favour_fields",
                fields=", ".join(sorted(map(str, unknown)))[:80],
            )
        return {
            "positions": _count(so_far.get("positions", 0), 'A "positions" favour', MAX_FAVOUR),
            "title_bonus": _count(so_far.get("title_bonus", 0), 'A "title_bonus" favour', MAX_FAVOUR),
        }
    if isinstance(so_far, int) and not isinstance(so_far, bool):
        return {"favour_before_count": _count(so_far, "Favour", MAX_FAVOUR)}
    raise invalid('Each "favour" entry is an int or {"positions": ..., "title_bonus": ...}.', "count.favour_shape")


def _tiles_held(tiles: object) -> dict[str, int]:
    if not isinstance(tiles, dict) or set(tiles) - set(BONUSES):
        raise invalid(
            f'"tiles" counts each seat\'s bonus tiles by face: {", ".join(BONUSES)}.',
            "count.tiles_shape",
            bonuses=", ".join(BONUSES),
        )
    return {b: _count(tiles.get(b, 0), f"A count of {b} tiles", MAX_TILES) for b in BONUSES}


def _troop_count(cards: object) -> int:
    if not isinstance(cards, list):
        raise invalid(
            '"troops" lists each seat\'s troop cards, e.g. ["samurai", "bushi+sohei", "hidden"].', "count.troops_shape"
        )
    return sum(1 if card == "hidden" else len(troops_on(check_troop_card(card))) for card in cards)


def _check_kamon(kamon: object, n: int) -> bool:
    return (
        isinstance(kamon, dict)
        and set(kamon) == {"seat", "face"}
        and isinstance(kamon["seat"], int)
        and not isinstance(kamon["seat"], bool)
        and 0 <= kamon["seat"] < n
        and isinstance(kamon["face"], str)
        and kamon["face"] in FACE_WEIGHT
    )


def majority(kamons: list[dict], n: int) -> dict:
    """Who wins a province's 6 points: the greatest weight, then the leftmost kamon (ruling 12)."""
    weights = [0] * n
    leftmost: dict[int, int] = {}
    for position, kamon in enumerate(kamons, start=1):
        weights[kamon["seat"]] += FACE_WEIGHT[kamon["face"]]
        leftmost.setdefault(kamon["seat"], position)
    best = max(weights)
    if best == 0:
        return {"weights": weights, "winner": None, "tiebreak": None}
    tied = [seat for seat in range(n) if weights[seat] == best]
    winner = min(tied, key=lambda seat: leftmost[seat])
    if len(tied) > 1:
        phrase = Phrase(
            f"tied on weight {best}; the kamon furthest left (position {leftmost[winner]}, "
            f"{ordinal(leftmost[winner])}) wins the tie",
            "shitenno.tiebreak.leftmost",
            weight=best,
            position=leftmost[winner],
        )
        return {"weights": weights, "winner": winner, "tiebreak": phrase}  # a Phrase: stored as its English
    return {"weights": weights, "winner": winner, "tiebreak": None}


def _generals_at_the_table(end: dict) -> list[str]:
    """The end's fields are known ones, and "generals" names 2 to 4 different generals, one per seat."""
    if not isinstance(end, dict):
        raise invalid("The final count needs an object describing the end of the game.", "count.not_an_object")
    unknown = set(end) - END_FIELDS
    if unknown:
        raise invalid(
            f"Unknown final-count field(s): {', '.join(sorted(map(str, unknown)))}.",
            "count.unknown_fields",
            fields=", ".join(sorted(map(str, unknown)))[:80],
        )
    generals = end.get("generals")
    if (
        not isinstance(generals, list)
        or not 2 <= len(generals) <= 4
        or not all(isinstance(g, str) and g in GENERALS for g in generals)
    ):
        raise invalid(
            f'The final count needs "generals": 2 to 4 of {", ".join(GENERALS)}, one per seat.',
            "count.generals",
            generals=", ".join(GENERALS),
        )
    if len(set(generals)) != len(generals):
        raise invalid("Each general is played by one seat only.", "count.general_twice")
    return generals


def _last_years_titles(end: dict, generals: list[str]) -> dict[str, str]:
    """The title each general held in the last year, each title held once (they break ties on favour)."""
    titles = end.get("titles")
    if (
        not isinstance(titles, dict)
        or set(titles) != set(generals)
        or not all(isinstance(t, str) and t in TITLES for t in titles.values())
    ):
        raise invalid('The final count needs "titles": the title each general held in the last year.', "count.titles")
    if len(set(titles.values())) != len(titles):
        raise invalid("Each title is held by one general only.", "count.title_twice")
    return titles


def _how_it_ended(end: dict) -> str:
    termination = end.get("termination", "final_count")
    if termination not in TERMINATIONS:
        raise invalid(
            f'"termination" is one of {", ".join(TERMINATIONS)}.',
            "count.termination",
            terminations=", ".join(TERMINATIONS),
        )
    return termination


def _seat_favour(generals: list[str], favour: list, kokus: list, troops: list, tiles: list) -> list[dict]:
    """Each seat's favour before the majorities: its track, its kokus in hand and its tiles."""
    breakdown = []
    for seat in range(len(generals)):
        parts = _favour_parts(favour[seat])
        if not isinstance(kokus[seat], list) or len(kokus[seat]) > sum(KOKU_DECK.values()):
            raise invalid(
                f'"kokus" lists the koku cards in each seat\'s hand by value (at most {sum(KOKU_DECK.values())}).',
                "count.kokus",
                most=sum(KOKU_DECK.values()),
            )
        held = _tiles_held(tiles[seat])
        koku = sum(check_koku(v) for v in kokus[seat])
        # Ruling 12: an Exchange tile scores 1 only if it has a troop to turn into a koku.
        exchange = min(held["exchange"], _troop_count(troops[seat]))
        breakdown.append(
            {
                "seat": seat,
                "general": generals[seat],
                **parts,
                "kokus": koku,
                "exchange_tiles": exchange,
                "plus_one_tiles": held["plus_one"],
                "majorities": [],
                "majority_points": 0,
            }
        )
    return breakdown


def _kamons_on_the_board(end: dict) -> dict:
    provinces = end.get("provinces", {})
    if not isinstance(provinces, dict) or not set(provinces) <= set(PROVINCES):
        raise invalid(
            f'"provinces" maps province slugs ({", ".join(PROVINCES)}) to their kamons.',
            "count.provinces",
            provinces=", ".join(PROVINCES),
        )
    return provinces


def _province_majorities(provinces: dict, breakdown: list[dict]) -> dict[str, dict]:
    """Each province's majority, its favour added to the winning seat's row."""
    n = len(breakdown)
    majorities = {}
    for slug in PROVINCES:
        kamons = provinces.get(slug, [])
        if not isinstance(kamons, list) or len(kamons) > POSITIONS or not all(_check_kamon(k, n) for k in kamons):
            raise invalid(
                f'{PROVINCES[slug].name}: kamons are [{{"seat": 0-{n - 1}, "face": "simple" | "golden"}}].',
                "count.kamons",
                province=slug,
                last=n - 1,
            )
        result = majority(kamons, n)
        majorities[slug] = result
        if result["winner"] is not None:
            breakdown[result["winner"]]["majorities"].append(slug)
            breakdown[result["winner"]]["majority_points"] += MAJORITY_FAVOUR
    return majorities


_SCORED_KEYS = ("positions", "title_bonus", "favour_before_count", "kokus", "exchange_tiles", "plus_one_tiles")


def _placings(breakdown: list[dict], generals: list[str], titles: dict[str, str]) -> list[Placing]:
    """Most favour first; a tie goes to the higher of last year's titles."""
    n = len(generals)

    def title_rank(seat: int) -> int:
        return TITLES.index(titles[generals[seat]])

    order = sorted(range(n), key=lambda seat: (-breakdown[seat]["total"], title_rank(seat)))
    placings = []
    for rank, seat in enumerate(order, start=1):
        total = breakdown[seat]["total"]
        tied = [other for other in order if breakdown[other]["total"] == total]
        tiebreak = None
        if len(tied) > 1:
            names = " > ".join(TITLE_NAMES[titles[generals[s]]] for s in tied)
            tiebreak = Phrase(
                f"tied on {total} favour; last year's titles decide ({names})",
                "shitenno.tiebreak.titles",
                favour=total,
                titles=" > ".join(titles[generals[s]] for s in tied),
            )
        placings.append(Placing(seat=seat, rank=rank, score=total, tiebreak=tiebreak))
    return placings


def final_count(end: dict) -> Outcome:
    """The final count of an end of the game (entered by hand or reached by moves): each seat's favour, the
    provinces' majorities, then the placings."""
    generals = _generals_at_the_table(end)
    titles = _last_years_titles(end, generals)
    termination = _how_it_ended(end)
    n = len(generals)
    favour, kokus = _per_seat(end, "favour", n), _per_seat(end, "kokus", n)
    troops, tiles = _per_seat(end, "troops", n), _per_seat(end, "tiles", n)
    provinces = _kamons_on_the_board(end)
    breakdown = _seat_favour(generals, favour, kokus, troops, tiles)
    majorities = _province_majorities(provinces, breakdown)
    for row in breakdown:
        row["total"] = sum(row.get(key, 0) for key in _SCORED_KEYS) + row["majority_points"]
    return Outcome(
        termination=termination,
        placings=tuple(_placings(breakdown, generals, titles)),
        details={"breakdown": breakdown, "majorities": majorities},
    )
