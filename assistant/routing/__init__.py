"""Parsed message + retrieval evidence → route (term, comparison, numeric, refusal…) and scope."""
