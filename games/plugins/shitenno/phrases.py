"""Shitennō's words in the reader's language: every code its engine says (refusals, move descriptions,
tie-breaks) as a gettext sentence with the engine's named parameters, and the game words among them.

The Dutch is the Dutch rulebook's (Ruilen, Kaart nemen, Kamon, aanzienpunten); names (generals, provinces,
troops, titles) are printed alike in both. tests/games/test_phrases_dutch.py proves every code the engine
source can produce is here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.engines.shitenno.board import GENERALS, PROVINCES, TITLE_NAMES, TROOP_NAMES, TROOPS, card_name
from games.phrases import Catalogue, Plural, in_words, ordinal, word_list

BONUS_WORDS = {"exchange": _("Exchange"), "plus_one": "+1", "card_taking": _("Card Taking")}
LOT_WORDS = {
    "draw": _("The draw"),
    "lot": _("A lot"),
    "lot_a": _("Lot A"),
    "lot_b": _("Lot B"),
    # the final count's counts
    'A "positions" favour': _('A "positions" favour'),
    'A "title_bonus" favour': _('A "title_bonus" favour'),
    "Favour": _("Favour"),
    "A count of exchange tiles": _("A count of Exchange tiles"),
    "A count of plus_one tiles": _("A count of +1 tiles"),
    "A count of card_taking tiles": _("A count of Card Taking tiles"),
}
TROOP_OR_KOKU = {**TROOP_NAMES, "koku": "Koku"}


def _move(kind: Any, state: dict | None) -> str:
    from games.plugins import get_game  # the adapter imports this module: read its labels when saying

    return str(get_game("shitenno").move_label(str(kind)))


def _card(card: Any, state: dict | None) -> str:
    try:
        return card_name(card)
    except (KeyError, AttributeError):
        return str(card)


def _troop_counts(value: Any, state: dict | None) -> str:
    """Troops by type ({"bushi": 2, "sohei": 1}) -> "2 Bushi and 1 Sōhei"; a number or a word as it is."""
    if not isinstance(value, dict):
        return str(value)
    counts = [f"{value[t]} {TROOP_NAMES[t]}" for t in TROOPS if value.get(t)]
    return word_list(counts) if counts else str(_("no troops"))


def _titles(value: Any, state: dict | None) -> str:
    return " > ".join(TITLE_NAMES.get(t, t) for t in str(value).split(" > "))


SENTENCES: dict[str, Any] = {
    "shitenno.year": _("Year %(year)s — %(move)s"),
    "shitenno.card": "%(card)s",  # a name, said alike
    "shitenno.koku": "Koku %(value)s",  # a name, said alike
    "shitenno.cards": "%(cards)s",  # a name, said alike
    "shitenno.no_cards": _("no cards"),
    "shitenno.lot": _("%(cards)s and the %(title)s tile"),
    "shitenno.troops": "%(troops)s",  # a name, said alike
    "shitenno.troop_count": "%(n)s %(troop)s",  # a name, said alike
    "shitenno.no_troops": _("no troops"),
    "shitenno.paid": "%(paid)s (%(used)s)",  # a name, said alike
    "shitenno.paid_kokus": _("%(kokus)s kokus"),
    "shitenno.paid_kokus_lost": _("%(kokus)s kokus, %(lost)s lost"),
    "shitenno.used.hatamoto": _("Hatamoto as %(troop)s"),
    "shitenno.used.exchange_koku": _("Exchange Koku %(value)s → %(to)s"),
    "shitenno.used.exchange_troop": _("Exchange %(troop)s → %(to)s"),
    "shitenno.used.plus_one": _("+1 on %(on)s"),
    "shitenno.item.card": _("the %(card)s card"),
    "shitenno.item.koku": _("the Koku %(value)s card"),
    "shitenno.item.hatamoto": _("the Hatamoto"),
    "shitenno.item.plus_one": _("the +1 tile"),
    "shitenno.item.exchange": _("the Exchange tile"),
    "shitenno.describe.draw": _("%(general)s, Tairō, draws %(cards)s"),
    "shitenno.describe.offer": _("%(general)s offers %(to)s a lot: %(lot)s"),
    "shitenno.describe.accept": _("%(general)s accepts the lot: %(lot)s"),
    "shitenno.describe.refuse": _("%(general)s refuses the lot"),
    "shitenno.describe.refuse_last": _("%(general)s refuses the lot; refused by all, %(tairo)s keeps it"),
    "shitenno.describe.split": _("%(general)s splits the rest: lot A %(a)s; lot B %(b)s"),
    "shitenno.describe.choose": _("%(general)s chooses lot %(letter)s (%(mine)s); %(tairo)s takes %(theirs)s"),
    "shitenno.describe.place": _("%(general)s takes %(province)s %(position)s position for %(paid)s: +%(score)s"),
    "shitenno.describe.place_bonus": _("%(placed)s; takes a %(bonus)s tile"),
    "shitenno.describe.place_reveal": _("%(placed)s, revealing a %(troop)s"),
    "shitenno.describe.take_card": _("%(general)s uses Card Taking and draws a hidden card"),
    "shitenno.describe.take_card_shown": _("%(general)s uses Card Taking and draws a %(card)s card, shown"),
    "shitenno.describe.end_turn": _("%(general)s ends the turn"),
    "shitenno.describe.pass": _("%(general)s passes"),
    "shitenno.describe.end_turn_golden": _(
        "%(general)s ends the turn and turns the kamon on %(province)s's %(position)s position golden"
    ),
    "shitenno.describe.pass_golden": _(
        "%(general)s passes and turns the kamon on %(province)s's %(position)s position golden"
    ),
    "shitenno.tiebreak.leftmost": _(
        "tied on weight %(weight)s; the kamon furthest left (%(position)s position) wins the tie"
    ),
    "shitenno.tiebreak.titles": _("tied on %(favour)s favour; last year's titles decide (%(titles)s)"),
    "shitenno.card_reordered": _("Unknown troop card %(card)s; did you mean %(reordered)s?"),
    "shitenno.unknown_card": _(
        "Unknown troop card %(card)s; troop cards are %(troops)s or doubles such as bushi+sohei."
    ),
    "shitenno.unknown_troop": _("Unknown troop %(value)s; troops are %(troops)s."),
    "shitenno.unknown_koku": _("Unknown koku card %(value)s; koku cards are worth 1, 2 or 3."),
    "shitenno.unknown_province": _("Unknown province %(value)s; provinces are %(provinces)s."),
    "shitenno.unknown_title": _("Unknown title %(value)s; titles are %(titles)s."),
    "shitenno.not_an_object": _('A move is an object with "type" and "seat".'),
    "shitenno.unknown_type": _("Unknown move type %(value)s."),
    "shitenno.bad_seat": _('"seat" is the seat index of the player moving, 0 to %(last)s.'),
    "shitenno.unknown_fields": _("Unknown field(s) in a %(type)s move: %(fields)s; it takes %(allowed)s."),
    "shitenno.game_over": _("The game is over."),
    "shitenno.not_your_turn": _("It is %(mover)s's turn, not %(general)s's."),
    "shitenno.not_now": _("%(general)s cannot %(move)s now; open moves: %(open)s."),
    "shitenno.setup.not_an_object": _("The set-up must be an object with players, titles and gates."),
    "shitenno.setup.unknown_fields": _("Unknown set-up field(s): %(fields)s; a set-up has players, titles and gates."),
    "shitenno.setup.players": _('The set-up needs "players": a list such as [{"general": "honda"}, ...].'),
    "shitenno.setup.player_count": _("Shitennō is played by 2 to 4 players, not %(players)s."),
    "shitenno.setup.unknown_general": _("Unknown general %(value)s; generals are %(generals)s."),
    "shitenno.setup.general_twice": _("%(general)s is played by one player only."),
    "shitenno.setup.titles": _('The set-up needs "titles": one title per general, e.g. {"honda": "daimyo", ...}.'),
    "shitenno.setup.title_twice": _("Each title tile is dealt to one player only."),
    "shitenno.setup.gates": _('The set-up needs "gates": the troop face of each province\'s top bonus tile.'),
    "shitenno.setup.gate_troops": _("Only %(tiles)s bonus tiles show a %(troop)s; the gates show %(shown)s."),
    "shitenno.implausible_draw": Plural(
        ngettext_lazy(
            "%(card)s cannot be drawn: %(exist)s such card exists; known to be elsewhere: %(elsewhere)s.",
            "%(card)s cannot be drawn: %(exist)s such cards exist; known to be elsewhere: %(elsewhere)s.",
            "exist",
        ),
        "exist",
    ),
    "shitenno.implausible_hidden": Plural(
        ngettext_lazy(
            "%(card)s cannot be in %(general)s's hidden cards: %(exist)s such card exists; known to be elsewhere: "
            "%(elsewhere)s.",
            "%(card)s cannot be in %(general)s's hidden cards: %(exist)s such cards exist; known to be elsewhere: "
            "%(elsewhere)s.",
            "exist",
        ),
        "exist",
    ),
    "shitenno.cannot_pay_troops": Plural(
        ngettext_lazy(
            "%(general)s cannot pay %(cards)s: they hold %(held)s and %(hidden)s hidden card.",
            "%(general)s cannot pay %(cards)s: they hold %(held)s and %(hidden)s hidden cards.",
            "hidden",
        ),
        "hidden",
    ),
    "shitenno.cannot_pay_kokus": _("%(general)s cannot pay koku cards %(kokus)s: they hold %(held)s."),
    "shitenno.cards_not_lists": _(
        '%(what)s: "troops" and "kokus" must be lists, e.g. {"troops": ["bushi+sohei"], "kokus": [1, 2]}.'
    ),
    "shitenno.lot_not_an_object": _("%(what)s must be an object with troops, kokus and hierarchy."),
    "shitenno.lot_hierarchy": _('%(what)s needs a "hierarchy" tile: one of %(titles)s.'),
    "shitenno.hierarchy_taken": _("The %(title)s hierarchy tile is already in a lot."),
    "shitenno.no_more_card": _("The cards to share hold no more %(card)s card."),
    "shitenno.no_more_koku": _("The cards to share hold no more Koku %(value)s card."),
    "shitenno.draw_size": _(
        "The Tairō's draw is troop cards: %(troops)s, koku cards: %(kokus)s; the move has %(got_troops)s and "
        "%(got_kokus)s."
    ),
    "shitenno.koku_deck_short": Plural(
        ngettext_lazy(
            "The koku deck holds only %(left)s card worth %(value)s.",
            "The koku deck holds only %(left)s cards worth %(value)s.",
            "left",
        ),
        "left",
    ),
    "shitenno.split_shape": _('A split is {"lots": [lot, lot]}: two lots, each with a hierarchy tile.'),
    "shitenno.split_lot_shape": _('Each lot of a split is {"troops": [...], "kokus": [...], "hierarchy": ...}.'),
    "shitenno.split_same_tile": _("Each of the two lots needs its own hierarchy tile."),
    "shitenno.split_leftover": _("The two lots share out every remaining card; %(cards)s would be left over."),
    "shitenno.choose_shape": _('Choose a lot with "lot": 0 (lot A) or 1 (lot B).'),
    "shitenno.bonus_missing": _('Name the bonus face of the tile taken: "bonus" is one of %(bonuses)s.'),
    "shitenno.bonus_gone": _("Both %(troop)s tiles with the %(bonus)s bonus have already been taken."),
    "shitenno.troop_tiles_gone": _("All %(tiles)s %(troop)s tiles are already taken or on show."),
    "shitenno.no_kamon_left": _("%(general)s has no control kamon left."),
    "shitenno.kamons_per_year": _("%(general)s has already placed %(most)s kamons this year, the most a year allows."),
    "shitenno.province_full": _("%(province)s is full: all %(positions)s positions are taken."),
    "shitenno.not_hatamoto": _("Only the Hatamoto may use the Hatamoto tile; %(general)s is %(title)s."),
    "shitenno.hatamoto_used": _("The Hatamoto tile may be used only once per turn."),
    "shitenno.tiles_short": Plural(
        ngettext_lazy(
            "%(general)s has %(held)s %(bonus)s tile; the payment uses %(used)s.",
            "%(general)s has %(held)s %(bonus)s tiles; the payment uses %(used)s.",
            "held",
        ),
        "held",
    ),
    "shitenno.no_bonus_here": _('%(province)s\'s last position takes no bonus tile; leave "bonus" out.'),
    "shitenno.next_troop_missing": _(
        'Name the troop face of the tile revealed on %(province)s\'s gate ("next_troop").'
    ),
    "shitenno.no_next_troop": _('No tile is left beneath on %(province)s\'s gate; leave "next_troop" out.'),
    "shitenno.no_card_taking": _("%(general)s has no Card Taking tile."),
    "shitenno.no_card_to_take": _("The troop deck and the discards are empty: there is no card to take."),
    "shitenno.golden_shape": _('"golden" is {"province": ..., "position": 1-4} or null.'),
    "shitenno.golden_position": _('"position" is 1 to %(positions)s, counted from the left.'),
    "shitenno.not_sensei": _("Only the Sensei may turn a kamon golden; %(general)s is not the Sensei."),
    "shitenno.golden_not_yours": _("%(general)s has no kamon on %(province)s's %(position)s position."),
    "shitenno.already_golden": _("The kamon on %(province)s's %(position)s position is already golden."),
    "shitenno.payment_missing": _('A placement needs a "payment": {"troops": [...], "kokus": [...], ...}.'),
    "shitenno.payment_fields": _("Unknown payment field(s): %(fields)s."),
    "shitenno.payment_lists": _('The payment\'s "troops", "kokus" and "bonuses" must be lists.'),
    "shitenno.bonus_shape": _(
        'Each bonus is {"tile": "exchange", "from": ..., "to": ...} or {"tile": "plus_one", "on": ...}.'
    ),
    "shitenno.exchange_no_koku": _("The Exchange tile has no Koku %(value)s card to change in this payment."),
    "shitenno.exchange_no_troop": _("The Exchange tile has no %(troop)s to change in this payment."),
    "shitenno.exchange_koku_to_koku": _("The Exchange tile changes a koku into a troop, not into a koku."),
    "shitenno.plus_one_no_koku": _("The +1 tile needs a koku being played."),
    "shitenno.plus_one_no_troop": _("The +1 tile needs a %(troop)s being played."),
    "shitenno.mixed_payment": Plural(
        ngettext_lazy(
            "A payment is all troops or all kokus (ruling 2); this one comes to %(troops)s and %(kokus)s koku.",
            "A payment is all troops or all kokus (ruling 2); this one comes to %(troops)s and %(kokus)s kokus.",
            "kokus",
        ),
        "kokus",
    ),
    "shitenno.costs": _("costs %(cost)s kokus; you paid %(paid)s"),
    "shitenno.needs": _("needs %(needed)s; you paid %(paid)s"),
    "shitenno.empty_payment": _("%(province)s is paid with troop cards or koku cards; the payment is empty."),
    "shitenno.troops_short": _("%(province)s needs %(needed)s; you paid %(paid)s."),
    "shitenno.kokus_short": _("%(province)s's %(position)s position costs %(cost)s kokus; you paid %(paid)s."),
    "shitenno.not_needed": _(
        "%(items)s is not needed: %(province)s's %(position)s position is paid without it. Take it out of the payment."
    ),
    "shitenno.not_needed_many": _(
        "%(items)s are not needed: %(province)s's %(position)s position is paid without them. Take them "
        "out of the payment."
    ),
    "shitenno.count.per_seat": _('The final count needs "%(field)s": one entry per seat (%(seats)s).'),
    "shitenno.count.not_a_count": _("%(what)s is a whole number from 0 to %(most)s, not %(value)s."),
    "shitenno.count.favour_fields": _('Each "favour" entry has "positions" and "title_bonus", not %(fields)s.'),
    "shitenno.count.favour_shape": _('Each "favour" entry is an int or {"positions": ..., "title_bonus": ...}.'),
    "shitenno.count.tiles_shape": _('"tiles" counts each seat\'s bonus tiles by face: %(bonuses)s.'),
    "shitenno.count.troops_shape": _(
        '"troops" lists each seat\'s troop cards, e.g. ["samurai", "bushi+sohei", "hidden"].'
    ),
    "shitenno.count.not_an_object": _("The final count needs an object describing the end of the game."),
    "shitenno.count.unknown_fields": _("Unknown final-count field(s): %(fields)s."),
    "shitenno.count.generals": _('The final count needs "generals": 2 to 4 of %(generals)s, one per seat.'),
    "shitenno.count.general_twice": _("Each general is played by one seat only."),
    "shitenno.count.titles": _('The final count needs "titles": the title each general held in the last year.'),
    "shitenno.count.title_twice": _("Each title is held by one general only."),
    "shitenno.count.termination": _('"termination" is one of %(terminations)s.'),
    "shitenno.count.provinces": _('"provinces" maps province slugs (%(provinces)s) to their kamons.'),
    "shitenno.count.kokus": _('"kokus" lists the koku cards in each seat\'s hand by value (at most %(most)s).'),
    "shitenno.count.kamons": _('%(province)s: kamons are [{"seat": 0-%(last)s, "face": "simple" or "golden"}].'),
}
NAMES = frozenset(
    {
        "shitenno.card",
        "shitenno.koku",
        "shitenno.cards",
        "shitenno.troops",
        "shitenno.troop_count",
        "shitenno.paid",
    }
)

WORDS = {
    "province": in_words({slug: p.name for slug, p in PROVINCES.items()}),
    "troop": in_words(TROOP_NAMES),
    "to": in_words(TROOP_OR_KOKU),
    "on": in_words(TROOP_OR_KOKU),
    "bonus": in_words(BONUS_WORDS),
    "bonuses": in_words(BONUS_WORDS),
    "title": in_words(TITLE_NAMES),
    "titles": _titles,
    "general": in_words(GENERALS),
    "position": ordinal,
    "card": _card,
    "what": in_words(LOT_WORDS),
    "needed": _troop_counts,
    "paid": _troop_counts,
    "troops": _troop_counts,
    "move": _move,
    "open": _move,
    "type": _move,
}

CATALOGUE = Catalogue(SENTENCES, WORDS, names=NAMES, and_lists=frozenset({"troops", "items"}))
