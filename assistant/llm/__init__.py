"""OpenAI-compatible chat client (vLLM) and the LLM assists (condensation, argument filling)."""
