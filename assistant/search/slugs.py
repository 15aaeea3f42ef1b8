"""Cosines of every chunk → best cosine per glossary slug, for one kind of chunk.

    best = BestPerSlug(slugs, slug_of, keep)   # once per index: which chunks, whose slug
    best.of(sims) -> {"nvlink": 0.83, ...}      # per query, slugs in sorted order

The dense leg scores the whole (glossary-sized) matrix; `np.maximum.at` over ~1 600 chunks cost
more than the product itself, so the chunks are sorted by slug once and each query takes one
`np.maximum.reduceat` over the runs. The maximum is exact: the same values as `maximum.at`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


class BestPerSlug:
    def __init__(self, slugs: Sequence[str], slug_of: np.ndarray, keep: np.ndarray) -> None:
        """`slugs`: sorted slug names; `slug_of[i]`: chunk i's position in them; `keep`: which
        chunks count (text chunks or question chunks)."""
        ids = np.flatnonzero(keep)
        self.order = ids[np.argsort(slug_of[ids], kind="stable")]
        ordered = slug_of[self.order]
        first = np.ones(len(ordered), dtype=bool)
        first[1:] = ordered[1:] != ordered[:-1]
        self.starts = np.flatnonzero(first)
        self.names = [slugs[i] for i in ordered[self.starts]]  # ascending, as `slugs` is

    def of(self, sims: np.ndarray) -> dict[str, float]:
        """Best cosine per slug with a chunk here; a slug whose best is not finite is left out."""
        if not len(self.order):
            return {}
        best: list[float] = np.maximum.reduceat(sims[self.order], self.starts).tolist()
        return {n: v for n, v in zip(self.names, best, strict=True) if math.isfinite(v)}
