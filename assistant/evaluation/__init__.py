"""Eval sets (eval/data/*.jsonl) → quality reports for retrieval, calculators and answers."""
