"""The player page's two charts, drawn on the server as SVG geometry (no script, no style attribute): a rating line
with its axes, and the finishing places of recent games as labelled bars. Pure functions of the numbers; the
templates (templates/leagues/partials/*_chart.html) draw what these return, and site.css colours it for both
schemes. Coordinates are plain numbers (the templates write them with localisation off: "73,5" is no SVG
length); the values shown to the reader stay numbers, for the templates to write in the reader's language."""

from __future__ import annotations

import math

# The drawing box (SVG user units); the page scales it to the screen's width, so at 360 px one unit is ~1 px.
WIDTH, HEIGHT = 320, 150
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 12, 24  # room for the value axis on the left and the game axis below


def _nice_step(span: float, ticks: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts `span` into about `ticks` parts."""
    raw = span / max(ticks, 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _game_ticks(count: int) -> list[int]:
    """Which games (0 = before the first) get a label on the game axis: the first, the last, a few between."""
    if count <= 1:
        return [0]
    step = max(1, math.ceil((count - 1) / 5))
    ticks = list(range(0, count, step))
    if ticks[-1] != count - 1:
        if count - 1 - ticks[-1] < step / 2:
            ticks.pop()
        ticks.append(count - 1)
    return ticks


def rating_line(values: list[float], band: list[tuple[float, float]] | None = None) -> dict | None:
    """The rating after each game (values[0] is the rating before the first): a line with a value axis of round
    ticks, a game axis numbered from 0, a dot on each game and the last value written at its end; with `band`
    ((low, high) for each value), the band drawn behind the line as one shape."""
    if not values:
        return None
    low, high = min(values), max(values)
    if band:
        low, high = min(low, *(b[0] for b in band)), max(high, *(b[1] for b in band))
    if high - low < 1:
        low, high = low - 1, high + 1
    step = _nice_step(high - low, 3)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    dx = plot_w / max(len(values) - 1, 1)

    def y(v: float) -> float:
        return TOP + plot_h - (v - low) / (high - low) * plot_h

    points = [(LEFT + i * dx, y(v)) for i, v in enumerate(values)]
    digits = 0 if step >= 1 else 1
    value_ticks = [
        {"y": round(y(low + i * step), 1), "value": low + i * step} for i in range(round((high - low) / step) + 1)
    ]
    last_x, last_y = points[-1]
    band_points = ""
    if band:  # along the top, then back along the bottom
        xs = [LEFT + i * dx for i in range(len(band))]
        band_points = " ".join(
            [
                *(f"{x:.1f},{y(b[1]):.1f}" for x, b in zip(xs, band, strict=True)),
                *(f"{x:.1f},{y(b[0]):.1f}" for x, b in reversed(list(zip(xs, band, strict=True)))),
            ]
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": TOP + plot_h,
        "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
        "band": band_points,
        "dots": [
            {"x": round(px, 1), "y": round(py, 1), "value": v, "game": i}
            for i, ((px, py), v) in enumerate(zip(points, values, strict=True))
        ]
        if len(values) <= 40
        else [],
        "value_ticks": value_ticks,
        "game_ticks": [{"x": round(LEFT + i * dx, 1), "label": i} for i in _game_ticks(len(values))],
        "last": {
            "x": round(min(last_x, WIDTH - RIGHT), 1),
            "y": round(last_y - 6 if last_y > TOP + 14 else last_y + 14, 1),
            "value": values[-1],
        },
        "first_value": values[0],
        "last_value": values[-1],
        "games": len(values) - 1,
        "digits": digits,
    }


def places_bars(places: list[tuple[int, int]]) -> dict | None:
    """Recent counted games, oldest first, as (place, players at the table): one bar per game, as tall as the
    place is good (1st fills the height, last of n is 1/n of it), its place written on it."""
    if not places:
        return None
    most = max(n for _place, n in places)
    height = 110
    plot_top, plot_bottom = 14, height - 18
    plot_h = plot_bottom - plot_top
    slot = (WIDTH - LEFT - RIGHT) / max(len(places), 8)  # a few games do not make a few fat bars
    bar_w = max(slot * 0.7, 4)
    bars = []
    for i, (place, players) in enumerate(places):
        h = plot_h * (most - place + 1) / most
        x = LEFT + i * slot + (slot - bar_w) / 2
        bars.append(
            {
                "x": round(x, 1),
                "y": round(plot_bottom - h, 1),
                "width": round(bar_w, 1),
                "height": round(h, 1),
                "place": place,
                "players": players,
                "mid": round(x + bar_w / 2, 1),
                "first": place == 1,
            }
        )
    levels = [{"place": p, "y": round(plot_bottom - plot_h * (most - p + 1) / most, 1)} for p in range(1, most + 1)]
    return {
        "width": WIDTH,
        "height": height,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": plot_bottom,
        "bars": bars,
        "levels": levels,
        "label_size": 10 if slot >= 12 else 7,
        "places": ", ".join(str(place) for place, _n in places),
        "games": len(places),
    }
