"""Message text + a glossary name matcher → whether a weak cue stands between two entries named.

    named_apart("NVLink или PCIe?", terms.match)               → True
    named_apart("с разреженностью 2:4 или без?", terms.match)  → False  (nothing named after it)

A cue («или», «чем», «против», … signals.PAIR_CUE) pairs two entries when the text before it names
one entry and the text after it names another: both sides name something and not the same.

Reading both sides of every cue costs the whole text per cue, so «или или или …» took seconds. But
a longer text names at least what its part names: moving right, the entries before a cue only grow
and those after it only shrink. Take the first cue with a name before it and the last with a name
after it; if both read the same set on each side, every cue between is squeezed between that set
and itself, and no cue pairs. Those two cues are found by galloping and bisection: a few reads of
the text instead of two per cue, and two, as before, for a question with one cue.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

from assistant.understanding.signals import PAIR_CUE


def named_apart(text: str, match: Callable[[str], Mapping[str, float]]) -> bool:
    """Some cue has one entry named before it and another after it (`match`: text → slugs)."""
    cues = list(PAIR_CUE.finditer(text))
    if not cues:
        return False

    @cache
    def before(i: int) -> frozenset[str]:
        return frozenset(match(text[: cues[i].start()]))

    @cache
    def after(i: int) -> frozenset[str]:
        return frozenset(match(text[cues[i].end() :]))

    n = len(cues)
    first = _first(n, lambda i: bool(before(i)))  # the first cue with a name before it
    if first == n or not after(first):  # nothing after it, so nothing after any later cue
        return False
    if before(first) != after(first):
        return True
    last = n - 1 - _first(n - first, lambda j: bool(after(n - 1 - j)))  # the last with one after
    return before(last) != after(last)


def _first(n: int, holds: Callable[[int], bool]) -> int:
    """The least i < n for which `holds` is true, or n; `holds` is false, then true. Probes 0, 1,
    3, 7, … then bisects, so an answer near 0 costs a few probes near 0."""
    seen, probe = -1, 0  # holds(seen) is false (−1: nothing probed yet)
    while probe < n and not holds(probe):
        seen, probe = probe, 2 * probe + 1
    low, high = seen + 1, min(probe, n)  # the answer is in [low, high]
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle + 1
    return low
