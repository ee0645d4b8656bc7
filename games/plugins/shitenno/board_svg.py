"""Shitennō's board as SVG: eight provinces, their troops, gates, positions and kamons, and a legend of the seats."""

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# A province's box: its name, its own troop, its gate, then its four positions (rows of PITCH in the viewBox).
WIDTH, HEIGHT, PITCH = 176, 108, 114


def province_words(box: dict) -> dict:
    """What a province shows, in words: the troop printed on it ("3 Samurai": a large province asks 3 of its
    type) and its gate (the troop on the top bonus tile and how many tiles are stacked there). Said apart
    so that neither reads as the other: "Bushi ×3" read as "needs 3 Bushi"."""
    own = _("Own troop: %(n)d %(troop)s") % {"n": box["size"], "troop": box["troop"]}
    if box["tiles_left"]:
        gate = _("Gate: %(troop)s") % {"troop": box["gate"]}
        tiles = ngettext("%(n)d tile left", "%(n)d tiles left", box["tiles_left"]) % {"n": box["tiles_left"]}
    else:
        gate = _("Gate: %(troop)s") % {"troop": box["troop"]}
        tiles = _("no tile left")
    return {"own": own, "gate": gate, "tiles": tiles}


def board_svg(boxes: list[dict], seats: list[dict]) -> SafeString:
    """The board as SVG, built here rather than in a template: it is redrawn on every poll that finds the
    table moved, and its ~50 positions cost the template engine about ten times what this costs.

    Each province is a link (to the move panel with that province chosen) holding only its words, which begin
    its accessible name; its kamons are drawn over it, outside the link, and told in that name rather than to
    screen readers where they are drawn (taps go through them to the link). The SVG is a group, not an image:
    an image may not hold links."""
    rows = (len(boxes) + 1) // 2
    parts = [
        f'<figure class="board">\n<svg viewBox="0 0 362 {rows * PITCH}" role="group" aria-labelledby="board-title"'
        ' xmlns="http://www.w3.org/2000/svg">\n  <title id="board-title">',
        escape(_("The board: 8 provinces, their positions and kamons")),
        "</title>\n",
    ]
    golden, free = _("golden"), _("free")
    for box in boxes:
        name, x, y = box["name"], box["x"], box["y"]
        words = province_words(box)
        positions = []
        for p in box["positions"]:
            seat = p["seat"]
            owner = (seat["general"] + (f", {golden}" if p["golden"] else "")) if seat else free
            positions.append(_("%(value)d favour: %(owner)s") % {"value": p["value"], "owner": owner})
        label = f"{name}. {words['own']}. {words['gate']}, {words['tiles']}. {'; '.join(positions)}."
        parts.append(
            f'  <a href="?province={escape(box["slug"])}#move" class="province" aria-label="{escape(label)}">\n'
            f'    <rect x="{x}" y="{y}" width="{WIDTH}" height="{HEIGHT}" rx="8" class="prov-box"/>\n'
            f'    <text x="{x + 8}" y="{y + 19}" class="prov-name">{escape(name)}</text>\n'
            f'    <text x="{x + 8}" y="{y + 36}" class="prov-troop">{escape(words["own"])}</text>\n'
            f'    <text x="{x + 8}" y="{y + 52}" class="prov-gate">{escape(words["gate"])}</text>\n'
            f'    <text x="{x + WIDTH - 8}" y="{y + 52}" class="prov-tiles" text-anchor="end">'
            f"{escape(words['tiles'])}</text>\n"
            '  </a>\n  <g class="kamons" aria-hidden="true">\n'
        )
        for p in box["positions"]:
            seat, cx, cy = p["seat"], p["cx"], p["cy"]
            fill = f' style="fill:{escape(seat["fill"])}"' if seat else ""
            star = f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" class="star">★</text>' if p["golden"] else ""
            parts.append(
                f'    <circle cx="{cx}" cy="{cy}" r="15" class="pos{" golden" if p["golden"] else ""}"{fill}/>{star}'
                f'<text x="{cx}" y="{cy + 30}" text-anchor="middle" class="pos-value">{p["value"]}</text>\n'
            )
        parts.append("  </g>\n")
    parts.append('</svg>\n<figcaption>\n  <ul class="legend">')
    for seat in seats:
        parts.append(
            f'<li><span class="swatch" style="background:{escape(seat["fill"])}"></span>'
            f"{escape(seat['general'])} — {escape(seat['name'])} ({escape(seat['colour_name'])})</li>"
        )
    parts.append(
        f'\n  <li><span class="swatch golden-swatch">★</span>{escape(_("golden kamon"))}</li></ul>\n'
        "</figcaption>\n</figure>"
    )
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped
