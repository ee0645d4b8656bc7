"""Paying for a province: troop cards or koku cards, the Hatamoto and the bonus tiles (rulings 1-3, 5, 6).

A payment, as a move gives it:

    {"troops": ["samurai", "bushi+sohei"],     troop cards discarded (never split: ruling 3)
     "kokus": [2, 1],                          koku cards discarded, by value
     "hatamoto": "sohei" | None,               the troop the Hatamoto tile stands in for (ruling 6)
     "bonuses": [                              bonus tiles used, applied in this order (ruling 5)
        {"tile": "exchange", "from": "bushi" | 2, "to": "sohei" | "koku"},
        {"tile": "plus_one", "on": "sohei" | "koku"}]}

The cards, the Hatamoto and the bonus tiles make a pool of troops and kokus. Exchange turns one troop
(either troop of a double card included) or one koku card of the given value into a troop of any
type, or one troop into a koku worth 1. +1 adds a troop of a type already in the pool, or 1 to the
kokus in the pool. The pool must then hold the province's troop requirement, or be kokus worth at
least its cost (a troop lost on a double card aside, ruling A9). Kokus beyond the cost are lost, as the
rulebook allows (ruling 2). Every other card and tile must count: a payment that would still pay without
one of them is refused (docs/rules/shitenno.md, ruling A1); the unused troop of a double card that gives
its other troop is simply lost (ruling 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Phrase
from games.engines.shitenno.board import (
    PROVINCES,
    TROOP_NAMES,
    TROOPS,
    card_name,
    check_koku,
    check_troop,
    check_troop_card,
    illegal,
    invalid,
    ordinal,
    troops_on,
)


@dataclass(frozen=True)
class Payment:
    troops: tuple[str, ...] = ()
    kokus: tuple[int, ...] = ()
    hatamoto: str | None = None
    # ("exchange", from: a troop or a koku value, to: a troop) | ("plus_one", on: a troop or "koku", None)
    bonuses: tuple[tuple[str, Any, Any], ...] = ()

    def without(self, item: tuple[str, int]) -> Payment:
        kind, i = item
        if kind == "troops":
            return Payment(self.troops[:i] + self.troops[i + 1 :], self.kokus, self.hatamoto, self.bonuses)
        if kind == "kokus":
            return Payment(self.troops, self.kokus[:i] + self.kokus[i + 1 :], self.hatamoto, self.bonuses)
        if kind == "hatamoto":
            return Payment(self.troops, self.kokus, None, self.bonuses)
        return Payment(self.troops, self.kokus, self.hatamoto, self.bonuses[:i] + self.bonuses[i + 1 :])

    def items(self) -> list[tuple[str, int]]:
        items = [("troops", i) for i in range(len(self.troops))] + [("kokus", i) for i in range(len(self.kokus))]
        if self.hatamoto:
            items.append(("hatamoto", 0))
        return items + [("bonuses", i) for i in range(len(self.bonuses))]

    def item_name(self, item: tuple[str, int]) -> str:
        return self.item_phrase(item).text

    def item_phrase(self, item: tuple[str, int]) -> Phrase:
        kind, i = item
        if kind == "troops":
            return Phrase(f"The {card_name(self.troops[i])} card", "shitenno.item.card", card=self.troops[i])
        if kind == "kokus":
            return Phrase(f"The Koku {self.kokus[i]} card", "shitenno.item.koku", value=self.kokus[i])
        if kind == "hatamoto":
            return Phrase("The Hatamoto", "shitenno.item.hatamoto")
        if self.bonuses[i][0] == "plus_one":
            return Phrase("The +1 tile", "shitenno.item.plus_one")
        return Phrase("The Exchange tile", "shitenno.item.exchange")

    def tiles_used(self, tile: str) -> int:
        return sum(1 for bonus in self.bonuses if bonus[0] == tile)


def parse_payment(raw: object) -> Payment:
    if not isinstance(raw, dict):
        raise invalid('A placement needs a "payment": {"troops": [...], "kokus": [...], ...}.', "payment_missing")
    unknown = set(raw) - {"troops", "kokus", "hatamoto", "bonuses"}
    if unknown:
        raise invalid(
            f"Unknown payment field(s): {', '.join(sorted(unknown))}.",
            "payment_fields",
            fields=", ".join(sorted(map(str, unknown)))[:80],
        )
    troops, kokus, bonuses = raw.get("troops", []), raw.get("kokus", []), raw.get("bonuses", [])
    if not isinstance(troops, list) or not isinstance(kokus, list) or not isinstance(bonuses, list):
        raise invalid('The payment\'s "troops", "kokus" and "bonuses" must be lists.', "payment_lists")
    hatamoto = raw.get("hatamoto")
    parsed = []
    for bonus in bonuses:
        if not isinstance(bonus, dict) or bonus.get("tile") not in ("exchange", "plus_one"):
            raise invalid(
                'Each bonus is {"tile": "exchange", "from": ..., "to": ...} or {"tile": "plus_one", "on": ...}.',
                "bonus_shape",
            )
        if bonus["tile"] == "exchange":
            source, target = bonus.get("from"), bonus.get("to")
            source = check_koku(source) if isinstance(source, int) else check_troop(source, "troop to exchange")
            if target != "koku":
                target = check_troop(target, 'exchange target (a troop or "koku")')
            parsed.append(("exchange", source, target))
        else:
            on = bonus.get("on")
            parsed.append(("plus_one", on if on == "koku" else check_troop(on, '+1 target (a troop or "koku")'), None))
    return Payment(
        troops=tuple(check_troop_card(c) for c in troops),
        kokus=tuple(check_koku(v) for v in kokus),
        hatamoto=None if hatamoto is None else check_troop(hatamoto, "Hatamoto troop"),
        bonuses=tuple(parsed),
    )


@dataclass
class Pool:
    """What a payment amounts to once the bonus tiles have done their work."""

    troops: dict[str, int] = field(default_factory=dict)
    kokus: list[int] = field(default_factory=list)  # face values of the koku cards (or exchanged kokus)
    koku_bonus: int = 0
    error: Phrase | None = None  # a bonus tile with nothing to act on

    @property
    def koku_total(self) -> int:
        return sum(self.kokus) + self.koku_bonus

    def troops_in_words(self) -> str:
        return troops_in_words(self.troops)


def troops_in_words(troops: dict[str, int]) -> str:
    parts = [f"{troops[t]} {TROOP_NAMES[t]}" for t in TROOPS if troops.get(t)]
    if not parts:
        return "no troops"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _exchange(pool: Pool, a: str | int, b: str) -> Phrase | None:
    """The Exchange tile changes one troop or koku of the payment (a) into a troop or a koku (b)."""
    if isinstance(a, int):
        if a not in pool.kokus:
            return Phrase(
                f"The Exchange tile has no Koku {a} card to change in this payment.",
                "shitenno.exchange_no_koku",
                value=a,
            )
        pool.kokus.remove(a)
    else:
        if not pool.troops.get(a):
            return Phrase(
                f"The Exchange tile has no {TROOP_NAMES[a]} to change in this payment.",
                "shitenno.exchange_no_troop",
                troop=a,
            )
        pool.troops[a] -= 1
    if b == "koku":
        if isinstance(a, int):
            return Phrase(
                "The Exchange tile changes a koku into a troop, not into a koku.", "shitenno.exchange_koku_to_koku"
            )
        pool.kokus.append(1)
    else:
        pool.troops[b] = pool.troops.get(b, 0) + 1
    return None


def _plus_one(pool: Pool, a: str) -> Phrase | None:
    """The +1 tile adds one to a koku or a troop being played."""
    if a == "koku":
        if not pool.kokus:
            return Phrase("The +1 tile needs a koku being played.", "shitenno.plus_one_no_koku")
        pool.koku_bonus += 1
    else:
        if not pool.troops.get(a):
            return Phrase(f"The +1 tile needs a {TROOP_NAMES[a]} being played.", "shitenno.plus_one_no_troop", troop=a)
        pool.troops[a] += 1
    return None


def pool_of(payment: Payment) -> Pool:
    """What a payment puts on the table: its cards' troops, its kokus and the Hatamoto's troop, then each bonus
    tile applied in turn; the first tile that cannot apply is the pool's error."""
    pool = Pool()
    for card in payment.troops:
        for troop in troops_on(card):
            pool.troops[troop] = pool.troops.get(troop, 0) + 1
    pool.kokus = list(payment.kokus)
    if payment.hatamoto:
        pool.troops[payment.hatamoto] = pool.troops.get(payment.hatamoto, 0) + 1
    for tile, a, b in payment.bonuses:
        pool.error = _exchange(pool, a, b) if tile == "exchange" else _plus_one(pool, a)
        if pool.error is not None:
            return pool
    pool.troops = {t: n for t, n in pool.troops.items() if n}
    return pool


def requirement(province: str, top: str | None) -> dict[str, int]:
    """The troops a placement needs: the province's own type, plus the top tile's troop (ruling 1)."""
    p = PROVINCES[province]
    needed = {p.troop: p.size}
    last = top or p.troop
    needed[last] = needed.get(last, 0) + 1
    return needed


def _lost_halves(payment: Payment, pool: Pool) -> bool:
    """Whether the troops left in a koku payment's pool can all be the other halves of double cards whose one
    troop an Exchange turned into a koku (ruling A9): such a troop is lost, not paid."""
    if not pool.troops:
        return True
    doubles = [card for card in payment.troops if len(troops_on(card)) == 2]
    to_koku = sum(1 for tile, _a, b in payment.bonuses if tile == "exchange" and b == "koku")
    left = sum(pool.troops.values())
    return left <= min(len(doubles), to_koku) and all(
        any(troop in troops_on(card) for card in doubles) for troop in pool.troops
    )


def pays_with(payment: Payment, pool: Pool, needed: dict[str, int], cost: int) -> str | None:
    """ "troops" or "kokus": how the pool pays the placement; None if it does not."""
    if pool.error:
        return None
    if all(pool.troops.get(t, 0) >= n for t, n in needed.items()):
        return "troops"
    if pool.kokus and pool.koku_total >= cost and _lost_halves(payment, pool):
        return "kokus"
    return None


def troops_phrase(troops: dict[str, int]) -> Phrase:
    """Troops counted by type, as a Phrase (troops_in_words() in the site's words)."""
    if not any(troops.get(t) for t in TROOPS):
        return Phrase("no troops", "shitenno.no_troops")
    counts = [
        Phrase(f"{troops[t]} {TROOP_NAMES[t]}", "shitenno.troop_count", n=troops[t], troop=t)
        for t in TROOPS
        if troops.get(t)
    ]
    return Phrase(troops_in_words(troops), "shitenno.troops", troops=counts)


def _falls_short(payment: Payment, pool: Pool, needed: dict[str, int], cost: int) -> bool:
    """Whether the pool fails to pay the placement (cheap: no words, for the "not needed" search)."""
    return bool(pool.error) or pays_with(payment, pool, needed, cost) is None


def _shortfall(payment: Payment, pool: Pool, needed: dict[str, int], cost: int) -> Phrase | None:
    """Why the pool does not pay the placement (the words without the province), or None if it does."""
    if pool.error:
        return pool.error
    if pays_with(payment, pool, needed, cost):
        return None
    if pool.troops and pool.kokus:
        return Phrase(
            "A payment is all troops or all kokus (ruling 2); this one comes to "
            f"{pool.troops_in_words()} and {pool.koku_total} {'koku' if pool.koku_total == 1 else 'kokus'}.",
            "shitenno.mixed_payment",
            troops=dict(pool.troops),
            kokus=pool.koku_total,
        )
    if pool.kokus:
        return Phrase(
            f"costs {cost} kokus; you paid {pool.koku_total}", "shitenno.costs", cost=cost, paid=pool.koku_total
        )
    # Troops by type ({"bushi": 2}) as parameters: a simulation meets this refusal tens of thousands of times.
    return Phrase(
        f"needs {troops_in_words(needed)}; you paid {pool.troops_in_words()}",
        "shitenno.needs",
        needed=dict(needed),
        paid=dict(pool.troops),
    )


def check_payment(payment: Payment, province: str, position: int, top: str | None) -> Pool:
    """The pool the payment makes for `province`'s `position` (1-4), or IllegalMove saying why not."""
    p = PROVINCES[province]
    needed, cost = requirement(province, top), p.positions[position - 1]
    if not payment.items():
        raise illegal(
            f"{p.name} is paid with troop cards or koku cards; the payment is empty.",
            "empty_payment",
            province=province,
        )
    pool = pool_of(payment)
    why = _shortfall(payment, pool, needed, cost)
    if why:
        if why.code == "shitenno.needs":
            raise illegal(f"{p.name} {why}.", "troops_short", province=province, **why.params)
        if why.code == "shitenno.costs":
            raise illegal(
                f"{p.name}'s {ordinal(position)} position {why}.",
                "kokus_short",
                province=province,
                position=position,
                **why.params,
            )
        raise illegal(why.text, why.code.removeprefix("shitenno."), **why.params)  # the code of a Phrase built above
    by_kokus = pays_with(payment, pool, needed, cost) == "kokus"
    for item in payment.items():
        if by_kokus and item[0] == "kokus":
            continue  # more kokus than the cost: the surplus is lost (ruling 2)
        smaller, names = _without(payment, item)
        if not _falls_short(smaller, pool_of(smaller), needed, cost):
            them = "them" if len(names) > 1 else "it"
            raise illegal(
                f"{_and([n.text for n in names])} {'are' if len(names) > 1 else 'is'} not needed: "
                f"{p.name}'s {ordinal(position)} position is paid without {them}. Take {them} out of the payment.",
                "not_needed_many" if len(names) > 1 else "not_needed",
                items=names,
                province=province,
                position=position,
            )
    return pool


def _without(payment: Payment, item: tuple[str, int]) -> tuple[Payment, list[Phrase]]:
    """The payment without `item`, and without the bonus tiles left with nothing to act on once it is gone (an
    Exchange of that very card): a card is not needed when the payment pays without it and its tiles."""
    names = [payment.item_phrase(item)]
    smaller = payment.without(item)
    while pool_of(smaller).error:  # only a bonus tile errs: the first one with nothing to act on goes too
        idle = next(
            i
            for i in range(len(smaller.bonuses))
            if pool_of(Payment(smaller.troops, smaller.kokus, smaller.hatamoto, smaller.bonuses[: i + 1])).error
        )
        tile = smaller.item_phrase(("bonuses", idle))
        # the code of a Phrase built above: only the first word's case changes
        names.append(Phrase(tile.text.replace("The ", "the ", 1), tile.code, **tile.params))
        smaller = smaller.without(("bonuses", idle))
    return smaller, names


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def payment_to_json(payment: Payment) -> dict:
    bonuses: list[dict] = []
    for tile, a, b in payment.bonuses:
        bonuses.append({"tile": tile, "from": a, "to": b} if tile == "exchange" else {"tile": tile, "on": a})
    return {
        "troops": list(payment.troops),
        "kokus": list(payment.kokus),
        "hatamoto": payment.hatamoto,
        "bonuses": bonuses,
    }


def payment_in_words(payment: Payment, pool: Pool, cost: int | None = None) -> str:
    if pool.kokus and (not pool.troops or cost is not None and pool.koku_total >= cost and _lost_halves(payment, pool)):
        paid = f"{pool.koku_total} kokus"
        if cost is not None and pool.koku_total > cost:
            paid += f", {pool.koku_total - cost} lost"
    else:
        paid = troops_in_words(pool.troops)
    used = [card_name(c) for c in payment.troops] + [f"Koku {v}" for v in payment.kokus]
    if payment.hatamoto:
        used.append(f"Hatamoto as {TROOP_NAMES[payment.hatamoto]}")
    for tile, a, b in payment.bonuses:
        if tile == "exchange":
            source = f"Koku {a}" if isinstance(a, int) else TROOP_NAMES[str(a)]
            used.append(f"Exchange {source} → {'koku' if b == 'koku' else TROOP_NAMES[str(b)]}")
        else:
            used.append(f"+1 on {'koku' if a == 'koku' else TROOP_NAMES[str(a)]}")
    return f"{paid} ({', '.join(used)})"


def payment_phrase(payment: Payment, pool: Pool, cost: int | None = None) -> Phrase:
    """payment_in_words() as a Phrase: what was paid, then each card and tile used."""
    if pool.kokus and (not pool.troops or cost is not None and pool.koku_total >= cost and _lost_halves(payment, pool)):
        paid = Phrase(f"{pool.koku_total} kokus", "shitenno.paid_kokus", kokus=pool.koku_total)
        if cost is not None and pool.koku_total > cost:
            paid = Phrase(
                f"{pool.koku_total} kokus, {pool.koku_total - cost} lost",
                "shitenno.paid_kokus_lost",
                kokus=pool.koku_total,
                lost=pool.koku_total - cost,
            )
    else:
        paid = troops_phrase(pool.troops)
    used = [Phrase(card_name(c), "shitenno.card", card=c) for c in payment.troops]
    used += [Phrase(f"Koku {v}", "shitenno.koku", value=v) for v in payment.kokus]
    if payment.hatamoto:
        used.append(
            Phrase(f"Hatamoto as {TROOP_NAMES[payment.hatamoto]}", "shitenno.used.hatamoto", troop=payment.hatamoto)
        )
    for tile, a, b in payment.bonuses:
        target = "koku" if b == "koku" else TROOP_NAMES.get(str(b), "")
        if tile == "exchange" and isinstance(a, int):
            used.append(Phrase(f"Exchange Koku {a} → {target}", "shitenno.used.exchange_koku", value=a, to=b))
        elif tile == "exchange":
            used.append(
                Phrase(f"Exchange {TROOP_NAMES[str(a)]} → {target}", "shitenno.used.exchange_troop", troop=a, to=b)
            )
        else:
            on = "koku" if a == "koku" else TROOP_NAMES[str(a)]
            used.append(Phrase(f"+1 on {on}", "shitenno.used.plus_one", on=a))
    return Phrase(payment_in_words(payment, pool, cost), "shitenno.paid", paid=paid, used=used)
