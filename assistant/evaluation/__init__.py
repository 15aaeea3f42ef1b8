"""Eval sets (eval/*.jsonl) → quality reports for retrieval, calculators and answers."""
