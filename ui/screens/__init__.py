"""Screens: the table, help (card reference, keys, rules) and the final scores."""
