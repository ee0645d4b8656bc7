"""Shitennō's board as SVG: eight provinces, their positions and kamons, and a legend of the seats."""

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def board_svg(boxes: list[dict], seats: list[dict]) -> SafeString:
    """The board as SVG, built here rather than in a template: it is redrawn on every poll that finds the
    table moved, and its ~50 positions cost the template engine about ten times what this costs."""
    parts = [
        '<figure class="board">\n<svg viewBox="0 0 362 370" role="img" aria-labelledby="board-title"'
        ' xmlns="http://www.w3.org/2000/svg">\n  <title id="board-title">',
        escape(_("The board: 8 provinces, their positions and kamons")), "</title>\n",
    ]
    favour, golden, free = escape(_("favour")), escape(_("golden")), escape(_("free"))
    for box in boxes:
        name, x, y = escape(box["name"]), box["x"], box["y"]
        gate = f"{escape(box['gate'])} ×{box['tiles_left']}" if box["tiles_left"] else escape(_("no tile"))
        parts.append(
            f'  <a href="?province={escape(box["slug"])}#move" class="province" aria-label="{name}">\n'
            f'    <rect x="{x}" y="{y}" width="176" height="86" rx="8" class="prov-box"/>\n'
            f'    <text x="{x + 8}" y="{y + 20}" class="prov-name">{name}</text>\n'
            f'    <text x="{x + 168}" y="{y + 20}" class="prov-gate" text-anchor="end">{gate}</text>\n'
        )
        for p in box["positions"]:
            seat, cx, cy = p["seat"], p["cx"], p["cy"]
            owner = f" — {escape(seat['general'])}" + (f", {golden}" if p["golden"] else "") if seat else f" — {free}"
            fill = f' style="fill:{escape(seat["fill"])}"' if seat else ""
            star = (f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" class="star">★</text>' if p["golden"] else "")
            parts.append(
                f'    <g><title>{name} {p["number"]}: {p["value"]} {favour}{owner}</title>'
                f'<circle cx="{cx}" cy="{cy}" r="15" class="pos{" golden" if p["golden"] else ""}"{fill}/>{star}'
                f'<text x="{cx}" y="{cy + 30}" text-anchor="middle" class="pos-value">{p["value"]}</text></g>\n'
            )
        parts.append("  </a>\n")
    parts.append('</svg>\n<figcaption>\n  <ul class="legend">')
    for seat in seats:
        parts.append(f'<li><span class="swatch" style="background:{escape(seat["fill"])}"></span>'
                     f'{escape(seat["general"])} — {escape(seat["name"])} ({escape(seat["colour_name"])})</li>')
    parts.append(f'\n  <li><span class="swatch golden-swatch">★</span>{escape(_("golden kamon"))}</li></ul>\n'
                 "</figcaption>\n</figure>")
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped
