"""A user's message (+ the conversation) → Understanding: what it asks, with which parameters.

The only package that runs a regex on what a user wrote; every word list is in lexicon.py.
reader.py reads a message once (ParsedMessage); decide.py decides what it asks.
"""
