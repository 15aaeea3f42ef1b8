"""Strings → strings, the ground floor: tokens and lemmas, number words, sentences, templates."""
