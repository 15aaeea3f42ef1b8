"""Answer context → verified answer text: extractive composer, LLM prompts, grounding checks."""
