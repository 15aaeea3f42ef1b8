"""glossary-assistant: Russian GPU-glossary assistant (question → grounded answer)."""
