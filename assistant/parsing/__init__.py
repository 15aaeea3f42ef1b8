"""Raw message text → normalised words, lemmas, quantities and intents."""
