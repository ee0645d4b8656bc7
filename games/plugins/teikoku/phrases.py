"""Teikoku's words in the reader's language: every code its engine says (refusals, the log's sentences,
victories) as a gettext sentence with the engine's named parameters, and the game words among them (seasons,
phases, decks, victories; clans by name from the table's state). tests/games/test_phrases_dutch.py proves
every code the engine source can produce is here.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.engines.teikoku.rules import CLAN_NAMES
from games.phrases import Catalogue, Plural, in_words

from .context import DECK_LABELS, PHASES, SEASONS

TERMINATIONS = {"aggression": _("aggression"), "attrition": _("attrition"), "longevity": _("longevity")}
ACTIONS = {  # what a refusal says was attempted
    "acquiring from the Port": _("acquiring from the Port"),
    "acquiring": _("acquiring"),
    "attack on a Port card": _("attack on a Port card"),
    "attack on the Port": _("attack on the Port"),
    "an attack": _("an attack"),
    "a port bounty": _("a port bounty"),
    "an attack on the Port's treasury": _("an attack on the Port's treasury"),
    "a raid": _("a raid"),
    "commerce": _("commerce"),
    "a trade": _("a trade"),
    "banishing to the Pit": _("banishing to the Pit"),
    "the Autumn banish": _("the Autumn banish"),
}
EXPECTED = {  # what a field should have been
    "integer": _("whole number"),
    "boolean": _("true or false"),
    "string": _("text"),
    "list": _("list"),
    "seat, port or supply": _('seat number, "port" or "supply"'),
    "list of clans": _("list of clans"),
}


def _clan(seat: Any, state: dict | None) -> str:
    """A seat by its clan's name (the table's state says which clan sits where)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and state and 0 <= seat < len(state.get("clans", [])):
        return CLAN_NAMES[state["clans"][seat]]
    return str(seat)


def _holder(holder: Any, state: dict | None) -> str:
    if holder == "port":
        return str(_("the Port"))
    if holder == "supply":
        return str(_("the supply"))
    return _clan(holder, state)


def _expected(value: Any, state: dict | None) -> str:
    dice = re.fullmatch(r"list of (\d+) dice", str(value))
    if dice:
        return str(_("list of %(count)s dice")) % {"count": dice.group(1)}
    return str(EXPECTED.get(value, value))


SENTENCES: dict[str, Any] = {
    "teikoku.clan": "%(clan)s",  # a name, said alike
    "teikoku.holder.port": _("the Port"),
    "teikoku.holder.supply": _("the supply"),
    "teikoku.describe.when": _("Year %(year)s, %(season)s, %(phase)s"),
    "teikoku.describe.move": "%(when)s: %(move)s",  # a name, said alike
    "teikoku.describe.move_and_end": "%(when)s: %(move)s %(end)s",  # a name, said alike
    "teikoku.describe.victory": _("%(clan)s wins by %(termination)s."),
    "teikoku.describe.shared_victory": _("%(clans)s share the victory by %(termination)s."),
    "teikoku.describe.end_turn": _("%(clan)s ends their %(phase)s turn."),
    "teikoku.describe.bounty": _(
        "%(clan)s defeats a Port card of blood %(blood)s and takes %(treasure)s treasure of bounty from the Port."
    ),
    "teikoku.describe.acquire": _("%(clan)s acquires a card from the Port (%(left)s left in the Units deck)."),
    "teikoku.describe.port_attack": _(
        "%(clan)s attacks the Port's treasury with %(blood)s blood and takes %(treasure)s treasure."
    ),
    "teikoku.describe.raid_table": _(
        "%(clan)s raids %(defender)s: 2D6 rolled at the table %(dice)s + %(cubes)s unused battle cube(s) "
        "= %(total)s; %(clan)s takes %(treasure)s treasure."
    ),
    "teikoku.describe.raid_site": _(
        "%(clan)s raids %(defender)s: 2D6 rolled by the site %(dice)s + %(cubes)s unused battle cube(s) "
        "= %(total)s; %(clan)s takes %(treasure)s treasure."
    ),
    "teikoku.describe.commerce": _(
        "%(clan)s buys a %(deck)s card for %(cost)s treasure, paid to the Port (transaction %(done)s of %(limit)s)."
    ),
    "teikoku.describe.trade": _(
        "%(clan)s trades a special card for a %(deck)s card (transaction %(done)s of %(limit)s)."
    ),
    "teikoku.describe.pit_fee": Plural(
        ngettext_lazy(
            "%(clan)s banishes %(cards)s card to the Pit and pays %(fee)s treasure to the Port.",
            "%(clan)s banishes %(cards)s cards to the Pit and pays %(fee)s treasure to the Port.",
            "cards",
        ),
        "cards",
    ),
    "teikoku.describe.banish": _("%(clan)s banishes a card from their hand (Autumn)."),
    "teikoku.describe.card_effect": _(
        "%(card)s, played by %(clan)s: %(amount)s treasure from %(source)s to %(target)s."
    ),
    "teikoku.describe.card_effect_note": _(
        "%(card)s, played by %(clan)s: %(amount)s treasure from %(source)s to %(target)s (%(note)s)."
    ),
    "teikoku.describe.correction": _(
        "Correction entered by %(clan)s: %(amount)s treasure from %(source)s to %(target)s."
    ),
    "teikoku.describe.correction_note": _(
        "Correction entered by %(clan)s: %(amount)s treasure from %(source)s to %(target)s (%(note)s)."
    ),
    "teikoku.describe.cards_leave": Plural(
        ngettext_lazy(
            "%(count)s card leaves the %(deck)s deck (%(note)s); %(left)s left.",
            "%(count)s cards leave the %(deck)s deck (%(note)s); %(left)s left.",
            "count",
        ),
        "count",
    ),
    "teikoku.describe.fortified": _("%(clan)s's land holds no card: %(clan)s is fortified."),
    "teikoku.describe.unfortified": _("%(clan)s's land holds cards again: %(clan)s is no longer fortified."),
    "teikoku.describe.roll_table": _("%(clan)s rolls %(dice)s at the table."),
    "teikoku.describe.roll_site": _("%(clan)s rolls %(dice)s by the site."),
    "teikoku.describe.roll_table_note": _("%(clan)s rolls %(dice)s at the table (%(note)s)."),
    "teikoku.describe.roll_site_note": _("%(clan)s rolls %(dice)s by the site (%(note)s)."),
    "teikoku.tiebreak.victory": _("victory by %(termination)s"),
    "teikoku.tiebreak.shared_victory": _("shared victory by %(termination)s"),
    "teikoku.already_raided": _(
        "%(defender)s's treasury has already been raided this season: \"only one Player may raid the "
        'Treasury of an enemy in a season".'
    ),
    "teikoku.bad_text": _('"%(field)s" must be a short text that says something, without control characters.'),
    "teikoku.banish_used": _("%(seat)s has already banished a card this Autumn."),
    "teikoku.bounty_above_blood": _("A bounty is at most the defeated card's blood value (%(blood)s), not %(asked)s."),
    "teikoku.deck_empty": _("The %(deck)s deck is empty."),
    "teikoku.deck_overdraw": Plural(
        ngettext_lazy(
            "The %(deck)s deck holds %(available)s card; %(asked)s cannot leave it.",
            "The %(deck)s deck holds %(available)s cards; %(asked)s cannot leave it.",
            "available",
        ),
        "available",
    ),
    "teikoku.fortified": _(
        '%(defender)s has no card slotted and is fortified: "that player cannot be attacked by enemies".'
    ),
    "teikoku.game_over": _("The game is over."),
    "teikoku.missing_field": _("This needs %(fields)s."),
    "teikoku.not_an_object": _("This must be a JSON object."),
    "teikoku.not_autumn": _("Only in Autumn may a player banish a card during movement."),
    "teikoku.not_your_turn": _("It is %(turn)s's turn in the %(phase)s phase, not %(seat)s's."),
    "teikoku.out_of_range": _('"%(field)s" must be from %(low)s to %(high)s.'),
    "teikoku.overdraw": _("%(holder)s has %(available)s treasure available; this needs %(asked)s."),
    "teikoku.port_closed": _(
        'Summer: the Port is closed, so no %(action)s. "Players Cannot Attack or Acquire From Port".'
    ),
    "teikoku.port_defended": Plural(
        ngettext_lazy(
            "The Port's treasury can be attacked only once the Units deck is empty; it holds %(units)s card.",
            "The Port's treasury can be attacked only once the Units deck is empty; it holds %(units)s cards.",
            "units",
        ),
        "units",
    ),
    "teikoku.port_row_empty": _("No card is left in the Port row for %(action)s."),
    "teikoku.raid_self": _("%(seat)s cannot raid their own treasury."),
    "teikoku.same_treasury": _("Treasure moves between two different treasuries."),
    "teikoku.setup.clans": _("With %(players)s players the clans are, in playing order, %(clans)s."),
    "teikoku.setup.deck_too_small": Plural(
        ngettext_lazy(
            "The %(deck)s deck has only %(size)s card: the players cannot all choose from it.",
            "The %(deck)s deck has only %(size)s cards: the players cannot all choose from it.",
            "size",
        ),
        "size",
    ),
    "teikoku.setup.decks_empty": _(
        "The %(decks)s decks would be empty before play begins, so the game would end by attrition at once."
    ),
    "teikoku.setup.players": _("Teikoku is played by %(low)s to %(high)s players, not %(players)s."),
    "teikoku.setup.target_too_low": _(
        "%(seat)s's aggression target (%(target)s) must be above the starting treasure "
        "(%(starting_treasure)s), or the game would be won before it starts."
    ),
    "teikoku.transactions_used": _(
        '%(seat)s has made the %(limit)s commerce and trade transactions this turn allows: "There is a '
        'hard limit of %(limit)s Commerce and Trade transactions per player per turn".'
    ),
    "teikoku.unknown_field": _("Unknown field(s) %(fields)s; the fields are %(allowed)s."),
    "teikoku.unknown_name": _('"%(field)s" must be one of %(allowed)s.'),
    "teikoku.unknown_type": _("Unknown move type; move types are %(allowed)s."),
    "teikoku.winter_truce": _('Winter: "Players Cannot Attack Any Other Players", so no raid.'),
    "teikoku.wrong_length": _('"%(field)s" must have one entry per seat (%(expected)s), not %(got)s.'),
    "teikoku.wrong_phase": _("%(action)s happens in the %(phase)s phase; this is the %(current_phase)s phase."),
    "teikoku.wrong_type": _('"%(field)s" must be a %(expected)s.'),
}
NAMES = frozenset(
    {
        "teikoku.clan",
        "teikoku.describe.move",
        "teikoku.describe.move_and_end",
    }
)

WORDS = {
    "seat": _clan,
    "defender": _clan,
    "turn": _clan,
    "holder": _holder,
    "season": in_words(SEASONS),
    "phase": in_words(PHASES),
    "current_phase": in_words(PHASES),
    "deck": in_words(DECK_LABELS),
    "decks": in_words(DECK_LABELS),
    "termination": in_words(TERMINATIONS),
    "action": in_words(ACTIONS),
    "expected": _expected,
    "clans": in_words(CLAN_NAMES),
}

CATALOGUE = Catalogue(SENTENCES, WORDS, names=NAMES, and_lists=frozenset({"clans", "decks"}))
