"""Lemmatised chunk texts → a sparse Okapi BM25 index scoring queries by matrix products."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse


@dataclass(frozen=True)
class BM25Index:
    vocab: dict[str, int]
    weights: sparse.csc_matrix  # (n_docs, n_terms): idf × saturated tf, precomputed once

    @classmethod
    def build(cls, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> BM25Index:
        vocab: dict[str, int] = {}
        rows, cols, tfs = [], [], []
        for i, doc in enumerate(docs):
            for term, count in Counter(doc).items():
                rows.append(i)
                cols.append(vocab.setdefault(term, len(vocab)))
                tfs.append(count)
        n = len(docs)
        lengths = np.array([len(d) for d in docs], dtype=np.float64)
        avg = float(lengths.mean()) if n else 1.0
        tf = np.asarray(tfs, dtype=np.float64)
        row_idx = np.asarray(rows, dtype=np.int64)
        df = np.bincount(np.asarray(cols, dtype=np.int64), minlength=len(vocab))
        idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        norm = k1 * (1.0 - b + b * lengths[row_idx] / max(avg, 1e-9))
        data = idf[cols] * tf * (k1 + 1.0) / (tf + norm)
        shape = (n, len(vocab))
        matrix = sparse.csc_matrix((data.astype(np.float32), (rows, cols)), shape=shape)
        return cls(vocab=vocab, weights=matrix)

    def scores(self, query_terms: Sequence[str]) -> np.ndarray:
        """BM25 score of every document for the query (zeros when no term is known)."""
        ids = [self.vocab[t] for t in query_terms if t in self.vocab]
        if not ids:
            return np.zeros(self.weights.shape[0], dtype=np.float32)
        # column by column in the query's order, as `weights[:, cols] @ q` adds them (the same
        # float32 sums), without building the sliced sparse matrix: 0.03 vs 0.2 ms a query
        w = self.weights
        out = np.zeros(w.shape[0], dtype=np.float32)
        for col, count in Counter(ids).items():
            start, end = w.indptr[col], w.indptr[col + 1]
            out[w.indices[start:end]] += w.data[start:end] * np.float32(count)
        return out

    def save(self, path: str) -> None:
        terms = np.array(sorted(self.vocab, key=self.vocab.__getitem__), dtype=str)
        w = self.weights
        np.savez_compressed(
            path, data=w.data, indices=w.indices, indptr=w.indptr, shape=w.shape, terms=terms
        )

    @classmethod
    def load(cls, path: str) -> BM25Index:
        z = np.load(path, allow_pickle=False)
        matrix = sparse.csc_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
        vocab = {str(t): i for i, t in enumerate(z["terms"])}
        return cls(vocab=vocab, weights=matrix)
