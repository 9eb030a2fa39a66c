"""Bots: they decide from a seat's view (or its legal commands) only."""
