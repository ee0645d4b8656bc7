"""Shitennō's board and components, as printed (see docs/rules/shitenno.md, "The board and the components").

Everything here is constant data plus the names players read: provinces, troop types, the 34 troop
cards, the 24 koku cards, the 24 bonus tiles, the titles and the sharing draw by player count.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.base import IllegalMove, InvalidMove

GENERALS: dict[str, str] = {"honda": "Honda", "ii": "Ii", "sakakibara": "Sakakibara", "sakai": "Sakai"}

# Titles from the highest (4 Bakufu seals) to the lowest (1 seal): the order of play.
TITLES: tuple[str, ...] = ("daimyo", "shomyo", "sensei", "hatamoto")
TITLE_NAMES: dict[str, str] = {
    "daimyo": "Daimyō",
    "shomyo": "Shōmyō",
    "sensei": "Sensei",
    "hatamoto": "Hatamoto",
}
SEALS: dict[str, int] = {"daimyo": 4, "shomyo": 3, "sensei": 2, "hatamoto": 1}
TITLE_BONUS: dict[str, int] = {"daimyo": 2, "shomyo": 1}  # extra favour per kamon placed (ruling 4)

TROOPS: tuple[str, ...] = ("samurai", "bushi", "sohei", "shinobi")  # also the canonical order in doubles
TROOP_NAMES: dict[str, str] = {"samurai": "Samurai", "bushi": "Bushi", "sohei": "Sōhei", "shinobi": "Shinobi"}

BONUSES: tuple[str, ...] = ("exchange", "plus_one", "card_taking")
BONUS_NAMES: dict[str, str] = {"exchange": "Exchange", "plus_one": "+1", "card_taking": "Card Taking"}
TILES_PER_KIND = 2  # 24 bonus tiles = 4 troop faces x 3 bonus faces x 2
TILES_PER_TROOP = TILES_PER_KIND * len(BONUSES)
TILES_PER_GATE = 3

KAMONS_BY_PLAYERS: dict[int, int] = {2: 12, 3: 10, 4: 8}
DRAW_BY_PLAYERS: dict[int, tuple[int, int]] = {2: (4, 2), 3: (6, 3), 4: (8, 4)}  # (troop cards, koku cards)
KAMONS_PER_YEAR = 2  # ruling 7
HIDDEN_CARDS_AT_SETUP = 2
MAJORITY_FAVOUR = 6


@dataclass(frozen=True)
class Province:
    slug: str
    name: str
    troop: str
    positions: tuple[int, ...]  # favour of each position, left to right

    @property
    def size(self) -> int:
        """Troops of its own type a placement needs besides the gate's troop (ruling 1)."""
        return 3 if self.positions[0] == 5 else 2


_LARGE = (5, 6, 8, 11)
_SMALL = (3, 4, 6, 9)
PROVINCES: dict[str, Province] = {
    p.slug: p
    for p in (
        Province("kanto", "Kantō", "samurai", _LARGE),
        Province("kansai", "Kansai", "shinobi", _LARGE),
        Province("shikoku", "Shikoku", "sohei", _LARGE),
        Province("tohoku", "Tōhoku", "bushi", _LARGE),
        Province("chugoku", "Chūgoku", "samurai", _SMALL),
        Province("chubu", "Chūbu", "shinobi", _SMALL),
        Province("hokkaido", "Hokkaidō", "sohei", _SMALL),
        Province("kyushu", "Kyūshū", "bushi", _SMALL),
    )
}
POSITIONS = 4

# Troop cards: 6 simple cards of each type, the 4 same-type doubles and the 6 mixed doubles.
DOUBLES: tuple[str, ...] = tuple(f"{a}+{b}" for i, a in enumerate(TROOPS) for b in TROOPS[i:])
TROOP_DECK: dict[str, int] = {**{t: 6 for t in TROOPS}, **{d: 1 for d in DOUBLES}}
CARD_ORDER: dict[str, int] = {card: i for i, card in enumerate(TROOP_DECK)}
KOKU_DECK: dict[str, int] = {"1": 12, "2": 8, "3": 4}  # value -> cards (str keys: the state is JSON)


def troops_on(card: str) -> tuple[str, ...]:
    """The troops a troop card shows: one for a simple card, two for a double."""
    return tuple(card.split("+"))


def in_card_order(cards: list[str]) -> list[str]:
    """Troop cards sorted as the rulebook lists them: simple cards, then doubles."""
    return sorted(cards, key=CARD_ORDER.__getitem__)


def card_name(card: str) -> str:
    return "+".join(TROOP_NAMES[t] for t in troops_on(card))


def invalid(message: str, code: str, **params: object) -> InvalidMove:
    """A malformed move: `code` (without the "shitenno." prefix) and `params` let the site say it in Dutch."""
    return InvalidMove(message, code=f"shitenno.{code}", params=params)


def illegal(message: str, code: str, **params: object) -> IllegalMove:
    """A move the rules forbid now: `code` and `params` as for invalid()."""
    return IllegalMove(message, code=f"shitenno.{code}", params=params)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def check_troop_card(card: object) -> str:
    """`card` if it names a troop card, else InvalidMove (with the canonical spelling when reversed)."""
    if isinstance(card, str) and card in TROOP_DECK:
        return card
    if isinstance(card, str) and "+" in card:
        reordered = "+".join(sorted(card.split("+"), key=lambda t: TROOPS.index(t) if t in TROOPS else 9))
        if reordered in TROOP_DECK:
            raise invalid(
                f"Unknown troop card {card!r}; did you mean {reordered!r}?",
                "card_reordered",
                card=card,
                reordered=reordered,
            )
    raise invalid(
        f"Unknown troop card {card!r}; troop cards are {', '.join(TROOPS)} or doubles such as 'bushi+sohei'.",
        "unknown_card",
        card=repr(card)[:40],
        troops=", ".join(TROOPS),
    )


def check_troop(troop: object, what: str = "troop") -> str:
    if isinstance(troop, str) and troop in TROOPS:
        return troop
    raise invalid(
        f"Unknown {what} {troop!r}; troops are {', '.join(TROOPS)}.",
        "unknown_troop",
        value=repr(troop)[:40],
        troops=", ".join(TROOPS),
    )


def check_koku(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and str(value) in KOKU_DECK:
        return value
    raise invalid(
        f"Unknown koku card {value!r}; koku cards are worth 1, 2 or 3.", "unknown_koku", value=repr(value)[:40]
    )


def check_province(slug: object) -> Province:
    if isinstance(slug, str) and slug in PROVINCES:
        return PROVINCES[slug]
    raise invalid(
        f"Unknown province {slug!r}; provinces are {', '.join(PROVINCES)}.",
        "unknown_province",
        value=repr(slug)[:40],
        provinces=", ".join(PROVINCES),
    )


def check_title(title: object) -> str:
    if isinstance(title, str) and title in TITLES:
        return title
    raise invalid(
        f"Unknown title {title!r}; titles are {', '.join(TITLES)}.",
        "unknown_title",
        value=repr(title)[:40],
        titles=", ".join(TITLES),
    )
