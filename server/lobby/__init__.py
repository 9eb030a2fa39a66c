"""The lobby: the index of tables and connected players, join codes, saved games to resume or load."""
