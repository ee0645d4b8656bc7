"""Which game each of a round's tables plays (issue 34), chosen after the optimiser has split the players.

Why a module of its own: `pods` splits players into tables and only needs to know which games a table COULD play
(sizes, the games each player accepts); which game it DOES play is a question of the night's boxes and of sharing
the tables out across the games on offer, which the split does not weigh. Kept free of Django like `pods`, so it
can be tested without a database.

The rules, in order:
1. hard: a table plays a game on offer that seats its size and that every player at it accepts, and no game is
   played at more tables than the club has boxes of it tonight (`boxes`; a game without a number has no limit);
   locked tables keep their game and take their boxes first;
2. spread: the tables are shared out across the games as evenly as the players allow (the sum of the squares of
   the tables per game is the least possible: 8 players who accept both of two games get one table of each);
3. among equally even assignments, the first choice found (tables in order, the game with fewest tables so far,
   then the optimiser's own choice, then the night's order of games): the same night gives the same tables.
When the boxes cannot seat the split, the split is asked again with its smallest table size left out (fewer,
larger tables) before the night is refused.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Sequence

from . import pods

UNLIMITED = 10**9


def fitting_games(players: Sequence, *, offered: Sequence[str], sizes: dict, accepts: dict) -> list[str]:
    """The games on offer, in the night's order, that a table of these players may play (its size allowed, every
    player accepting it)."""
    return [
        game
        for game in offered
        if len(players) in sizes.get(game, ()) and all(game in accepts.get(p, (game,)) for p in players)
    ]


def propose(request: pods.Night, *, offered: Sequence[str], boxes: dict) -> list[pods.Table]:
    """The round's tables: the optimiser's split with each new table's game chosen here (locked tables first, as
    given). Raises pods.PodsError (code "boxes", with "tables") when tonight's boxes cannot seat everyone."""
    games = dict(request.games or {})
    shortage = None
    for smallest in sorted({s for sizes in games.values() for s in sizes}) or [0]:
        allowed = {g: tuple(s for s in sizes if s >= smallest) for g, sizes in games.items()}
        allowed = {g: sizes for g, sizes in allowed.items() if sizes}
        try:
            proposal = pods.propose(_with_games(request, allowed))
        except pods.PodsError:
            if shortage is None:
                raise
            break  # fewer, larger tables cannot be had: say the boxes are short
        new = [t for t in proposal.tables if not t.locked]
        chosen = assign(
            new, locked=request.locked, offered=offered, sizes=allowed, accepts=request.accepts, boxes=boxes
        )
        if chosen is not None:
            return [*request.locked, *(_seated(t, g, request) for t, g in zip(new, chosen, strict=True))]
        shortage = len(proposal.tables)  # the fewest tables tried so far
    raise pods.PodsError(
        f"Tonight's boxes cannot seat everyone: the split needs {shortage} tables.", "boxes", tables=shortage
    )


def _with_games(request: pods.Night, games: dict) -> pods.Night:
    """The same night with other games' sizes: every other field (the mix, the time budget...) kept as asked."""
    return dataclasses.replace(request, games=games)


def _seated(table: pods.Table, game: str, request: pods.Night) -> pods.Table:
    """The table at `game`; when that is not the optimiser's game, its seat order is worked out again for this
    game's seat history (the optimiser's own function, on this one table)."""
    if game == table.game:
        return table
    one = pods.Night(
        players=list(table.players),
        games={game: (len(table.players),)},
        seats=request.seats,
        renyi_order=request.renyi_order,
    )
    return pods.Table(pods.propose(one).tables[0].players, game)


def assign(
    tables: Sequence[pods.Table],
    *,
    locked: Sequence[pods.Table],
    offered: Sequence[str],
    sizes: dict,
    accepts: dict,
    boxes: dict,
) -> list[str] | None:
    """A game for each table (in order), or None when the boxes cannot seat them all (module docstring)."""
    options = [fitting_games(t.players, offered=offered, sizes=sizes, accepts=accepts) for t in tables]
    load = {game: 0 for game in offered}
    for table in locked:
        load[table.game] = load.get(table.game, 0) + 1
    room = {game: boxes.get(game, UNLIMITED) for game in load}
    chosen: list[str | None] = [None] * len(tables)
    for i in sorted(range(len(tables)), key=lambda i: len(options[i])):
        free = [g for g in options[i] if load[g] < room[g]]
        if free:
            chosen[i] = min(free, key=lambda g: (load[g], g != tables[i].game, offered.index(g)))
            load[chosen[i]] += 1
            continue
        path = _path(options[i], chosen, options, lambda g: load[g] < room[g])
        if path is None:
            return None
        start, moves = path
        _apply(moves, chosen, load)
        chosen[i] = start
        load[start] += 1
    _even_out(chosen, options, offered, load, room)
    return chosen


def _path(starts: Sequence[str], chosen: list, options: list, goal) -> tuple | None:
    """Breadth-first from the games `starts`: a chain of tables each moving to another game it may play, ending at
    a game that meets `goal`. Returns (the start game, [(table, its new game), ...]) or None."""
    came: dict[str, tuple | None] = {g: None for g in starts}
    queue = deque(starts)
    while queue:
        game = queue.popleft()
        if came[game] is not None and goal(game):
            moves, at = [], game
            while came[at] is not None:
                table, before = came[at]
                moves.append((table, at))
                at = before
            return at, moves
        for table, now in enumerate(chosen):
            if now != game:
                continue
            for other in options[table]:
                if other not in came:
                    came[other] = (table, game)
                    queue.append(other)
    return None


def _apply(moves: list, chosen: list, load: dict) -> None:
    for table, game in moves:
        load[chosen[table]] -= 1
        chosen[table] = game
        load[game] += 1


def _even_out(chosen: list, options: list, offered: Sequence[str], load: dict, room: dict) -> None:
    """While a chain of moves takes a table from a game with more tables to one with at least two fewer (and a free
    box), make it: each such chain lowers the sum of squares, and none left means it is the least possible."""
    improved = True
    while improved:
        improved = False
        for game in sorted(load, key=lambda g: (-load[g], offered.index(g) if g in offered else 0)):
            path = _path([game], chosen, options, lambda g, top=load[game]: load[g] + 1 < top and load[g] < room[g])
            if path is not None:
                _apply(path[1], chosen, load)
                improved = True
                break
