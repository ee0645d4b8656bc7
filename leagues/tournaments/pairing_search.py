"""A depth-first branch and bound for the least spread with no repeat (leagues/tournaments/pairing.py states the
contract): the best-placed player left takes a pod, his mates tried nearest in the standings first, and a branch
is cut as soon as its spread so far plus the floor of the players left (pairing.spread_floor: no split of them can
beat it) reaches the best split known. Counted, never timed: the same answer on any machine. It proves the
spread minimal when it runs out of branches before its work does."""

from __future__ import annotations


def search(values, partners: dict, sizes: list, best: int, work: int, floor) -> tuple[list | None, bool]:
    """(a split with spread below `best` and no pair of `partners` together, or None; whether the search was
    complete). `floor(values, sizes)` is the bound of the players left; `values` in standings order."""
    search = _Search(values, partners, sizes, best, work, floor)
    search.descend(list(range(len(values))), 0, [])
    return search.split, search.work > 0


class _Search:
    def __init__(self, values, partners, sizes, best, work, floor):
        self.values, self.partners, self.floor = values, partners, floor
        self.kinds = sorted(set(sizes))
        self.counts = {k: sizes.count(k) for k in self.kinds}
        self.best, self.work, self.split = best, work, None

    def descend(self, left: list, cost: int, pods: list) -> None:
        if not left:
            if cost < self.best:
                self.best, self.split = cost, [list(p) for p in pods]
            return
        for kind in self.kinds:
            if self.counts[kind] and self.work > 0:
                self.counts[kind] -= 1
                self.fill(left, kind, [left[0]], 1, 0, cost, pods)
                self.counts[kind] += 1

    def fill(self, left, kind, pod, start, pod_cost, cost, pods) -> None:
        """Mates for the pod of `left[0]` from `left[start:]`, nearest first."""
        if len(pod) == kind:
            self.work -= 1
            others = [p for p in left if p not in pod]
            sizes_left = [k for k in self.kinds for _ in range(self.counts[k])]
            if cost + pod_cost + self.floor([self.values[p] for p in others], sizes_left) < self.best:
                pods.append(pod)
                self.descend(others, cost + pod_cost, pods)
                pods.pop()
            return
        values = self.values
        for n in range(start, len(left)):
            if self.work <= 0:
                return
            candidate = left[n]
            if any(candidate in self.partners.get(p, ()) for p in pod):
                continue
            added = sum(abs(values[candidate] - values[p]) for p in pod)
            if cost + pod_cost + added >= self.best:
                break  # the rest are further down the standings: further from the pod's top
            self.fill(left, kind, [*pod, candidate], n + 1, pod_cost + added, cost, pods)
