"""Deterministic calculators (VRAM, training, GPU fit, cost) and Russian parameter extraction.

Entry points: `assistant.tools.registry` (tools for the engine/API/LLM) and
`assistant.tools.solve.solve(text, carried)` (free text → NumericOutcome). See docs/calculators.md.
"""
