"""Messaging channels built on the answer engine (Telegram bot)."""
