"""The solo mode's shuffles and draws: splitmix64 over (seed, position), both kept in the state.

The site draws the seed when the table starts (it is in the set-up); every draw advances the
position. The same set-up and moves therefore give the same draws, and undo (a replay of the log
less its last move) takes an AI's step back exactly.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(seed: int, position: int) -> int:
    z = (seed + (position + 1) * GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def below(state: dict, n: int) -> int:
    """A number in 0..n-1, advancing the state's generator (mutates state["rng"])."""
    rng = state["rng"]
    value = splitmix64(rng["seed"], rng["position"]) % n
    rng["position"] += 1
    return value


def shuffle(state: dict, items: list) -> None:
    """Fisher-Yates, in place, with the state's generator."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]


def pick_counted(state: dict, counts: dict[str, int]) -> str | None:
    """One item at random from {name: how many} (each copy equally likely), taken out of `counts`."""
    total = sum(counts.values())
    if not total:
        return None
    roll = below(state, total)
    for name in sorted(counts):
        if roll < counts[name]:
            counts[name] -= 1
            return name
        roll -= counts[name]
    raise AssertionError("unreachable: the roll is below the total")
