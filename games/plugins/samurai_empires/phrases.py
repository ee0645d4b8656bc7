"""Small Samurai Empires' words in the reader's language: every code its engine says (refusals, the sheet's
and the solo AIs' sentences, tie-breaks) as a gettext sentence with the engine's named parameters, and the
game words among them (the AIs' colours, locations, actions). Regions and provinces keep the names the club
gave them. tests/games/test_phrases_dutch.py proves every code the engine source can produce is here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.phrases import Catalogue, Plural, in_words

AI_COLOURS = {"yellow": _("Yellow AI"), "blue": _("Blue AI")}
LOCATIONS = {"capital": _("Capital"), "bushido": "Bushido", "food": _("Food"), "shrine": _("Shrine")}
ACTIONS = {
    "attack": _("Attack"),
    "harvest": _("Harvest"),
    "recruit": _("Recruit Armies"),
    "castle": _("Build a Castle"),
    "move": _("Move"),
    "none": _("nothing"),
}
MOVES = {
    "era_score": _("score the era"),
    "final_score": _("the final count"),
    "place": _("place a token"),
    "pass": _("pass"),
    "ai_step": _("the AI's step"),
    "report": _("report your Armies"),
    "resolve": _("resolve your token"),
}


def _resource(value: Any, state: dict | None) -> str:
    return str(LOCATIONS.get(value, value))


SENTENCES: dict[str, Any] = {
    "samurai_empires.ai": "%(ai)s",  # a name, said alike
    "samurai_empires.location_card": "%(region)s %(location)s",  # a name, said alike
    "samurai_empires.party_points": "%(party)s %(points)s",  # a name, said alike
    "samurai_empires.armies_in": Plural(
        ngettext_lazy("%(n)s Army in %(province)s", "%(n)s Armies in %(province)s", "n")
    ),
    "samurai_empires.armies_of_in": _("%(n)s of %(party)s's Armies in %(province)s"),
    "samurai_empires.n_in": "%(n)s in %(province)s",  # a name, said alike
    "samurai_empires.ai.attacks": _("it attacks and destroys %(destroyed)s"),
    "samurai_empires.ai.builds_castle": _("it builds a Castle in %(province)s"),
    "samurai_empires.ai.cannot_attack": _("it has no Army where the card points, so it cannot attack"),
    "samurai_empires.ai.harvests": _("it harvests %(gains)s"),
    "samurai_empires.ai.move": _("it gains 1 VP (Move)"),
    "samurai_empires.ai.neutral_action": _(
        "it has Armies in every matching province, so does the neutral action: %(what)s"
    ),
    "samurai_empires.ai.no_castle_site": _("it has nowhere to build a Castle"),
    "samurai_empires.ai.no_enemy": _("no enemy Army stands where it attacks"),
    "samurai_empires.ai.no_harvest": _("it has no Army to harvest with"),
    "samurai_empires.ai.no_token": _("it has no face-down token left"),
    "samurai_empires.ai.recruits": _("it recruits %(armies)s"),
    "samurai_empires.ai.recruits_none": _(
        "it recruits no Army (3 in the province already, or none left in its supply)"
    ),
    "samurai_empires.gain.influence": _("1 influence in %(region)s"),
    "samurai_empires.gain.point": _("1 VP"),
    "samurai_empires.gain.resource": "1 %(resource)s",  # a name, said alike
    "samurai_empires.describe.era": _("Era %(era)s — %(move)s"),
    "samurai_empires.describe.ai_no_card": _(
        "%(party)s has no card whose region has room for a token, and places none."
    ),
    "samurai_empires.describe.ai_plan": _(
        "%(party)s draws %(card)s and places a face-down token on space %(space)s of %(region)s; %(done)s."
    ),
    "samurai_empires.describe.ai_plan_set_aside": _(
        "%(party)s draws %(card)s (after %(set_aside)s, whose regions are full: to the bottom) and "
        "places a face-down token on space %(space)s of %(region)s; %(done)s."
    ),
    "samurai_empires.describe.ai_reveals": _(
        "%(party)s reveals %(action)s on space %(space)s of %(region)s: %(what)s."
    ),
    "samurai_empires.describe.era_scored": _("Era %(era)s scored: %(scores)s."),
    "samurai_empires.describe.final_count": _("Final count: %(scores)s."),
    "samurai_empires.describe.pass": _("%(party)s has no space to place a token on and passes."),
    "samurai_empires.describe.place": _("%(party)s places a token on space %(space)s of %(region)s."),
    "samurai_empires.describe.place_covering": _(
        "%(party)s places a token on space %(space)s of %(region)s, paying %(cost)s Bushido to cover "
        "%(covered)s's token."
    ),
    "samurai_empires.describe.report": _("%(party)s reports their Armies: %(armies)s."),
    "samurai_empires.describe.report_none": _("%(party)s reports their Armies: none."),
    "samurai_empires.describe.resolve": _("%(party)s resolves the token on space %(space)s of %(region)s."),
    "samurai_empires.describe.resolve_destroying": _(
        "%(party)s resolves the token on space %(space)s of %(region)s, destroying %(destroyed)s."
    ),
    "samurai_empires.describe.solo_standing": _("%(party)s %(points)s against the AIs' %(ais)s together."),
    "samurai_empires.describe.turn_order": _("Turn order: %(order)s."),
    "samurai_empires.describe.turn_order_era": _("Turn order for era %(era)s: %(order)s."),
    "samurai_empires.era.destiny_card": _("Destiny card: %(region)s (its %(drawn)s)."),
    "samurai_empires.era.destiny_empty": _("The destiny deck is empty."),
    "samurai_empires.era.location_card_added": _("%(ai)s adds the %(region)s %(location)s location card to its deck."),
    "samurai_empires.era.no_location_card": _("%(ai)s has no %(region)s location card left to add."),
    "samurai_empires.tiebreak.fewest_resources": _("fewest resources"),
    "samurai_empires.tiebreak.shared": _("tie shared: same points and same resources"),
    "samurai_empires.tiebreak.solo_defeat": _("solo defeat: not more points than the two AIs combined"),
    "samurai_empires.tiebreak.solo_victory": _("solo victory: more points than the two AIs combined"),
    "samurai_empires.bad_length": _("%(field)s must hold %(shortest)s to %(longest)s items."),
    "samurai_empires.bad_text": _("%(field)s must be a short plain text."),
    "samurai_empires.cannot_cover": _(
        "Space %(space)s of %(region)s cannot be covered: a token is covered at most once, and each "
        "party's tokens at most once an era."
    ),
    "samurai_empires.castle_taken": _("A province holds one Castle."),
    "samurai_empires.destiny_deck": _("The destiny deck needs enough cards for the solo schedule."),
    "samurai_empires.duplicate_name": _("Every region and province needs its own name."),
    "samurai_empires.duplicate_player": _("Every player needs their own name."),
    "samurai_empires.game_over": _("The game is over."),
    "samurai_empires.missing_field": _("%(field)s needs %(missing)s."),
    "samurai_empires.new_region_needed": _("When playing with 5 players you must use the New Region."),
    "samurai_empires.no_archers": _("%(party)s has no Archers: they come with the Training Grounds."),
    "samurai_empires.no_training_ground": _(
        "%(party)s plays without a Training Ground, so has no trained armies to record."
    ),
    "samurai_empires.not_a_list": _("%(field)s must be a list."),
    "samurai_empires.not_an_int": _('"%(field)s" must be a whole number.'),
    "samurai_empires.not_an_object": _("This must be a JSON object."),
    "samurai_empires.not_now": _("This move is not open now; open moves: %(open)s."),
    "samurai_empires.not_text": _("%(field)s must be text."),
    "samurai_empires.order_tokens": _("An AI plays its 11 order tokens less the 3 Move tokens."),
    "samurai_empires.out_of_range": _("%(field)s must be between %(low)s and %(high)s."),
    "samurai_empires.region_count": _("The map has 4 regions, or 5 with the New Region, not %(regions)s."),
    "samurai_empires.region_provinces": _("%(region)s needs exactly one Capital and at least one Shrine province."),
    "samurai_empires.region_slots": _("%(region)s needs 2 resource slots: every region gets a Bushido and a Food."),
    "samurai_empires.seed_tokens": _(
        "Every region needs a Bushido and a Food seed token, and the seed tokens fill the map's resource slots."
    ),
    "samurai_empires.seeding_count": _("The map holds a different number of %(kind)s seed tokens."),
    "samurai_empires.seeding_region": _(
        "Every region needs at least 1 Bushido and 1 Food; %(region)s does not have both."
    ),
    "samurai_empires.shared_training_ground": _(
        "Each house has its own Training Ground: two players cannot share one."
    ),
    "samurai_empires.sieges_over_archers": _(
        "%(party)s has %(archers)s trained Archer(s), so %(sieges)s cannot be besieging."
    ),
    "samurai_empires.sieges_over_castles": _("Opponents have too few Castles for %(party)s's Archers to besiege."),
    "samurai_empires.solo_only": _("This belongs to the solo mode."),
    "samurai_empires.solo_players": _("The solo mode has one player against the two AIs."),
    "samurai_empires.solo_regions": _(
        "The solo mode is played on the 4 regions of the base map (16 location cards per AI)."
    ),
    "samurai_empires.solo_turn_order": _("In the solo mode the player is last in the first era's turn order."),
    "samurai_empires.spaces_missing": _(
        "The solo mode needs %(region)s's order-token spaces, top to bottom, with the neutral action "
        "printed beside each."
    ),
    "samurai_empires.too_many_armies": _("A house has 16 Armies at most."),
    "samurai_empires.too_many_samurai": _(
        "%(party)s has too few Samurai meeples for that many Samurai and Elite Armies."
    ),
    "samurai_empires.turn_order": _("The first era's turn order names every seat once."),
    "samurai_empires.unknown_field": _("%(field)s has unknown field(s): %(unknown)s."),
    "samurai_empires.unknown_move": _("Unknown move type; move types are %(types)s."),
    "samurai_empires.unknown_name": _("%(field)s must be one of: %(choices)s."),
    "samurai_empires.wrong_era": _("The sheet is at era %(era)s."),
}
NAMES = frozenset(
    {
        "samurai_empires.ai",
        "samurai_empires.n_in",
        "samurai_empires.location_card",
        "samurai_empires.party_points",
        "samurai_empires.gain.resource",
    }
)

WORDS = {
    "ai": in_words(AI_COLOURS),
    "location": in_words(LOCATIONS),
    "resource": _resource,
    "kind": _resource,
    "action": in_words(ACTIONS),
    "open": in_words(MOVES),
    "types": in_words(MOVES),
}

CATALOGUE = Catalogue(SENTENCES, WORDS, names=NAMES)
