"""Calculation outcome → what a person reads of it: the display block, the answer text, the
question back."""
