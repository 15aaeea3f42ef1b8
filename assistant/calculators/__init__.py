"""Typed calculator parameters → typed results: VRAM, training memory, GPU fit, cost, energy;
the registry of tools for the engine, the API, the CLI and the LLM. Never reads user text."""
