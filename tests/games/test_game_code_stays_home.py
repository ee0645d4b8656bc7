"""A game lives in its own folders (issue 28 section 1), checked the way a newcomer would: grep the shared code for
every registered game's slug and for the games' own words, and fail on a hit outside the short allow-list below.

The shared code is games/ (but games/engines/<slug>/ and games/plugins/<slug>/), leagues/, shitenno_site/,
templates/ (but templates/games/<slug>/) and static/ (but static/games/<slug>/). Left out, and why:
- migrations: history, which a later change cannot rewrite (an old migration may name what it moved);
- vendored files (htmx, workbox), which are not the site's code;
- games/registry.py, the one list that names each slug on purpose.

A slug joined to other words by "-" or "_" is a different name, not the game's: the site's package and brand
(`shitenno_site`, the "shitenno-offline" store, the "shitenno-club-export" format) are not Shitennō's code.
The site's name, Shitennō with its macron, is not searched for either: it is the site's, in every page's title.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
SHARED = ("games", "leagues", "shitenno_site", "templates", "static")
HOMES = tuple(
    home.format(slug=slug)
    for slug in GAMES
    for home in ("games/engines/{slug}/", "games/plugins/{slug}/", "templates/games/{slug}/", "static/games/{slug}/")
)
LEFT_OUT = ("games/registry.py", "static/js/htmx.min.js", "static/js/workbox/")
SUFFIXES = {".py", ".html", ".js", ".css", ".txt", ".json", ".svg"}

# Words only a game's rules use (from the engines' own vocabulary); words of ordinary English that a game also uses
# ("general", "clan", "era", "region", "port") are left out, or every docstring would need an exception.
GAME_WORDS = (
    "favour",
    "favours",
    "province",
    "provinces",
    "kamon",
    "kamons",
    "koku",
    "kokus",
    "daimyo",
    "shomyo",
    "hatamoto",
    "tairo",
    "tairō",
    "sohei",
    "shinobi",
    "treasure",
    "bounty",
    "yakuza",
    "bushido",
    "shrine",
    "shrines",
)

# (file, word, why): each a known, accepted exception. Keep it short: a new entry needs a reason a reviewer accepts.
ALLOWED = {
    (
        "leagues/imports/portability.py",
        "favour",
        'reads club exports made before games migration 0002, whose placings said "favour" for the score',
    ),
    (
        "leagues/models/derived.py",
        "treasure",
        'a field\'s help text ("treasure and victory points do not add up"): rewording it needs a migration',
    ),
    ("shitenno_site/gunicorn.py", "shitenno", "the Server header names the site, not the game"),
}


def matcher(slugs: tuple[str, ...] = GAMES, words: tuple[str, ...] = GAME_WORDS) -> re.Pattern:
    """Any case. A slug (or its spaced form, "samurai empires") as a whole name: run into other words by "-" or
    "_" it is another name (`shitenno_site`). A game word also inside a compound name (`.province-row`,
    `calc-provinces`, `favour_track`), but not inside a longer word (`favourite`, `provincial`)."""
    names = [*slugs, *(slug.replace("_", " ") for slug in slugs if "_" in slug)]
    whole = "|".join(re.escape(name) for name in names)
    part = "|".join(re.escape(word) for word in words)
    return re.compile(rf"(?<![\w-])({whole})(?![\w-])|(?<![^\W_])({part})(?![^\W_])", re.IGNORECASE)


def shared_files(root: Path = ROOT) -> list[Path]:
    found = []
    for top in SHARED:
        for path in sorted((root / top).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and "/migrations/" not in rel
                and not rel.startswith(HOMES)
                and not rel.startswith(LEFT_OUT)
            ):
                found.append(path)
    return found


def found_in(pattern: re.Pattern, text: str) -> list[str]:
    return [match.group(match.lastindex) for match in pattern.finditer(text)]


def hits(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Each "file:line: [word] text" where a slug or game word is found and ALLOWED does not cover it."""
    pattern, allowed, found = matcher(), {(rel, word) for rel, word, _why in ALLOWED}, []
    for path in paths:
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for word in found_in(pattern, line):
                if (rel, word.lower()) not in allowed:
                    found.append(f"{rel}:{number}: [{word}] {line.strip()[:120]}")
    return found


def test_no_game_slug_or_word_in_the_shared_code():
    files = shared_files()
    assert len(files) > 100  # the walk found the shared code, not an empty folder
    leaks = hits(files)
    assert not leaks, (
        "Game-specific code in shared files; move it to the game's folders (docs/games.md):\n" + "\n".join(leaks)
    )


def test_each_exception_is_still_needed():
    """An allow-list entry whose word left its file is stale, and goes."""
    for rel, word, _why in ALLOWED:
        text = (ROOT / rel).read_text(encoding="utf-8")
        assert word in [found.lower() for found in found_in(matcher(), text)], (rel, word)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('<ul class="rows favour">', ["favour"]),
        ("{% include 'games/shitenno/track.html' %}", ["shitenno"]),
        ("if game == 'SHITENNO':", ["SHITENNO"]),
        ("from games.plugins.samurai_empires import forms", ["samurai_empires"]),
        ("the Small Samurai Empires board", ["Samurai Empires"]),
        ("pay two kokus to the Tairō", ["kokus", "Tairō"]),
        ("from shitenno_site.api import x", []),
        ('FORMAT = "shitenno-club-export"', []),
        ("your favourite general; a provincial town", []),
        (".calc-provinces { } .favour_track", ["provinces", "favour"]),
        ("Score Shitennō at the table", []),
    ],
)
def test_the_matcher_finds_a_game_word_and_only_one(text, found):
    assert found_in(matcher(), text) == found


def test_a_planted_word_in_a_shared_file_fails_the_grep(tmp_path):
    """The same walk and matcher over a copy of the layout: a game's word in a shared template is caught, the same
    word in the game's own folder is not."""
    slug = GAMES[0]
    shared = tmp_path / "templates" / "games" / "partials" / "track.html"
    home = tmp_path / "templates" / "games" / slug / "track.html"
    for path in (shared, home):
        path.parent.mkdir(parents=True)
        path.write_text(f'<ul class="rows favour">{{% include "games/{slug}/seat.html" %}}</ul>\n')
    (tmp_path / "static" / "css").mkdir(parents=True)
    (tmp_path / "static" / "css" / "site.css").write_text(".province-row { display: grid; }\n.score { }\n")
    found = hits(shared_files(tmp_path), tmp_path)
    line = f'<ul class="rows favour">{{% include "games/{slug}/seat.html" %}}</ul>'
    assert sorted(found) == [
        "static/css/site.css:1: [province] .province-row { display: grid; }",
        f"templates/games/partials/track.html:1: [favour] {line}",
        f"templates/games/partials/track.html:1: [{slug}] {line}",
    ]
