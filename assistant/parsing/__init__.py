"""Raw message text → one ParsedMessage (message.py): tokens, lemmas, quantities, dates, signals."""
