"""Telegram bot for arbiters and players (python-telegram-bot 22.x); built by a later issue."""
